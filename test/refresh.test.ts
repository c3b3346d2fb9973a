import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../pipeline/build/build.ts';
import type { ChangesPage } from '../pipeline/changes/page.ts';
import { refreshMirror } from '../pipeline/refresh/refresh.ts';
import { commitRefresh } from '../pipeline/refresh/commit.ts';
import { bytes, file, hang, large, redirect, reset, startUpstreamServer, status, type Route, type UpstreamServer } from '../pipeline/upstream/test-server.ts';
import { initRepo } from './support/git.ts';
import { tempProject } from './support/project.ts';

// The whole refresh, end to end: a real HTTP server on 127.0.0.1 plays the operators, the
// project is a real git repository, and every answer is read back from dist/ as users see it.

const SOURCE = 'perplexity-perplexitybot';
const routes: Record<string, Route> = {};
let upstream: UpstreamServer;
let project: Awaited<ReturnType<typeof tempProject>>;
let clock = Date.parse('2026-01-01T00:00:00Z');
const tick = () => new Date((clock += 3_600_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(project.root, 'dist', path), 'utf8')) as T;
interface SourceDoc { state: string; warning: string | null; ipv4: string[]; ipv6: string[]; provenance: { via: string } }
interface StatusDoc { sources_failed: number; sources: { id: string; state: string; error: string | null }[] }

async function refresh(): Promise<{ committed: string | null; page: ChangesPage }> {
  const now = tick();
  await refreshMirror({ root: project.root, upstreamBase: upstream.url(''), now, fetch: { timeoutMs: 400, attempts: 2, baseDelayMs: 5, maxBytes: 200_000 } });
  const result = await build({ root: project.root, now });
  const committed = await commitRefresh(project.root, result.model.log);
  return { committed, page: await readJson<ChangesPage>('/changes.json') };
}

before(async () => {
  project = await tempProject('mini');
  upstream = await startUpstreamServer(routes);
  routes['/openai-gptbot'] = file('google-style.json');
  routes['/google-googlebot'] = status(404);
  routes[`/${SOURCE}`] = file('twenty.json');
  await build({ root: project.root, now: tick() });
  await initRepo(project.root);
  await refresh();
});
after(async () => {
  await upstream.close();
  await project.dispose();
});

const FAULTS: [string, Route, RegExp][] = [
  ['HTTP 500', status(500), /http-status|500/],
  ['timeout', hang(), /timeout/i],
  ['connection reset', reset(), /network|reset|socket/i],
  ['garbage', file('garbage.bin', 'application/json'), /Parse failed/],
  ['truncated JSON', file('truncated.json'), /Parse failed/],
  ['empty list', file('empty-list.json'), /empty|no prefix/i],
  ['90% shrink', file('twenty-shrunk.json'), /shr[iu]nk|fewer|lost/i],
  ['oversize body', large(400_000, true), /too-large|larger|size/i],
  ['redirect loop', redirect(`/${SOURCE}`), /redirect/i],
  ['invalid CIDR', file('invalid-cidr.json'), /invalid/i],
  ['wrong content type', file('html-no-json.html', 'text/html'), /Parse failed/],
];

for (const [name, fault, reason] of FAULTS) {
  test(`${name}: no prefix lost, status and stale_sources say why, one event per state flip`, async () => {
    routes[`/${SOURCE}`] = file('twenty.json');
    const good = await refresh();
    const before = await readJson<SourceDoc>(`/ip-ranges/${SOURCE}.json`);
    assert.equal(before.state, 'ok');
    assert.equal(before.ipv4.length, 20);

    routes[`/${SOURCE}`] = fault;
    const failed = await refresh();
    const during = await readJson<SourceDoc>(`/ip-ranges/${SOURCE}.json`);
    assert.deepEqual([during.ipv4, during.ipv6], [before.ipv4, before.ipv6], 'the last good prefixes are still served');
    assert.equal(during.state, 'failed');
    assert.match(during.warning ?? '', /last good prefixes/);
    const statusDoc = await readJson<StatusDoc>('/status.json');
    const row = statusDoc.sources.find((s) => s.id === SOURCE);
    assert.equal(row?.state, 'failed');
    assert.match(row?.error ?? '', reason);
    const stale = failed.page.stale_sources.find((s) => s.id === SOURCE);
    assert.ok(stale, 'named in stale_sources');
    assert.match(stale.error ?? '', reason);
    const all = await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8');
    for (const prefix of before.ipv4) assert.ok(all.includes(`\n${prefix}\n`), `${prefix} still in all.txt`);
    const newEvents = failed.page.head - good.page.head;
    const kinds = (await readJson<{ events: { cursor: number; kind: string; subject: { id: string } }[] }>('/changes/log.json')).events
      .filter((e) => e.cursor > good.page.head).map((e) => `${e.kind} ${e.subject.id}`);
    assert.deepEqual(kinds, [`source.stopped-answering ${SOURCE}`]);
    assert.equal(newEvents, 1);

    const again = await refresh();
    assert.equal(again.page.head, failed.page.head, 'the same failure again is no new event');
    assert.equal(again.committed, null, 'and no commit: nothing changed');

    routes[`/${SOURCE}`] = file('twenty.json');
    const recovered = await refresh();
    const back = (await readJson<{ events: { cursor: number; kind: string; subject: { id: string } }[] }>('/changes/log.json')).events
      .filter((e) => e.cursor > again.page.head).map((e) => `${e.kind} ${e.subject.id}`);
    assert.deepEqual(back, [`source.started-answering ${SOURCE}`]);
    assert.equal((await readJson<SourceDoc>(`/ip-ranges/${SOURCE}.json`)).state, 'ok');
    assert.equal(recovered.page.stale_sources.some((s) => s.id === SOURCE), false);
  });
}

test('a changed list emits ranges.changed with exactly the prefixes added and removed', async () => {
  routes['/openai-gptbot'] = file('google-style.json');
  const start = await refresh();
  routes['/openai-gptbot'] = file('google-style.added.json');
  const next = await refresh();
  const log = await readJson<{ events: { cursor: number; kind: string; subject: { id: string }; added?: { ipv4: string[]; ipv6: string[] }; removed?: { ipv4: string[]; ipv6: string[] } }[] }>('/changes/log.json');
  const events = log.events.filter((e) => e.cursor > start.page.head);
  assert.deepEqual(events.map((e) => `${e.kind} ${e.subject.id}`), ['ranges.changed openai-gptbot']);
  const before = JSON.parse(await readFile(new URL('../pipeline/upstream/fixtures/google-style.json', import.meta.url), 'utf8')) as { prefixes: Record<string, string>[] };
  const afterList = JSON.parse(await readFile(new URL('../pipeline/upstream/fixtures/google-style.added.json', import.meta.url), 'utf8')) as { prefixes: Record<string, string>[] };
  const set = (list: { prefixes: Record<string, string>[] }, key: string) => new Set(list.prefixes.flatMap((p) => (p[key] ? [p[key]] : [])));
  const expectAdded = [...set(afterList, 'ipv4Prefix')].filter((p) => !set(before, 'ipv4Prefix').has(p));
  assert.ok(expectAdded.length > 0);
  assert.deepEqual(new Set(events[0]!.added!.ipv4), new Set(expectAdded));
  assert.ok(next.committed, 'the change is committed');
});

test('a creationTime-only change upstream writes and commits nothing', async () => {
  routes['/openai-gptbot'] = file('google-style.json');
  await refresh();
  routes['/openai-gptbot'] = bytes((await readFile(new URL('../pipeline/upstream/fixtures/google-style.next-day.json', import.meta.url))));
  const result = await refresh();
  assert.equal(result.committed, null);
});

test('an upstream that never answered usably is failed, serves no prefixes and warns', async () => {
  const doc = await readJson<SourceDoc>('/ip-ranges/google-googlebot.json');
  assert.equal(doc.state, 'failed', 'the 404 upstream was attempted and refused');
  assert.deepEqual(doc.ipv4, []);
  assert.match(doc.warning ?? '', /last fetch failed/);
});
