import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../pipeline/publish/build.ts';
import { commitRefresh } from '../pipeline/refresh/commit.ts';
import { refreshMirror } from '../pipeline/refresh/refresh.ts';
import { verifyBatch } from '../pipeline/tools/verify/index.ts';
import { bytes, startUpstreamServer, type UpstreamServer } from './support/upstream-server.ts';
import { initRepo } from './support/git.ts';
import { tempProject } from './support/project.ts';
import { publishedToolData } from './support/tool-data.ts';

// docs/API.md §2.3: a valid list far larger than any real one (500,000 prefixes; the largest
// real list holds about a thousand) goes through the whole refresh, the build of every
// document and a commit, over a real loopback upstream and a real git repository. Every
// stage must handle it without spreading the list into a call's arguments.

const SOURCE = 'perplexity-perplexitybot';
const COUNT = 500_000;
let upstream: UpstreamServer;
let project: Awaited<ReturnType<typeof tempProject>>;

/** COUNT distinct public /32s from 34.0.0.0 up, in Google's JSON layout. */
function hugeList(): string {
  const prefixes: string[] = [];
  for (let i = 0; i < COUNT; i++) prefixes.push(`{"ipv4Prefix":"34.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32"}`);
  return `{"creationTime":"2026-02-01T00:00:00Z","prefixes":[${prefixes.join(',')}]}`;
}

before(async () => {
  project = await tempProject('mini');
  upstream = await startUpstreamServer({ [`/${SOURCE}`]: bytes(hugeList()) });
  await build({ root: project.root, now: '2026-02-01T00:00:00Z' });
  await initRepo(project.root);
});
after(async () => {
  await upstream.close();
  await project.dispose();
});

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(project.root, 'dist', path), 'utf8')) as T;

test('500,000 prefixes: accepted, built into every document, committed, and verifiable', async () => {
  const now = '2026-02-01T06:00:00Z';
  const body = hugeList();
  assert.ok(body.length > 16_000_000, `${body.length} bytes upstream`);
  const outcomes = await refreshMirror({
    root: project.root,
    upstreamBase: upstream.url(''),
    only: [SOURCE],
    now,
    fetch: { timeoutMs: 60_000, attempts: 1, maxBytes: 32 * 1024 * 1024 },
  });
  const outcome = outcomes[0];
  assert.ok(outcome?.kind === 'list');
  assert.equal(outcome.entry?.state, 'ok', outcome.entry?.error ?? '');
  assert.equal(outcome.entry?.ipv4.length, COUNT);

  const result = await build({ root: project.root, now });
  const source = await readJson<{ state: string; ipv4_count: number; ipv4: string[] }>(`/ip-ranges/${SOURCE}.json`);
  assert.equal(source.state, 'ok');
  assert.equal(source.ipv4_count, COUNT);
  const text = await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8');
  const prefixLines = text.split('\n').filter((line) => line.startsWith('34.'));
  assert.equal(prefixLines.length, COUNT, 'all.txt lists every prefix');
  const feed = await readJson<{ items: { content_text: string }[] }>('/feed.json');
  assert.match(feed.items[0]?.content_text ?? '', /Added \(500000\):[\s\S]*and 499950 more/);
  assert.ok(await commitRefresh(project.root, result.model.log), 'the change is committed');

  const data = await publishedToolData(project.root);
  const answer = verifyBatch(data.prefixes, data.crawlers, ['34.7.161.31', '34.7.161.32'], 'PerplexityBot', Date.parse(now));
  assert.deepEqual(
    answer.results.map((r) => (r.valid ? r.verdict : r.input)),
    ['genuine', 'not-in-published-ranges'],
    'the last prefix is 34.7.161.31/32',
  );
});
