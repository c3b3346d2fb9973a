// Benchmark: one check as a crawler or a tool call makes it, a real robots.txt parsed and one
// path evaluated for one crawler, beside robots-parser doing the same on the same files in the
// same run. The files are the real ones of test/fixtures/robots/ (README.md there gives each
// copy's source); the paths come from each file's own rules, so most checks meet a rule.
// Run: npx tsx bench/tools/single-check.bench.ts

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate, parseRobotsTxt } from '../../pipeline/tools/robots/index.ts';
import { fastest } from '../figure.ts';

// robots-parser is CommonJS whose typings declare an ES default export; require it as it is.
export const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  text: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

const ROBOTS = fileURLToPath(new URL('../../test/fixtures/robots/', import.meta.url));
export const BENCH_ORIGIN = 'https://example.org';

/**
 * Crawlers asked about: a token most files name, one many name, and one none does (the * group).
 * Plain product tokens without a hyphen, so that neither the hyphen fallback nor a whole-value
 * reading, which robots-parser does not have, decides.
 */
export const BENCH_TOKENS = ['GPTBot', 'Googlebot', 'UnknownBot'] as const;

export interface BenchCheck {
  file: string;
  text: string;
  token: string;
  path: string;
}

/**
 * A path that a rule's pattern matches: `*` stands for one character, a final `$` ends it. A
 * pattern ending in `?` gets a query, since a URL parser (robots-parser's) drops an empty one.
 */
function pathFrom(value: string): string | null {
  if (!value.startsWith('/')) return null;
  const body = (value.endsWith('$') ? value.slice(0, -1) : value).replaceAll('*', 'x');
  return body.endsWith('?') ? `${body}q=1` : body;
}

/** Every file's paths: the root, a page no rule names, and one path per distinct rule (the first 40). */
export function benchCorpus(): { file: string; text: string; paths: string[] }[] {
  return readdirSync(ROBOTS)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(ROBOTS, file), 'utf8');
      const fromRules = parseRobotsTxt(text).groups.flatMap((g) => g.rules.flatMap((r) => pathFrom(r.value) ?? []));
      const paths = [...new Set(['/', '/some/page.html', ...fromRules])].slice(0, 42);
      return { file, text, paths };
    });
}

/** Every check of the corpus: each file, each of its paths, each token. */
export function benchChecks(): BenchCheck[] {
  return benchCorpus().flatMap(({ file, text, paths }) => paths.flatMap((path) => BENCH_TOKENS.map((token) => ({ file, text, token, path }))));
}

export function theirVerdict(check: BenchCheck): boolean | undefined {
  return robotsParser(`${BENCH_ORIGIN}/robots.txt`, check.text).isAllowed(`${BENCH_ORIGIN}${check.path}`, check.token);
}

export interface SingleCheckFigure {
  files: number;
  checks: number;
  ours_ms: number;
  theirs_ms: number;
}

function timedChecks(corpus: ReturnType<typeof benchCorpus>): BenchCheck[] {
  return corpus.flatMap(({ file, text, paths }) => paths.slice(0, 3).map((path, i) => ({ file, text, path, token: BENCH_TOKENS[i % BENCH_TOKENS.length]! })));
}

/**
 * The same checks asked one after another `rounds` times in one timed run, as a server answers
 * one file after another: what each check leaves for the garbage collector is paid here, which
 * the fastest short round of benchSingleCheck can miss.
 */
export function benchChecksInARow(rounds = 100): SingleCheckFigure {
  const corpus = benchCorpus();
  const checks = timedChecks(corpus);
  const ours = fastest(1, () => {
    for (let i = 0; i < rounds; i++) for (const c of checks) evaluate(parseRobotsTxt(c.text), c.token, c.path);
  });
  const theirs = fastest(1, () => {
    for (let i = 0; i < rounds; i++) for (const c of checks) theirVerdict(c);
  });
  return { files: corpus.length, checks: checks.length * rounds, ours_ms: ours, theirs_ms: theirs };
}

/**
 * The timed checks: per file, three (the root, a page no rule names, its first rule's path),
 * each a fresh parse and one evaluation, as a caller with one question pays. Both sides are
 * warmed up first and then timed in turns, so a busy moment of the machine falls on both; each
 * figure is the fastest round.
 */
export function benchSingleCheck(rounds = 15): SingleCheckFigure {
  const corpus = benchCorpus();
  const checks = timedChecks(corpus);
  const ours = () => {
    for (const c of checks) evaluate(parseRobotsTxt(c.text), c.token, c.path);
  };
  const theirs = () => {
    for (const c of checks) theirVerdict(c);
  };
  fastest(3, ours);
  fastest(3, theirs);
  let oursMs = Infinity;
  let theirsMs = Infinity;
  for (let i = 0; i < rounds; i++) {
    oursMs = Math.min(oursMs, fastest(1, ours));
    theirsMs = Math.min(theirsMs, fastest(1, theirs));
  }
  return { files: corpus.length, checks: checks.length, ours_ms: oursMs, theirs_ms: theirsMs };
}

if (typeof process !== 'undefined' && process.argv[1]?.endsWith('single-check.bench.ts')) {
  for (let i = 0; i < 3; i++) {
    const f = benchSingleCheck();
    console.log(
      `${f.checks} single checks: ours ${f.ours_ms.toFixed(2)} ms, robots-parser ${f.theirs_ms.toFixed(2)} ms, ratio ours/theirs ${(f.ours_ms / f.theirs_ms).toFixed(2)}`,
    );
  }
}
