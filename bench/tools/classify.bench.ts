// Benchmark: classifying 20,000 User-Agent headers (crawler examples and browser headers mixed).
// Baselines, measured in the same run: one `includes` per crawler per header (what a loop over
// the records does), for the scan alone and for the whole answer.
// Run: npx tsx bench/tools/classify.bench.ts

import { isbot } from 'isbot';
import { findAll } from '../../pipeline/tools/classify/aho-corasick.ts';
import { buildClassifier, classify } from '../../pipeline/tools/classify/classify.ts';
import { compareText } from '../../pipeline/util/compare.ts';
import { realCrawlers } from '../../test/support/classify-data.ts';
import { BROWSER_USER_AGENTS } from '../../pipeline/tools/browser-user-agents.ts';
import { time, type BenchFigure } from '../figure.ts';

export function benchClassify(count = 20000): BenchFigure[] {
  const crawlers = realCrawlers();
  const examples = crawlers.flatMap((c) => (c.user_agent_example ? [c.user_agent_example] : []));
  const pool = [...examples, ...BROWSER_USER_AGENTS, ...BROWSER_USER_AGENTS];
  const headers = Array.from({ length: count }, (_, i) => pool[(i * 7919) % pool.length]!);
  const withSubstring = crawlers.filter((c) => c.user_agent_substring !== null);
  const substrings = withSubstring.map((c) => c.user_agent_substring!);

  let sink = 0;
  const buildMs = time(() => void buildClassifier(crawlers));
  const classifier = buildClassifier(crawlers);
  const scan = (ua: string) => findAll(classifier.matcher, ua).length;
  const includesAll = (ua: string) => substrings.reduce((n, sub) => n + (ua.includes(sub) ? 1 : 0), 0);
  const naive = (ua: string) => {
    const best = withSubstring
      .filter((c) => ua.includes(c.user_agent_substring!))
      .sort((a, b) => b.user_agent_substring!.length - a.user_agent_substring!.length || compareText(a.slug, b.slug))[0];
    return best !== undefined || isbot(ua);
  };
  // Warm everything up so that nothing pays for JIT compilation inside its figure.
  for (const ua of headers.slice(0, 2000)) sink += scan(ua) + includesAll(ua) + (classify(classifier, ua).matched ? 1 : 0) + (naive(ua) ? 1 : 0);

  const scanMs = time(() => {
    for (const ua of headers) sink += scan(ua);
  });
  const includesMs = time(() => {
    for (const ua of headers) sink += includesAll(ua);
  });
  const classifyMs = time(() => {
    for (const ua of headers) sink += classify(classifier, ua).matched ? 1 : 0;
  });
  const naiveMs = time(() => {
    for (const ua of headers) sink += naive(ua) ? 1 : 0;
  });
  if (sink < 0) throw new Error('unreachable'); // keeps the loops from being optimised away
  return [
    {
      name: `classify: find every substring, ${count} headers x ${substrings.length} substrings`,
      ms: scanMs,
      baseline_ms: includesMs,
      note: 'baseline: includes() per substring per header',
    },
    {
      name: `classify: whole answer, ${count} headers`,
      ms: classifyMs,
      baseline_ms: naiveMs,
      note: `baseline: includes() loop + sort + isbot when unmatched, no answer object; ${Math.round(count / (classifyMs / 1000))} headers/s`,
    },
    { name: 'classify: build the classifier', ms: buildMs, baseline_ms: 0, note: 'once per model load' },
  ];
}

if (typeof process !== 'undefined' && process.argv[1]?.endsWith('classify.bench.ts')) {
  for (const r of benchClassify()) {
    console.log(`${r.name}: ${r.ms.toFixed(1)} ms (baseline ${r.baseline_ms.toFixed(1)} ms; ${r.note})`);
  }
}
