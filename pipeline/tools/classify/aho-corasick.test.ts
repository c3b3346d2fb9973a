import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMatcher, findAll, type Occurrence } from './aho-corasick.ts';
import { seededRandom } from '../../../test/support/random.ts';

/** The obvious implementation the automaton must agree with. */
function naive(patterns: readonly string[], text: string): Occurrence[] {
  return patterns
    .map((p, pattern) => ({ pattern, start: text.indexOf(p) }))
    .filter((o) => o.start >= 0)
    .sort((a, b) => a.start + patterns[a.pattern]!.length - (b.start + patterns[b.pattern]!.length) || a.pattern - b.pattern);
}

describe('aho-corasick findAll', () => {
  it('finds overlapping and nested patterns with their leftmost start', () => {
    const m = buildMatcher(['he', 'she', 'his', 'hers']);
    // "she" and "he" both end at index 3: ties are listed by pattern index.
    assert.deepEqual(findAll(m, 'ushers'), [
      { pattern: 0, start: 2 },
      { pattern: 1, start: 1 },
      { pattern: 3, start: 2 },
    ]);
  });

  it('reports each pattern once, at its first occurrence', () => {
    const m = buildMatcher(['ab']);
    assert.deepEqual(findAll(m, 'xxabyyab'), [{ pattern: 0, start: 2 }]);
  });

  it('is case-sensitive, like String.prototype.includes', () => {
    const m = buildMatcher(['Googlebot']);
    assert.deepEqual(findAll(m, 'googlebot GOOGLEBOT'), []);
    assert.deepEqual(findAll(m, 'x Googlebot'), [{ pattern: 0, start: 2 }]);
  });

  it('handles non-ASCII patterns and text, including astral characters', () => {
    const m = buildMatcher(['Bót', '🤖bot']);
    assert.deepEqual(findAll(m, 'a 🤖bot and a Bót'), naive(['Bót', '🤖bot'], 'a 🤖bot and a Bót'));
    assert.deepEqual(findAll(m, 'Bot 🤖Bot'), []);
  });

  it('reports duplicate patterns separately', () => {
    const m = buildMatcher(['x', 'x']);
    assert.deepEqual(findAll(m, 'axb'), [
      { pattern: 0, start: 1 },
      { pattern: 1, start: 1 },
    ]);
  });

  it('refuses an empty pattern, which would match everything', () => {
    assert.throws(() => buildMatcher(['a', '']), RangeError);
  });

  it('agrees with a naive indexOf scan on 3,000 seeded random cases', () => {
    const rnd = seededRandom(20261122);
    const alphabet = ['a', 'b', 'c', '/', 'é', '\ud83e\udd16'];
    const word = (max: number) => Array.from({ length: 1 + rnd.int(max) }, () => rnd.pick(alphabet)).join('');
    for (let round = 0; round < 3000; round++) {
      const patterns = Array.from({ length: 1 + rnd.int(12) }, () => word(5));
      const text = rnd.int(10) === 0 ? '' : word(40);
      assert.deepEqual(findAll(buildMatcher(patterns), text), naive(patterns, text), `patterns ${JSON.stringify(patterns)} text ${JSON.stringify(text)}`);
    }
  });
});
