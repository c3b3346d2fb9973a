// Benchmark: 200 paths against a robots.txt at the 500 KiB limit.
// Baseline, measured in the same run: parsing the file again for every path (what a
// matcher that does not keep the parsed file does, such as Google's library called
// once per URL). Run: npx tsx bench/tools/robots.bench.ts

import { evaluate, evaluateMany } from '../../pipeline/tools/robots/evaluate.ts';
import { lintRobotsTxt } from '../../pipeline/tools/robots/lint.ts';
import { parseRobotsTxt, PARSE_LIMIT_BYTES } from '../../pipeline/tools/robots/parse.ts';
import { seededRandom } from '../../test/support/random.ts';
import { time, type BenchFigure } from '../figure.ts';

/** A deterministic file just under the limit: many groups, wildcards, anchors, a big `*` group. */
export function benchFile(): string {
  const rnd = seededRandom(42);
  const lines = ['User-agent: *'];
  for (let i = 0; i < 4000; i++) {
    const kind = rnd.int(4);
    lines.push(kind === 0 ? `Disallow: /p${i}/` : kind === 1 ? `Allow: /p${i}/*.html$` : kind === 2 ? `Disallow: /*?s${i}=` : `Disallow: /a/*/b${i}*c`);
  }
  let size = lines.join('\n').length;
  for (let g = 0; size < PARSE_LIMIT_BYTES - 100; g++) {
    const block = `\nUser-agent: Bot${g}\nDisallow: /private${g}/\nAllow: /private${g}/open\nDisallow: /*.pdf$`;
    lines.push(block.slice(1));
    size += block.length;
  }
  return lines.join('\n') + '\n';
}

export function benchRobots(): BenchFigure[] {
  const text = benchFile();
  const rnd = seededRandom(7);
  const paths = Array.from({ length: 200 }, (_, i) => `/${rnd.pick(['p', 'a', 'private'])}${rnd.int(4000)}/x/b${i}c.html?s${i}=1`);

  const parseMs = time(() => parseRobotsTxt(text));
  const manyMs = time(() => evaluateMany(parseRobotsTxt(text), 'UnknownBot', paths));
  const reparseMs = time(() => {
    for (const p of paths.slice(0, 20)) evaluate(parseRobotsTxt(text), 'UnknownBot', p);
  });
  const lintMs = time(() => lintRobotsTxt(text));
  return [
    {
      name: 'robots: parse + 200 paths (500 KiB)',
      ms: manyMs,
      baseline_ms: (reparseMs / 20) * 200,
      note: 'baseline re-parses per path (20 measured, scaled to 200)',
    },
    { name: 'robots: parse only (500 KiB)', ms: parseMs, baseline_ms: parseMs, note: 'reference for the row above' },
    { name: 'robots: lint (500 KiB)', ms: lintMs, baseline_ms: parseMs, note: 'baseline is the parse alone' },
  ];
}

if (typeof process !== 'undefined' && process.argv[1]?.endsWith('robots.bench.ts')) {
  for (const r of benchRobots()) {
    console.log(`${r.name}: ${r.ms.toFixed(1)} ms (baseline ${r.baseline_ms.toFixed(1)} ms; ${r.note})`);
  }
}
