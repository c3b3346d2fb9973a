import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { simpleGit } from 'simple-git';
import { build } from '../pipeline/publish/build.ts';
import type { ChangesPage } from '../pipeline/changes/page.ts';
import { refreshMirror } from '../pipeline/refresh/refresh.ts';
import { commitRefresh } from '../pipeline/refresh/commit.ts';
import { verifyBatch } from '../pipeline/tools/verify/index.ts';
import { bytes, file, fixture, hang, large, redirect, reset, startUpstreamServer, status, type Route, type UpstreamServer } from './support/upstream-server.ts';
import { initRepo } from './support/git.ts';
import { builtMini } from './support/built-mini.ts';
import { readTree } from './support/project.ts';
import { publishedToolData } from './support/tool-data.ts';

// The whole refresh, end to end: a real HTTP server on 127.0.0.1 plays the operators, the
// project is a real git repository, and every answer is read back from dist/ as users see it.

const SOURCE = 'perplexity-perplexitybot';
const routes: Record<string, Route> = {};
/** The good list; a fault test starts and ends on it. */
const GOOD = file('twenty.json');
let upstream: UpstreamServer;
let project: Awaited<ReturnType<typeof builtMini>>;
let clock = Date.parse('2026-01-01T00:00:00Z');
const tick = () => new Date((clock += 3_600_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');

const readJson = async <T>(path: string): Promise<T> => JSON.parse(await readFile(join(project.root, 'dist', path), 'utf8')) as T;
interface SourceDoc {
  state: string;
  warning: string | null;
  ipv4: string[];
  ipv6: string[];
  provenance: { via: string };
}
interface StatusDoc {
  sources_failed: number;
  sources: { id: string; state: string; error: string | null }[];
}

type Refreshed = { committed: string | null; page: ChangesPage };

/**
 * A deadline no answering upstream misses on a loaded machine, and a short one for the two
 * refreshes that hold the fault of an upstream that never answers, which waits it out twice.
 */
const DEADLINE_MS = 10_000;
const HANG_DEADLINE_MS = 1_000;

/** One refresh, build and commit of every source, or of `only` these. */
async function refresh(options: { only?: readonly string[]; timeoutMs?: number } = {}): Promise<Refreshed> {
  const now = tick();
  await refreshMirror({
    root: project.root,
    upstreamBase: upstream.url(''),
    only: options.only && [...options.only],
    now,
    fetch: { timeoutMs: options.timeoutMs ?? DEADLINE_MS, attempts: 2, baseDelayMs: 5, maxBytes: 200_000 },
  });
  const result = await build({ root: project.root, now });
  const committed = await commitRefresh(project.root, result.model.log);
  return { committed, page: await readJson<ChangesPage>('/changes.json') };
}

/**
 * A refresh that changed no list commits only the times of its checks (docs/API.md §2.3): the
 * other list of this project answers at every refresh, so its last_checked moves.
 */
async function assertOnlyChecked(commit: string | null, what: string): Promise<void> {
  assert.ok(commit, `${what}: the check of the answering list is committed`);
  const paths = (await simpleGit(project.root).raw(['show', '--name-only', '--format=', commit])).split('\n').filter((line) => line !== '');
  assert.deepEqual(paths, ['dist/documents.json', 'dist/documents.txt', 'dist/status.json', 'state/checked.json'], `${what}: nothing else changed`);
}

/** A copy of SOURCE's row in records/sources.yaml under each fault's and each hostile input's id. */
async function addCopiedSources(root: string): Promise<void> {
  const path = join(root, 'records', 'sources.yaml');
  const yaml = await readFile(path, 'utf8');
  const row = yaml
    .slice(yaml.indexOf(`- id: ${SOURCE}\n`))
    .split(/\n(?=- )/)[0]!
    .trimEnd();
  const copies = COPIES.map((id) =>
    row.replace(`- id: ${SOURCE}`, `- id: ${id}`).replace('/perplexitybot.json', `/${id.replace(SOURCE, 'perplexitybot')}.json`),
  );
  await writeFile(path, `${yaml.trimEnd()}\n${copies.join('\n')}\n`);
}

before(async () => {
  // The mini fixture as built (test/support/built-mini.ts), its records then given the copied
  // sources and committed: the first refresh fetches every list and builds them all in.
  project = await builtMini();
  await addCopiedSources(project.root);
  upstream = await startUpstreamServer(routes);
  routes['/openai-gptbot'] = file('google-style.json');
  routes['/google-googlebot'] = status(404);
  routes[`/${SOURCE}`] = GOOD;
  COPIES.forEach((id, i) => {
    routes[`/${id}`] = goodRoute(i);
  });
  await initRepo(project.root);
  await refresh();
});
after(async () => {
  await upstream.close();
  await project.dispose();
});

// The fault matrix starts from one state: every fault has its own source, a copy of SOURCE's
// row in sources.yaml with its own twenty prefixes, so one refresh brings every fault at once,
// one more repeats them, and one recovers them all; each fault's test then reads its own
// source's answers. The hostile inputs of the file's last three tests arrive in the first of
// those refreshes, each from a source of its own too (SOURCE, the one PerplexityBot is
// verified by, carries the hostile list); the other two refreshes leave them alone.
interface Fault {
  name: string;
  route: (id: string, list: Prefixes) => Route;
  reason: RegExp;
}
type Prefixes = { ipv4Prefix: string }[];
const FAULTS: Fault[] = [
  { name: 'HTTP 500', route: () => status(500), reason: /http-status|500/ },
  { name: 'timeout', route: () => hang(), reason: /timeout/i },
  { name: 'connection reset', route: () => reset(), reason: /network|reset|socket/i },
  { name: 'garbage', route: () => file('garbage.bin', 'application/json'), reason: /Parse failed/ },
  { name: 'truncated JSON', route: () => file('truncated.json'), reason: /Parse failed/ },
  { name: 'empty list', route: () => file('empty-list.json'), reason: /empty|no prefix/i },
  // twenty-shrunk.json keeps the first 2 of twenty.json's 20 prefixes; each source shrinks its own.
  {
    name: '90% shrink',
    route: (_id, list) => bytes(JSON.stringify({ creationTime: '2026-01-02T00:00:00Z', prefixes: list.slice(0, 2) })),
    reason: /shr[iu]nk|fewer|lost/i,
  },
  { name: 'oversize body', route: () => large(400_000, true), reason: /too-large|larger|size/i },
  { name: 'redirect loop', route: (id) => redirect(`/${id}`), reason: /redirect/i },
  { name: 'invalid CIDR', route: () => file('invalid-cidr.json'), reason: /invalid/i },
  { name: 'wrong content type', route: () => file('html-no-json.html', 'text/html'), reason: /Parse failed/ },
];
const TWENTY = (JSON.parse(fixture('twenty.json').toString('utf8')) as { prefixes: Prefixes }).prefixes;
const twentyShrunk = (JSON.parse(fixture('twenty-shrunk.json').toString('utf8')) as { prefixes: Prefixes }).prefixes;
assert.deepEqual(twentyShrunk, TWENTY.slice(0, 2), 'the 90% shrink keeps the first 2 of the 20');
/** The fault's source, a copy of SOURCE's row. */
const faultSource = (index: number) => `${SOURCE}-fault-${index + 1}`;
/** The hostile inputs' sources after SOURCE: the two redirects, the five long strings, the line break. */
const hostileSource = (index: number) => `${SOURCE}-hostile-${index + 1}`;
const HOSTILE_COPIES = 8;
/** Every copy of SOURCE's row: the faults', then the hostile inputs'. */
const COPIES = [...FAULTS.map((_, i) => faultSource(i)), ...Array.from({ length: HOSTILE_COPIES }, (_, i) => hostileSource(i))];
/** Twenty prefixes of copy `index`'s own: twenty.json's (SOURCE's) with 66.249.66. made 66.249.<67+index>. */
const copyList = (index: number): Prefixes => TWENTY.map((p) => ({ ipv4Prefix: p.ipv4Prefix.replace(/^66\.249\.66\./, `66.249.${67 + index}.`) }));
/** The fault's list: the copies' lists start with the faults'. */
const faultList = copyList;
const goodRoute = (index: number): Route => bytes(JSON.stringify({ creationTime: '2026-01-01T00:00:00Z', prefixes: copyList(index) }));

type EventRow = { cursor: number; kind: string; subject: { id: string }; added?: { ipv4: string[]; ipv6: string[] } };
const eventRowsAfter = async (cursor: number): Promise<EventRow[]> =>
  (await readJson<{ events: EventRow[] }>('/changes/log.json')).events.filter((e) => e.cursor > cursor);
const named = (events: readonly EventRow[]): string[] => events.map((e) => `${e.kind} ${e.subject.id}`);
const eventsAfter = async (cursor: number): Promise<string[]> => named(await eventRowsAfter(cursor));

// The hostile inputs, each from a source of its own: SOURCE holds the hostile list, two more
// redirect to a local service, five more quote a 200,000-character string around their own
// list and one more sends a line break in plain text.
const TOKEN = 'local-service-token-5f2c9e';
const LONG = 'q'.repeat(200_000);
const TWENTY_PREFIXES = TWENTY.map((p) => p.ipv4Prefix);
const HOSTILE_LIST = [...TWENTY, { ipv4Prefix: '0.0.0.0/0' }, { ipv4Prefix: '10.0.0.0/8' }, { ipv4Prefix: '127.0.0.0/8' }];
const REDIRECTED = [hostileSource(0), hostileSource(1)];
const HOSTILE_SOURCES = [SOURCE, ...Array.from({ length: HOSTILE_COPIES }, (_, i) => hostileSource(i))];
const LONG_CASES: Array<[string, (list: Prefixes) => Route]> = [
  ['an invalid prefix', (list) => bytes(JSON.stringify({ creationTime: '2026-01-04T00:00:00Z', prefixes: [...list, { ipv4Prefix: LONG }] }))],
  ['a creationTime', (list) => bytes(JSON.stringify({ creationTime: LONG, prefixes: list }))],
  ['a key', () => bytes(JSON.stringify({ [LONG]: 1 }))],
  ['an extra entry key', (list) => bytes(JSON.stringify({ creationTime: '2026-01-04T00:00:00Z', prefixes: list.map((p) => ({ ...p, [LONG]: 1 })) }))],
  [
    'a Content-Type',
    (list) => bytes(JSON.stringify({ creationTime: '2026-01-01T00:00:00Z', prefixes: list }), { 'content-type': `text/${'q'.repeat(7_000)}` }),
  ],
];
const longSource = (i: number) => hostileSource(2 + i);
const LINE_BREAK = hostileSource(2 + LONG_CASES.length);
/** The list copy `id` was first given, for the long strings to quote around. */
const listOf = (id: string): Prefixes => copyList(COPIES.indexOf(id));

/** What the hostile inputs left, read right after the refresh that brought them. */
interface HostileRun {
  refreshed: Refreshed;
  /** The refresh's own clock. */
  at: number;
  statusDoc: StatusDoc;
  statusText: string;
  served: SourceDoc;
  allLines: string[];
  toolData: Awaited<ReturnType<typeof publishedToolData>>;
  targets: string[];
  localHits: number;
  holdingToken: string[];
  holdingLong: string[];
}

interface FaultRun {
  /** The changes page before the faults: every list good, as before() left them. */
  start: ChangesPage;
  before: SourceDoc[];
  failed: Refreshed;
  during: SourceDoc[];
  statusDoc: StatusDoc;
  all: string;
  failedEvents: string[];
  hostile: HostileRun;
  again: Refreshed;
  recovered: Refreshed;
  /** The events of the recovery, with their prefixes. */
  backEvents: EventRow[];
  back: string[];
  after: SourceDoc[];
}
let faultRun: Promise<FaultRun> | undefined;

// Two facts of other tests ride on the matrix's refreshes, each on a list the matrix leaves
// alone (openai-gptbot): its creationTime-only change arrives with the same faults again, which
// must then still commit only the times of the checks, and its changed list with the recovery.
const NEXT_DAY = 'google-style.next-day.json';
const ADDED = 'google-style.added.json';

/**
 * Every fault and every hostile input, then every fault again, then the faults good again:
 * three refreshes for the whole matrix and the hostile inputs.
 */
function runFaults(): Promise<FaultRun> {
  faultRun ??= (async () => {
    const sources = FAULTS.map((_, i) => faultSource(i));
    const docs = () => Promise.all(sources.map((id) => readJson<SourceDoc>(`/ip-ranges/${id}.json`)));
    const start = await readJson<ChangesPage>('/changes.json');
    const before = await docs();
    const local = await startUpstreamServer({
      [`/${SOURCE}`]: bytes(JSON.stringify({ creationTime: TOKEN, prefixes: [{ ipv4Prefix: '66.249.66.0/29' }], token: TOKEN }), { 'x-token': TOKEN }),
    });
    try {
      FAULTS.forEach((fault, i) => {
        routes[`/${faultSource(i)}`] = fault.route(faultSource(i), faultList(i));
      });
      const targets = [local.url(`/${SOURCE}`), local.url(`/${SOURCE}`).replace('http:', 'https:')];
      routes[`/${SOURCE}`] = bytes(JSON.stringify({ creationTime: '2026-01-03T00:00:00Z', prefixes: HOSTILE_LIST }));
      targets.forEach((target, i) => {
        routes[`/${REDIRECTED[i]}`] = redirect(target, 302);
      });
      LONG_CASES.forEach(([, route], i) => {
        routes[`/${longSource(i)}`] = route(listOf(longSource(i)));
      });
      routes[`/${LINE_BREAK}`] = bytes('x\n8.8.8.8/32\n# a comment line\n');
      const failed = await refresh({ timeoutMs: HANG_DEADLINE_MS });
      const at = clock;
      const during = await docs();
      const statusText = await readFile(join(project.root, 'dist', 'status.json'), 'utf8');
      const statusDoc = JSON.parse(statusText) as StatusDoc;
      const all = await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8');
      const failedEvents = await eventsAfter(start.head);
      const hostile = {
        refreshed: failed,
        at,
        statusDoc,
        statusText,
        served: await readJson<SourceDoc>(`/ip-ranges/${SOURCE}.json`),
        allLines: all.split('\n'),
        toolData: await publishedToolData(project.root),
        targets,
        holdingToken: await filesHolding(TOKEN),
        holdingLong: await filesHolding('q'.repeat(201)),
      };
      // The hostile inputs are not fetched again: they have been judged, and a cut-off download's
      // error may read differently the next time (retried or not), which is no fault's business.
      const matrix = ['google-googlebot', 'openai-gptbot', ...sources];
      routes['/openai-gptbot'] = file(NEXT_DAY);
      const again = await refresh({ only: matrix, timeoutMs: HANG_DEADLINE_MS });
      FAULTS.forEach((_, i) => {
        routes[`/${faultSource(i)}`] = goodRoute(i);
      });
      routes['/openai-gptbot'] = file(ADDED);
      const recovered = await refresh({ only: matrix });
      const backEvents = await eventRowsAfter(again.page.head);
      return {
        start,
        before,
        failed,
        during,
        statusDoc,
        all,
        failedEvents,
        hostile: { ...hostile, localHits: local.hits(`/${SOURCE}`) },
        again,
        recovered,
        backEvents,
        back: named(backEvents),
        after: await docs(),
      };
    } finally {
      await local.close();
    }
  })();
  return faultRun;
}

test('the fault matrix: every fault at once is one stopped-answering event per source, the same faults again none, the recovery one started-answering each', async () => {
  const run = await runFaults();
  const sources = FAULTS.map((_, i) => faultSource(i));
  // The hostile inputs arrived in the same refresh: each one refused stopped answering too, and
  // nothing else happened.
  const refused = HOSTILE_SOURCES.filter((id) => run.statusDoc.sources.find((s) => s.id === id)?.state === 'failed');
  assert.ok(refused.includes(SOURCE));
  assert.deepEqual([...run.failedEvents].sort(), [...sources, ...refused].map((id) => `source.stopped-answering ${id}`).sort());
  assert.equal(run.failed.page.head - run.start.head, FAULTS.length + refused.length);
  assert.equal(run.again.page.head, run.failed.page.head, 'the same failures again (and a creationTime-only change) are no new event');
  await assertOnlyChecked(run.again.committed, 'the same failures again, with a creationTime-only change of openai-gptbot');
  assert.deepEqual([...run.back].sort(), [...sources.map((id) => `source.started-answering ${id}`), 'ranges.changed openai-gptbot'].sort());
});

FAULTS.forEach(({ name, reason }, index) => {
  test(`${name}: no prefix lost, status and stale_sources say why, one event per state flip`, async () => {
    const id = faultSource(index);
    const run = await runFaults();
    const before = run.before[index]!;
    assert.equal(before.state, 'ok');
    assert.deepEqual(
      before.ipv4,
      faultList(index).map((p) => p.ipv4Prefix),
    );

    const during = run.during[index]!;
    assert.deepEqual([during.ipv4, during.ipv6], [before.ipv4, before.ipv6], 'the last good prefixes are still served');
    assert.equal(during.state, 'failed');
    assert.match(during.warning ?? '', /last good prefixes/);
    const row = run.statusDoc.sources.find((s) => s.id === id);
    assert.equal(row?.state, 'failed');
    assert.match(row?.error ?? '', reason);
    const stale = run.failed.page.stale_sources.find((s) => s.id === id);
    assert.ok(stale, 'named in stale_sources');
    assert.match(stale.error ?? '', reason);
    for (const prefix of before.ipv4) assert.ok(run.all.includes(`\n${prefix}\n`), `${prefix} still in all.txt`);
    assert.equal(run.failedEvents.filter((e) => e.endsWith(` ${id}`)).join(), `source.stopped-answering ${id}`);

    assert.equal(run.back.filter((e) => e.endsWith(` ${id}`)).join(), `source.started-answering ${id}`);
    assert.equal(run.after[index]!.state, 'ok');
    assert.equal(
      run.recovered.page.stale_sources.some((s) => s.id === id),
      false,
    );
  });
});

test('a changed list emits ranges.changed with exactly the prefixes added and removed', async () => {
  // openai-gptbot served google-style.json (its next day's copy, the same prefixes, last) before
  // the recovery's refresh brought google-style.added.json.
  const run = await runFaults();
  const events = run.backEvents.filter((e) => e.subject.id === 'openai-gptbot');
  assert.deepEqual(named(events), ['ranges.changed openai-gptbot']);
  const before = JSON.parse(await readFile(new URL('./fixtures/upstream/google-style.json', import.meta.url), 'utf8')) as {
    prefixes: Record<string, string>[];
  };
  const afterList = JSON.parse(await readFile(new URL(`./fixtures/upstream/${ADDED}`, import.meta.url), 'utf8')) as {
    prefixes: Record<string, string>[];
  };
  const set = (list: { prefixes: Record<string, string>[] }, key: string) => new Set(list.prefixes.flatMap((p) => (p[key] ? [p[key]] : [])));
  const expectAdded = [...set(afterList, 'ipv4Prefix')].filter((p) => !set(before, 'ipv4Prefix').has(p));
  assert.ok(expectAdded.length > 0);
  assert.deepEqual(new Set(events[0]!.added!.ipv4), new Set(expectAdded));
  assert.ok(run.recovered.committed, 'the change is committed');
});

test('a creationTime-only change upstream commits only the time of the check', async () => {
  const nextDay = JSON.parse(fixture(NEXT_DAY).toString('utf8')) as { creationTime: string; prefixes: unknown[] };
  const sameDay = JSON.parse(fixture('google-style.json').toString('utf8')) as { creationTime: string; prefixes: unknown[] };
  assert.notEqual(nextDay.creationTime, sameDay.creationTime);
  assert.deepEqual(nextDay.prefixes, sameDay.prefixes, `${NEXT_DAY} moves only the creationTime`);
  // openai-gptbot served google-style.json until the matrix's second refresh brought its next day's copy.
  const run = await runFaults();
  await assertOnlyChecked(run.again.committed, 'a creationTime-only change (with the same faults again)');
});

test('an upstream that never answered usably is failed, serves no prefixes and warns', async () => {
  const doc = await readJson<SourceDoc>('/ip-ranges/google-googlebot.json');
  assert.equal(doc.state, 'failed', 'the 404 upstream was attempted and refused');
  assert.deepEqual(doc.ipv4, []);
  assert.match(doc.warning ?? '', /last fetch failed/);
});

/** Every file of dist/ and state/ in which `needle` occurs. */
async function filesHolding(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ['dist', 'state']) {
    for (const [path, body] of await readTree(join(project.root, dir))) if (body.includes(needle)) found.push(`${dir}${path}`);
  }
  return found;
}

// docs/API.md §2.3: a list that holds everything, or private space, would make verify-crawler
// call any address genuine. It is refused like any other fault, and verify still says no.
test('a list holding 0.0.0.0/0, 10.0.0.0/8 and 127.0.0.0/8 is refused; verify-crawler calls none of those addresses genuine', async () => {
  const run = (await runFaults()).hostile;
  const row = run.statusDoc.sources.find((s) => s.id === SOURCE);
  assert.equal(row?.state, 'failed');
  assert.equal(
    row?.error,
    `The list holds 3 prefixes that cannot be a crawler's public addresses: "0.0.0.0/0" is wider than /8, the most any one organisation holds; "10.0.0.0/8" is in private space 10.0.0.0/8; "127.0.0.0/8" is in loopback space 127.0.0.0/8. The previous 20 prefixes are kept.`,
  );
  assert.deepEqual(run.served.ipv4, TWENTY_PREFIXES, 'the last good list is served');
  for (const prefix of ['0.0.0.0/0', '10.0.0.0/8', '127.0.0.0/8']) assert.ok(!run.allLines.includes(prefix), `${prefix} is not published`);

  // verify-crawler as the server answers it: from the published documents.
  // Judged at the refresh's own clock, when the last good copy is hours old: evidence.
  const answer = verifyBatch(run.toolData.prefixes, run.toolData.crawlers, ['8.8.8.8', '192.168.1.10', '127.0.0.1', '66.249.66.1'], 'PerplexityBot', run.at);
  assert.deepEqual(
    answer.results.map((r) => (r.valid ? `${r.address} ${r.verdict}` : r.input)),
    ['8.8.8.8 not-in-published-ranges', '192.168.1.10 not-in-published-ranges', '127.0.0.1 not-in-published-ranges', '66.249.66.1 genuine'],
  );
});

// docs/PRINCIPLES.md §4: an upstream's redirect to a service on our own network is not followed,
// so nothing that service says can be published.
test('a 302 to another loopback port is refused; nothing of the target appears in dist/ or state/', async () => {
  const run = (await runFaults()).hostile;
  // Both redirects at once, each from its own source.
  run.targets.forEach((target, i) => {
    const id = REDIRECTED[i]!;
    const row = run.statusDoc.sources.find((s) => s.id === id);
    assert.equal(row?.state, 'failed', target);
    assert.match(
      row?.error ?? '',
      /^Fetch failed \(bad-redirect\): .* redirected to https?:\/\/127\.0\.0\.1:\d+\/perplexity-perplexitybot, which was not followed: /,
    );
    assert.ok(run.refreshed.page.stale_sources.some((s) => s.id === id));
  });
  assert.equal(run.localHits, 0, 'the local service was never asked');
  assert.deepEqual(run.holdingToken, []);
});

test('a 200,000-character upstream string is never published whole; a line break in an error starts no line of all.txt', async () => {
  const run = (await runFaults()).hostile;
  // All five at once, each from its own source, in one refresh.
  assert.ok(run.statusText.length < 40_000, `status.json is ${run.statusText.length} characters`);
  assert.deepEqual(run.holdingLong, [], `quoted at most 200 characters at a time (${LONG_CASES.map(([what], i) => `${longSource(i)}: ${what}`).join('; ')})`);

  const row = run.statusDoc.sources.find((s) => s.id === LINE_BREAK);
  assert.match(row?.error ?? '', /^Parse failed: /);
  assert.doesNotMatch(row?.error ?? '', /[\r\n]/);
  assert.ok(!run.allLines.includes('8.8.8.8/32'), 'the upstream text did not become a prefix line');
  assert.ok(
    run.allLines.every((line) => line === '' || line.startsWith('# ') || /^[0-9a-f.:]+\/\d+$/.test(line)),
    'every line is a comment or a prefix',
  );
});
