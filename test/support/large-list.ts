// A valid list far larger than any real one (the largest real list holds about a thousand
// prefixes) through the whole refresh, the build of every document, a commit and a verify, over a
// real loopback upstream and a real git repository. Every stage must handle it without spreading
// the list into a call's arguments. test/large-list.test.ts runs it on the smallest list that a
// spread would break on the thread that runs it (spreadLimit, on the small stack of
// large-list-thread.ts); `npm run bench` runs it on 500,000.

import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '../../pipeline/publish/build.ts';
import { commitRefresh } from '../../pipeline/refresh/commit.ts';
import { refreshMirror } from '../../pipeline/refresh/refresh.ts';
import { verifyBatch } from '../../pipeline/tools/verify/index.ts';
import { builtMini, MINI_BUILT_AT } from './built-mini.ts';
import { initRepo } from './git.ts';
import { publishedToolData } from './tool-data.ts';
import { bytes, startUpstreamServer } from './upstream-server.ts';

const SOURCE = 'perplexity-perplexitybot';
const NOW = '2026-02-01T06:00:00Z';

/** The smallest argument count that a spread (`f(...list)`) cannot pass in this process: V8's
 * bound follows the stack size, so it is measured, not assumed. */
export function spreadLimit(): number {
  const breaks = (n: number): boolean => {
    try {
      Math.max(...new Array<number>(n).fill(0));
      return false;
    } catch (error) {
      if (error instanceof RangeError) return true;
      throw error;
    }
  };
  // Doubling up to the first size that breaks, then halving the gap: no array is ever more than
  // twice the limit (an array of 2^24 numbers to start from cost a second of CPU and its collection).
  const most = 1 << 24;
  let fits = 1;
  let fails = 2;
  while (!breaks(fails)) {
    if (fails >= most) throw new Error(`a spread of ${fails} arguments passes: no list size proves the stages avoid spreads`);
    fits = fails;
    fails *= 2;
  }
  while (fails - fits > 1) {
    const middle = Math.floor((fits + fails) / 2);
    if (breaks(middle)) fails = middle;
    else fits = middle;
  }
  return fails;
}

/** The i-th distinct public /32 from 34.0.0.0 up. */
const address = (i: number): string => `34.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** count distinct public /32s, in Google's JSON layout. */
function hugeList(count: number): string {
  const prefixes: string[] = [];
  for (let i = 0; i < count; i++) prefixes.push(`{"ipv4Prefix":"${address(i)}/32"}`);
  return `{"creationTime":"2026-02-01T00:00:00Z","prefixes":[${prefixes.join(',')}]}`;
}

/** Refresh, build, commit and verify a list of count prefixes in a fresh copy of the mini
 * fixture as built at MINI_BUILT_AT (test/support/built-mini.ts), asserting every stage;
 * returns the upstream body's size. */
export async function largeListRun(count: number): Promise<{ bodyBytes: number }> {
  assert.ok(count > 50 && count < 2 ** 24, `${count} prefixes: the checks below need more than 50 and fewer than 2^24`);
  const body = hugeList(count);
  assert.ok(MINI_BUILT_AT < NOW, 'the refresh comes after the build it starts from');
  const project = await builtMini();
  const upstream = await startUpstreamServer({ [`/${SOURCE}`]: bytes(body) });
  try {
    await initRepo(project.root);
    const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(project.root, 'dist', path), 'utf8')) as T;

    const outcomes = await refreshMirror({
      root: project.root,
      upstreamBase: upstream.url(''),
      only: [SOURCE],
      now: NOW,
      fetch: { timeoutMs: 60_000, attempts: 1, maxBytes: 32 * 1024 * 1024 },
    });
    const outcome = outcomes[0];
    assert.ok(outcome?.kind === 'list');
    assert.equal(outcome.entry?.state, 'ok', outcome.entry?.error ?? '');
    assert.equal(outcome.entry?.ipv4.length, count);

    const result = await build({ root: project.root, now: NOW });
    const source = await readJson<{ state: string; ipv4_count: number; ipv4: string[] }>(`/ip-ranges/${SOURCE}.json`);
    assert.equal(source.state, 'ok');
    assert.equal(source.ipv4_count, count);
    const text = await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8');
    const prefixLines = text.split('\n').filter((line) => line.startsWith('34.'));
    assert.equal(prefixLines.length, count, 'all.txt lists every prefix');
    const feed = await readJson<{ items: { content_text: string }[] }>('/feed.json');
    assert.match(feed.items[0]?.content_text ?? '', new RegExp(`Added \\(${count}\\):[\\s\\S]*and ${count - 50} more`));
    assert.ok(await commitRefresh(project.root, result.model.log), 'the change is committed');

    const data = await publishedToolData(project.root);
    const last = address(count - 1);
    const answer = verifyBatch(data.prefixes, data.crawlers, [last, address(count)], 'PerplexityBot', Date.parse(NOW));
    assert.deepEqual(
      answer.results.map((r) => (r.valid ? r.verdict : r.input)),
      ['genuine', 'not-in-published-ranges'],
      `the last prefix is ${last}/32`,
    );
    return { bodyBytes: body.length };
  } finally {
    await upstream.close();
    await project.dispose();
  }
}
