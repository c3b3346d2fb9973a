// The most expensive input we know how to build for each tool, timed through the same path a
// request takes: validation, the tool, its summary and the JSON of the answer. Every figure is
// one synchronous stretch of the event loop; the goal is that none passes ~50 ms.
// Run: npx tsx bench/tools/worst-case.bench.ts [dist-dir]

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolDataFrom } from '../../pipeline/http/tool-data.ts';
import { snapshotStore } from '../../pipeline/node/dist-snapshot.ts';
import { time } from '../figure.ts';
import { evaluationCost, parseRobotsTxt } from '../../pipeline/tools/robots/index.ts';
import { seededRandom, type Random } from '../../test/support/random.ts';
import { EVALUATION_BUDGET, InputRefused, MAX_PATH_BYTES } from '../../pipeline/tools/registry/limits.ts';
import { toolByName } from '../../pipeline/tools/registry/index.ts';
import { validateInput } from '../../pipeline/tools/registry/input.ts';
import type { ToolContext } from '../../pipeline/tools/registry/types.ts';
import { fillToLimit as fill } from '../../test/support/robots-inputs.ts';

function randomToken(rnd: Random, length: number): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < length; i++) out += letters[rnd.int(letters.length)];
  return out;
}

function shuffle(rnd: Random, word: string): string {
  const letters = [...word];
  for (let i = letters.length - 1; i > 0; i--) {
    const j = rnd.int(i + 1);
    [letters[i], letters[j]] = [letters[j]!, letters[i]!];
  }
  return letters.join('');
}

export interface WorstCase {
  name: string;
  tool: string;
  input: Record<string, unknown>;
}

/**
 * As many of the paths as the evaluation budget allows for this file and token (at least
 * one): the most expensive call that is still answered.
 */
function fitBudget(robots: string, ua: string, paths: readonly string[]): string[] {
  const parsed = parseRobotsTxt(robots);
  let fits = 1;
  for (let step = 128; step >= 1; step >>= 1) {
    const n = Math.min(paths.length, fits + step);
    if (evaluationCost(parsed, [ua], paths.slice(0, n)) <= EVALUATION_BUDGET) fits = n;
  }
  return paths.slice(0, fits);
}

/** The cases, built deterministically. */
export function worstCases(): WorstCase[] {
  const rnd = seededRandom(8);
  // The costliest robots.txt the limits accept (docs/API.md §8): wildcard rules whose literal part almost matches every position of long paths.
  const wildcardRules = fill((i) => `Disallow: /*ab${i}`, 'User-agent: *\n');
  const longPaths = (length: number) =>
    Array.from(
      { length: 200 },
      (_, i) =>
        '/' +
        `ab${i}`
          .padEnd(4, 'b')
          .repeat(length)
          .slice(0, length - 1),
    );
  // Literal pieces of 7 or more characters, which V8 searches with Boyer-Moore rather than memchr.
  const longPieces = fill((i) => `Disallow: /*aaaaaaa${i}*b`, 'User-agent: *\n');
  const runsOfA = Array.from({ length: 200 }, (_, i) => '/' + 'a'.repeat(MAX_PATH_BYTES - 2 - String(i).length) + i);
  // Fewer rules but every reading of the file differs: fallback, Google's typos, whole names, merged groups.
  const everyReading = fill((i) => `User-agent: Googlebot\nUser-agent: *\nUser-agent: Googlebot2x\nDissallow: /*q${i}\nDisallow: /*ab${i}\nAllow: /*ab${i}c`);
  // Distinct unknown tokens close in length to real ones, so a length pre-filter alone cannot skip them.
  const unknownAgents = fill(() => `User-agent: ${randomToken(rnd, 6 + rnd.int(8))}\nDisallow: /x`);
  const unknownKeys = fill(() => `${randomToken(rnd, 4 + rnd.int(8))}: x`, 'User-agent: *\n');
  // Keys that pass the character-count filter against a directive name, so the distance table is filled.
  const shuffled = fill((i) => `${shuffle(rnd, i % 2 === 0 ? 'disallow' : 'user-agent')}: x`, 'User-agent: *\n');
  const manyStarGroups = fill(() => 'User-agent: *\nDisallow: /*q');
  // Usage preferences: one RFC 9309 group of thousands of user-agent, Content-Signal and License
  // lines (neither closes a group), and path-scoped Content-Usage lines every crawler matches.
  const preferenceGroup = fill((i) => `User-agent: *\nContent-Signal: search=yes, ai-train=no, use=reference\nLicense: https://example.com/${i}`);
  const usageLines = fill((i) => `Content-Usage: /*${i % 97}*x train-ai=n, search=y`, 'User-agent: *\n');
  const managedBlock = fill(
    (i) => `User-agent: Bot${randomToken(rnd, 8)}${i % 2 === 0 ? '' : '\nUser-agent: *'}\nDisallow: /`,
    '# BEGIN Cloudflare Managed content\n',
  );
  const ips = Array.from({ length: 500 }, (_, i) => (i % 2 === 0 ? `66.249.${i % 256}.${(i * 7) % 256}` : `2001:db8::${i.toString(16)}`));
  return [
    {
      name: 'check_path_allowed: wildcard rules x 200 paths of 2,000 chars',
      tool: 'check_path_allowed',
      input: { robots_txt: wildcardRules, ua: 'GPTBot', path: longPaths(2000) },
    },
    {
      name: 'check_path_allowed: wildcard rules x paths of 2,047 chars, as many as the budget allows',
      tool: 'check_path_allowed',
      input: { robots_txt: wildcardRules, ua: 'GPTBot', path: fitBudget(wildcardRules, 'GPTBot', longPaths(2047)) },
    },
    {
      name: 'check_path_allowed: wildcard rules x distinct paths of 2-3 chars, as many as the budget allows',
      tool: 'check_path_allowed',
      input: {
        robots_txt: wildcardRules,
        ua: 'GPTBot',
        path: fitBudget(
          wildcardRules,
          'GPTBot',
          Array.from({ length: 200 }, (_, i) => `/${i.toString(36)}`),
        ),
      },
    },
    {
      name: 'check_path_allowed: long literal pieces x runs of "a", as many as the budget allows',
      tool: 'check_path_allowed',
      input: { robots_txt: longPieces, ua: 'GPTBot', path: fitBudget(longPieces, 'GPTBot', runsOfA) },
    },
    {
      name: 'check_path_allowed: every reading differs (fallback, typos, whole names) within the budget',
      tool: 'check_path_allowed',
      input: { robots_txt: everyReading, ua: 'Googlebot-Image', path: fitBudget(everyReading, 'Googlebot-Image', longPaths(600)) },
    },
    {
      name: 'check_path_allowed: 200 paths at the length cap, all non-ASCII, small file',
      tool: 'check_path_allowed',
      input: { robots_txt: 'User-agent: *\nDisallow: /x\n', ua: 'GPTBot', path: Array.from({ length: 200 }, (_, i) => '/' + 'é'.repeat(1000) + i) },
    },
    {
      name: 'check_path_allowed: many "*" groups (merged group listing) x 200 paths',
      tool: 'check_path_allowed',
      input: { robots_txt: manyStarGroups, ua: 'GPTBot', path: longPaths(64) },
    },
    { name: 'audit_ai_access: 512 KB of unknown user-agent tokens', tool: 'audit_ai_access', input: { robots_txt: unknownAgents } },
    { name: 'site_check: 512 KB of unknown user-agent tokens', tool: 'site_check', input: { robots_txt: unknownAgents } },
    { name: 'lint_robots_txt: 512 KB of unknown keys', tool: 'lint_robots_txt', input: { robots_txt: unknownKeys } },
    { name: 'lint_robots_txt: 512 KB of shuffled directive names', tool: 'lint_robots_txt', input: { robots_txt: shuffled } },
    { name: 'site_check: 512 KB of unknown keys', tool: 'site_check', input: { robots_txt: unknownKeys } },
    { name: 'lint_robots_txt: 512 KB of unknown user-agent tokens', tool: 'lint_robots_txt', input: { robots_txt: unknownAgents } },
    { name: 'lint_robots_txt: 512 KB of one group of preference and License lines', tool: 'lint_robots_txt', input: { robots_txt: preferenceGroup } },
    { name: 'audit_ai_access: 512 KB of path-scoped Content-Usage lines', tool: 'audit_ai_access', input: { robots_txt: usageLines } },
    { name: 'lint_robots_txt: 512 KB of path-scoped Content-Usage lines', tool: 'lint_robots_txt', input: { robots_txt: usageLines } },
    { name: 'lint_robots_txt: 512 KB Cloudflare-managed block', tool: 'lint_robots_txt', input: { robots_txt: managedBlock } },
    { name: 'audit_ai_access: 512 KB Cloudflare-managed block', tool: 'audit_ai_access', input: { robots_txt: managedBlock } },
    { name: 'verify_batch: 500 addresses with a claim', tool: 'verify_batch', input: { ip: ips, ua: 'Googlebot' } },
    {
      name: 'triage_log_lines: 500 lines',
      tool: 'triage_log_lines',
      input: { lines: ips.map((ip) => `${ip} Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`) },
    },
  ];
}

/** One call as a transport makes it; the answer's JSON is part of the cost. */
export function runCase(c: WorstCase, context: ToolContext): { ok: true; bytes: number } | { ok: false; message: string } {
  const tool = toolByName(c.tool);
  if (!tool) throw new Error(`no tool ${c.tool}`);
  const checked = validateInput(tool, c.input);
  if (!checked.ok) return { ok: false, message: checked.message };
  let output: unknown;
  try {
    output = tool.run(checked.input, context);
  } catch (error) {
    if (error instanceof InputRefused) return { ok: false, message: error.message };
    throw error;
  }
  const text = tool.summarize(output);
  return { ok: true, bytes: JSON.stringify({ text, output }).length };
}

function measure(fn: () => void): { wall: number; cpu: number } {
  const before = process.cpuUsage();
  const wall = time(fn);
  const used = process.cpuUsage(before);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function fastestOf(runs: number, fn: () => void, first: { wall: number; cpu: number }): { wall: number; cpu: number } {
  let best = first;
  for (let i = 0; i < runs; i++) {
    const m = measure(fn);
    best = { wall: Math.min(best.wall, m.wall), cpu: Math.min(best.cpu, m.cpu) };
  }
  return best;
}

async function main(): Promise<void> {
  const dist = process.argv[2] ?? join(fileURLToPath(new URL('../../', import.meta.url)), 'dist');
  const data = await toolDataFrom(await snapshotStore(dist, { checkEveryMs: 0 }));
  if (!data) throw new Error(`${dist} lacks the documents the tools read`);
  const context: ToolContext = { data, caller: { userAgent: null, address: null } };
  for (const c of worstCases()) {
    const last: { outcome: ReturnType<typeof runCase> } = { outcome: { ok: false, message: 'not run' } };
    const run = () => {
      last.outcome = runCase(c, context);
    };
    // A slow case is timed once; a fast one is the fastest of five, the least disturbed.
    // CPU time is printed beside wall time: on a loaded machine it is the steadier figure.
    const first = measure(run);
    const best = first.wall > 1000 ? first : fastestOf(4, run, first);
    const ms = best.wall;
    const { outcome } = last;
    const paths = Array.isArray(c.input['path']) ? `, ${c.input['path'].length} paths` : '';
    const result = (outcome.ok ? `${outcome.bytes} bytes of answer` : `refused: ${outcome.message}`) + paths;
    console.log(`${ms.toFixed(1).padStart(9)} ms wall ${best.cpu.toFixed(1).padStart(8)} ms cpu  ${c.name} (${result})`);
  }
}

if (process.argv[1]?.endsWith('worst-case.bench.ts')) await main();
