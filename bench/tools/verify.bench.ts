// Benchmark: looking up 500 addresses (one full verify-crawler call) against every published
// prefix. Baseline, measured in the same run: linearScan, ipaddr.js `match` over every prefix
// (what a script looping over the lists does). Both read each address the same way (address.ts,
// through ipaddr.js), and that reading is most of the trie's figure: the walk itself is at most
// 32 or 128 steps. Run: npx tsx bench/tools/verify.bench.ts

import { buildPrefixIndex, lookup } from '../../pipeline/tools/verify/prefix-index.ts';
import { buildLinearIndex, linearScan } from '../../test/support/linear-scan.ts';
import { parsePrefix } from '../../pipeline/net/prefix.ts';
import { mirrorSources, randomAddresses, referenceSources } from '../../test/support/verify-data.ts';
import { seededRandom } from '../../test/support/random.ts';
import { time, type BenchFigure } from '../figure.ts';

export function benchVerify(batches = 20): BenchFigure[] {
  const mirror = mirrorSources();
  const sources = mirror ?? referenceSources();
  const what = mirror !== null ? 'the mirror' : 'the reference lists';
  const prefixes = sources
    .flatMap((s) => [...s.mirror.ipv4, ...s.mirror.ipv6])
    .flatMap((t) => {
      const read = parsePrefix(t);
      return read.ok ? [read.prefix] : [];
    });
  const addresses = randomAddresses(seededRandom(99), prefixes, 500);

  let trie = buildPrefixIndex(sources);
  let linear = buildLinearIndex(sources);
  const buildMs = time(() => void (trie = buildPrefixIndex(sources)));
  const linearBuildMs = time(() => void (linear = buildLinearIndex(sources)));
  let sink = 0;
  // Warm both up so that neither pays for JIT compilation inside its figure.
  for (const a of addresses) sink += (lookup(trie, a).valid ? 1 : 0) + (linearScan(linear, a).valid ? 1 : 0);

  const ms = time(() => {
    for (let b = 0; b < batches; b++) for (const a of addresses) sink += lookup(trie, a).valid ? 1 : 0;
  });
  const baselineMs = time(() => {
    for (let b = 0; b < batches; b++) for (const a of addresses) sink += linearScan(linear, a).valid ? 1 : 0;
  });
  if (sink < 0) throw new Error('unreachable'); // keeps the loops from being optimised away
  return [
    {
      name: `verify: one call of 500 addresses (mean of ${batches}), ${prefixes.length} prefixes (${what})`,
      ms: ms / batches,
      baseline_ms: baselineMs / batches,
      note: 'per call of 500; baseline: ipaddr.js match over every prefix',
    },
    {
      name: 'verify: build the prefix index',
      ms: buildMs,
      baseline_ms: linearBuildMs,
      note: 'once per model load; baseline: parsing the prefixes for the linear scan',
    },
  ];
}

if (typeof process !== 'undefined' && process.argv[1]?.endsWith('verify.bench.ts')) {
  for (const r of benchVerify()) {
    console.log(`${r.name}: ${r.ms.toFixed(2)} ms (baseline ${r.baseline_ms.toFixed(2)} ms; ${r.note})`);
  }
}
