import { strict as assert } from 'node:assert';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { simpleGit } from 'simple-git';
import { build } from '../pipeline/publish/build.ts';
import type { Ledger } from '../pipeline/ledger/ledger.ts';
import { refreshMirror } from '../pipeline/refresh/refresh.ts';
import { commitRefresh } from '../pipeline/refresh/commit.ts';
import { verifyBatch } from '../pipeline/tools/verify/index.ts';
import { bytes, startUpstreamServer, type Route, type UpstreamServer } from './support/upstream-server.ts';
import { copyTree } from './support/copy-tree.ts';
import { initRepo } from './support/git.ts';
import { REPO, tempProject } from './support/project.ts';
import { publishedToolData } from './support/tool-data.ts';
import { poisonedCcbotList } from './support/poisoned-list.ts';

// The refresh end to end on the repository's own records and state: a real HTTP server on
// 127.0.0.1 plays the operators, the project is a real git repository, and every answer is read
// back from the dist/ the build wrote, as users see it. Each refresh reaches only the sources a
// test names (--only), so the other 29 lists keep their committed state.
//
// The project starts as the repository is committed: its records, state and dist/, which is
// exactly what the build makes of them at the ledger's generated_at (test/outputs.test.ts proves
// it), so the clock starts there and no build is repeated to make it.

const CCBOT = 'commoncrawl-ccbot';
const CCBOT_REAL = new URL('./fixtures/reference/upstream/commoncrawl-ccbot.json', import.meta.url);
const routes: Record<string, Route> = {};
let upstream: UpstreamServer;
let project: Awaited<ReturnType<typeof tempProject>>;
let clock: number;
const tick = () => new Date((clock += 6 * 3_600_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(project.root, 'dist', path), 'utf8')) as T;

interface StatusRow {
  id: string;
  state: string;
  error: string | null;
  last_checked: string | null;
  last_attempt: string | null;
  last_success: string | null;
  format_status: string;
}
interface Event {
  cursor: number;
  kind: string;
  subject: { id: string; url: string };
  error?: string;
  added?: { ipv4: string[]; ipv6: string[] };
  added_count?: { ipv4: number; ipv6: number };
  sample_complete?: boolean;
  whole_list?: { url: string; history: string };
}

const statusOf = async (id: string): Promise<StatusRow> => {
  const row = (await readJson<{ sources: StatusRow[] }>('/status.json')).sources.find((s) => s.id === id);
  assert.ok(row, `${id} is in status.json`);
  return row;
};
const eventsAfter = async (cursor: number): Promise<Event[]> =>
  (await readJson<{ events: Event[] }>('/changes/log.json')).events.filter((e) => e.cursor > cursor);
const head = async (): Promise<number> => (await readJson<{ head: number }>('/changes/log.json')).head;

/** One scheduled run, as the workflow makes it: refresh, build, commit. */
async function refresh(only: string[]): Promise<{ now: string; committed: string | null }> {
  const now = tick();
  await refreshMirror({ root: project.root, upstreamBase: upstream.url(''), only, now, fetch: { timeoutMs: 2_000, attempts: 1, baseDelayMs: 5 } });
  const result = await build({ root: project.root, now });
  return { now, committed: await commitRefresh(project.root, result.model.log) };
}

const committedPaths = async (commit: string): Promise<string[]> =>
  (await simpleGit(project.root).raw(['show', '--name-only', '--format=', commit])).split('\n').filter((line) => line !== '');

before(async () => {
  project = await tempProject('repo');
  await copyTree(join(REPO, 'dist'), join(project.root, 'dist'));
  clock = Date.parse((JSON.parse(await readFile(join(project.root, 'dist', 'documents.json'), 'utf8')) as Ledger).generated_at);
  upstream = await startUpstreamServer(routes);
  routes[`/${CCBOT}`] = bytes(await readFile(CCBOT_REAL));
  await initRepo(project.root);
});
after(async () => {
  await upstream.close();
  await project.dispose();
});

describe('a refresh that finds the same list (status.json last_checked)', () => {
  // One refresh: a second against the same upstream takes the same path from the state the
  // first committed, as the first does from the repository's committed state.
  test('a refresh against the same upstream moves last_checked and commits only that', async () => {
    const before = await statusOf(CCBOT);
    assert.equal(before.state, 'ok', 'the committed state holds the real list');
    const cursor = await head();

    const { now, committed } = await refresh([CCBOT]);
    const row = await statusOf(CCBOT);
    assert.equal(row.last_checked, now, 'the accepted fetch is recorded');
    assert.deepEqual([row.state, row.last_success, row.last_attempt], [before.state, before.last_success, before.last_attempt], 'nothing else moved');
    assert.deepEqual(await eventsAfter(cursor), [], 'no change event');
    assert.ok(committed, 'a commit records the check');
    // The only paths a quiet refresh changes (docs/API.md §2.3): the check, the status that
    // shows it, and the ledger rows of status.json.
    assert.deepEqual(await committedPaths(committed), ['dist/documents.json', 'dist/documents.txt', 'dist/status.json', 'state/checked.json']);
    const diff = await simpleGit(project.root).raw(['diff', '--unified=0', `${committed}~1`, committed, '--', 'dist/status.json']);
    const changedLines = diff.split('\n').filter((line) => /^[-+] /.test(line));
    assert.ok(
      changedLines.every((line) => /"(last_checked|generated_at)":/.test(line)),
      `only last_checked and generated_at change in status.json:\n${changedLines.join('\n')}`,
    );
  });

  test('a source never reached keeps the time of its last accepted fetch', async () => {
    const row = await statusOf('openai-gptbot');
    assert.equal(row.last_checked, row.last_success);
  });
});

// The poisoned list and the large valid one arrive in the same refresh, each from its own source:
// the refusal of one and the acceptance of the other are facts of one cycle, and each test
// below reads its own.
const LARGE = 'mistral-mistralai-index';
// A whole list in the event would be some 18 bytes a prefix: 1,000 prefixes are 18 KB, far
// past the event's and the log's bounds below, and cheap to refresh.
const PREFIXES = 1_000;

interface BothLists {
  /** CCBot's published list and status row before the refresh. */
  good: { ipv4: string[]; ipv6: string[] };
  before: StatusRow;
  /** The size of state/events.json before the refresh. */
  eventsBytes: number;
  committed: string | null;
  events: Event[];
}
let bothLists: Promise<BothLists> | undefined;

function refreshBothLists(): Promise<BothLists> {
  bothLists ??= (async () => {
    // The committed state holds the real list (as does any refresh of the tests above).
    const good = await readJson<{ ipv4: string[]; ipv6: string[] }>(`/ip-ranges/${CCBOT}.json`);
    const before = await statusOf(CCBOT);
    const eventsBytes = (await stat(join(project.root, 'state', 'events.json'))).size;
    const cursor = await head();
    routes[`/${CCBOT}`] = bytes(poisonedCcbotList());
    const prefixes = Array.from({ length: PREFIXES }, (_, i) => ({ ipv4Prefix: `20.${64 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}/32` }));
    routes[`/${LARGE}`] = bytes(JSON.stringify({ creationTime: '2026-12-01T00:00:00.000000', prefixes }));
    const { committed } = await refresh([CCBOT, LARGE]);
    const events = await eventsAfter(cursor);
    assert.deepEqual(
      events.map((e) => `${e.kind} ${e.subject.id}`).sort(),
      // LARGE was never fetched in the committed state, so its first list also starts it answering.
      [`ranges.changed ${LARGE}`, `source.started-answering ${LARGE}`, `source.stopped-answering ${CCBOT}`],
      'the events of the two lists of the refresh, and no other',
    );
    return { good, before, eventsBytes, committed, events };
  })();
  return bothLists;
}

describe('a poisoned list (Common Crawl + every public /8 and /19)', () => {
  test('is refused whole: status.json and the change feed say why, and verify-crawler calls none of those addresses CCBot', async () => {
    const { good, before, committed, events } = await refreshBothLists();
    assert.equal(before.state, 'ok');
    assert.ok(committed);

    const row = await statusOf(CCBOT);
    assert.equal(row.state, 'failed');
    assert.match(
      row.error ?? '',
      /^The list covers 3,607,101,468 IPv4 addresses, more than the 4,194,304 a crawler operator's list may cover .* The previous 5 prefixes are kept\.$/,
    );
    assert.equal(row.last_checked, before.last_checked, 'a refused fetch is not a check');
    const served = await readJson<{ ipv4: string[]; ipv6: string[] }>(`/ip-ranges/${CCBOT}.json`);
    assert.deepEqual([served.ipv4, served.ipv6], [good.ipv4, good.ipv6], 'the last good list is served');

    const stopped = events.filter((e) => e.subject.id === CCBOT);
    assert.deepEqual(
      stopped.map((e) => `${e.kind} ${e.subject.id}`),
      [`source.stopped-answering ${CCBOT}`],
    );
    assert.equal(stopped[0]?.error, row.error);
    const stale = (await readJson<{ stale_sources: { id: string; error: string | null }[] }>('/changes/log.json')).stale_sources.find((s) => s.id === CCBOT);
    assert.equal(stale?.error, row.error);

    // verify-crawler as the server answers it, from the dist/ this build wrote.
    const data = await publishedToolData(project.root);
    const answer = verifyBatch(data.prefixes, data.crawlers, ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '18.97.9.170'], 'CCBot', Date.now());
    const verdicts = answer.results.map((r) => (r.valid ? `${r.address} ${r.verdict}` : r.input));
    assert.equal(verdicts.at(-1), '18.97.9.170 genuine', 'the real list still verifies');
    for (const verdict of verdicts.slice(0, 3)) assert.doesNotMatch(verdict, /genuine/);
  });
});

describe('a large valid list (change events stay small)', () => {
  test('its ranges.changed event holds counts, 50 prefixes per family and where the whole list is', async () => {
    const { eventsBytes, events } = await refreshBothLists();

    const served = await readJson<{ ipv4: string[] }>(`/ip-ranges/${LARGE}.json`);
    assert.equal(served.ipv4.length, PREFIXES, 'the whole list is published');
    const changed = events.find((e) => e.kind === 'ranges.changed' && e.subject.id === LARGE);
    assert.ok(changed, 'a ranges.changed event');
    assert.deepEqual(changed.added_count, { ipv4: PREFIXES, ipv6: 0 });
    assert.equal(changed.added?.ipv4.length, 50);
    assert.deepEqual(changed.added?.ipv4, served.ipv4.slice(0, 50));
    assert.equal(changed.sample_complete, false);
    assert.equal(changed.whole_list?.url, changed.subject.url);
    assert.match(changed.whole_list?.url ?? '', new RegExp(`/ip-ranges/${LARGE}\\.json$`));
    assert.match(changed.whole_list?.history ?? '', new RegExp(`/commits/main/state/mirror/${LARGE}\\.json$`));
    assert.ok(JSON.stringify(changed).length < 4_000, `the event is ${JSON.stringify(changed).length} bytes`);

    // The growth counts the poisoned list's event of the same refresh too, so it bounds this one's.
    const grew = (await stat(join(project.root, 'state', 'events.json'))).size - eventsBytes;
    assert.ok(grew < 8_000, `state/events.json grew by ${grew} bytes for a ${PREFIXES}-prefix list and one stopped-answering event`);
    const feed = await readJson<{ items: { content_text: string }[] }>('/feed.json');
    const item = feed.items.find((i) => i.content_text.startsWith(`${LARGE}: ${PREFIXES} prefixes added`));
    assert.ok(item, 'the feed has the event');
    assert.match(item.content_text, new RegExp(`Added \\(${PREFIXES}\\):\\n(.+\\n){50}and ${PREFIXES - 50} more\\n\\nThe whole list: `));
  });
});
