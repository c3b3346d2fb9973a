// The trie against the obvious implementation (ipaddr.js `match` over every prefix): same
// answers, in the same order, on seeded random addresses drawn mostly near real prefixes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildPrefixIndex, lookup } from '../pipeline/tools/verify/prefix-index.ts';
import { buildLinearIndex, linearScan } from './support/linear-scan.ts';
import { parsePrefix, type Prefix } from '../pipeline/net/prefix.ts';
import type { PrefixSource } from '../pipeline/tools/verify/sources.ts';
import { fixtureSources, mirrorSources, randomAddresses, referenceSources } from './support/verify-data.ts';
import { seededRandom } from './support/random.ts';

function prefixesOf(sources: readonly PrefixSource[]): Prefix[] {
  return sources
    .flatMap((s) => [...s.mirror.ipv4, ...s.mirror.ipv6])
    .flatMap((t) => {
      const read = parsePrefix(t);
      return read.ok ? [read.prefix] : [];
    });
}

function compare(name: string, sources: readonly PrefixSource[], seed: number): void {
  const trie = buildPrefixIndex(sources);
  const linear = buildLinearIndex(sources);
  const addresses = randomAddresses(seededRandom(seed), prefixesOf(sources), 2000);
  let hits = 0;
  for (const address of addresses) {
    const expected = linearScan(linear, address);
    assert.deepEqual(lookup(trie, address), expected, `${name}: ${address}`);
    if (expected.valid && expected.matches.length > 0) hits++;
  }
  // The draw must exercise matches, not only misses, or the comparison proves little.
  assert.ok(hits >= 400, `${name}: only ${hits} of 2000 addresses fell in a prefix`);
}

describe('trie and linear scan agree', () => {
  it('on the fixture index (nested, repeated and single-address prefixes)', () => compare('fixture', fixtureSources(), 1));

  it("on the operators' reference lists", () => compare('reference', referenceSources(), 2));

  const mirror = mirrorSources();
  it('on the real mirror', { skip: mirror === null ? 'no mirror yet' : false }, () => compare('mirror', mirror!, 3));

  it('on a random index of nested prefixes of every length', () => {
    const rnd = seededRandom(4);
    const sources: PrefixSource[] = Array.from({ length: 5 }, (_, s) => ({
      id: `s${s}`,
      operator: `op${s % 2}`,
      crawlers: [`c${s}`],
      scope: 'crawlers',
      mirror: {
        // Few top bits, so prefixes of different lengths nest inside each other often.
        ipv4: Array.from({ length: 60 }, () => `${rnd.int(4)}.${rnd.int(4)}.${rnd.int(256)}.${rnd.int(256)}/${rnd.int(33)}`),
        ipv6: Array.from({ length: 60 }, () => `2001:db8:${rnd.int(4).toString(16)}::${rnd.int(65536).toString(16)}/${rnd.int(129)}`),
      },
    }));
    compare('random', sources, 5);
  });
});
