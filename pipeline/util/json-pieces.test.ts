import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { seededRandom, type Random } from '../../test/support/random.ts';
import { jsonPieces, utf8OfPieceGroups, utf8OfPieces } from './json-pieces.ts';

const STRINGS = ['', 'a', 'GPTBot', 'line\nbreak', 'quote " and \\ back', 'é ü 😀', '\u2028', 'x'.repeat(9000)];

/** Random JSON-shaped values, with what JSON.stringify treats specially: undefined, functions, toJSON, empty containers, deep nesting. */
function randomValue(random: Random, depth: number): unknown {
  const kind = random.int(depth > 4 ? 5 : 9);
  switch (kind) {
    case 0:
      return random.pick(STRINGS);
    case 1:
      return random.pick([0, -1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 42]);
    case 2:
      return random.pick([true, false, null]);
    case 3:
      return random.pick([undefined, () => 1, Symbol('s')]);
    case 4:
      return new Date(Date.UTC(2026, 10, 29, random.int(24)));
    case 5:
    case 6:
      return Array.from({ length: random.int(6) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = random.int(6); i > 0; i--) object[random.pick(['a', 'b', 'long key', 'ключ', '"', String(i)])] = randomValue(random, depth + 1);
      return object;
    }
  }
}

describe('json-pieces.ts: JSON.stringify in pieces of a few kilobytes', () => {
  test('the pieces joined are JSON.stringify of 2,000 random values, compact and indented', () => {
    const random = seededRandom(29);
    for (let n = 0; n < 2000; n++) {
      const value = randomValue(random, 0);
      for (const indent of [0, 2]) {
        const expected = JSON.stringify(value, null, indent) as string | undefined;
        if (expected === undefined) {
          assert.throws(() => jsonPieces(value, indent), /cannot be written as JSON/);
          continue;
        }
        assert.equal(jsonPieces(value, indent).join(''), expected, `value ${n}, indent ${indent}`);
      }
    }
  });

  test('a published 2 MB document comes back byte for byte, in pieces of a few kilobytes', () => {
    // dist/data/agents.json is written by canonicalJson: JSON.stringify(value, null, 2) and a newline.
    const text = readFileSync(new URL('../../dist/data/agents.json', import.meta.url), 'utf8');
    const pieces = jsonPieces(JSON.parse(text), 2);
    assert.equal(pieces.join('') + '\n', text);
    assert.ok(pieces.length > 100, `${pieces.length} pieces`);
    assert.deepEqual(Buffer.from(utf8OfPieces([...pieces, '\n'])), Buffer.from(text, 'utf8'));
  });

  test('utf8OfPieceGroups: the bytes and where each group starts, with characters of one to four bytes and lone surrogates anywhere', () => {
    const random = seededRandom(8);
    const characters = ['a', '"', 'é', '€', '😀', '\ud800', '\udfff', 'z'];
    for (let n = 0; n < 500; n++) {
      const groups = Array.from({ length: 1 + random.int(4) }, () =>
        Array.from({ length: random.int(4) }, () =>
          Array.from({ length: random.int(12) }, () => (random.int(3) === 0 ? random.pick(characters) : 'x')).join(''),
        ),
      );
      const { bytes, starts } = utf8OfPieceGroups(groups);
      // Each piece is encoded alone: a surrogate pair split between two pieces is two lone
      // surrogates (jsonPieces never splits a character).
      const encoded = (pieces: readonly string[]) => Buffer.concat(pieces.map((piece) => new TextEncoder().encode(piece)));
      assert.deepEqual(Buffer.from(bytes), encoded(groups.flat()), `groups ${JSON.stringify(groups)}`);
      assert.deepEqual(
        starts,
        groups.map((_, g) => encoded(groups.slice(0, g).flat()).length),
      );
    }
  });

  test('utf8OfPieces: characters of several bytes, and no pieces at all', () => {
    assert.deepEqual(Buffer.from(utf8OfPieces(['é', '😀', ''])), Buffer.from('é😀', 'utf8'));
    assert.equal(utf8OfPieces([]).length, 0);
  });
});
