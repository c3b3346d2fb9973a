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
import { readTree, tempProject } from './support/project.ts';
import { publishedToolData } from './support/tool-data.ts';

// The whole refresh, end to end: a real HTTP server on 127.0.0.1 plays the operators, the
// project is a real git repository, and every answer is read back from dist/ as users see it.

const SOURCE = 'perplexity-perplexitybot';
const routes: Record<string, Route> = {};
/** The good list; a fault test starts and ends on it. */
const GOOD = file('twenty.json');
let upstream: UpstreamServer;
let project: Awaited<ReturnType<typeof tempProject>>;
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

async function refresh(): Promise<Refreshed> {
  const now = tick();
  await refreshMirror({ root: project.root, upstreamBase: upstream.url(''), now, fetch: { timeoutMs: 400, attempts: 2, baseDelayMs: 5, maxBytes: 200_000 } });
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

/** A copy of SOURCE's row in records/sources.yaml under each fault's id. */
async function addFaultSources(root: string): Promise<void> {
  const path = join(root, 'records', 'sources.yaml');
  const yaml = await readFile(path, 'utf8');
  const row = yaml
    .slice(yaml.indexOf(`- id: ${SOURCE}\n`))
    .split(/\n(?=- )/)[0]!
    .trimEnd();
  const copies = FAULTS.slice(1).map((_, i) =>
    row.replace(`- id: ${SOURCE}`, `- id: ${faultSource(i + 1)}`).replace(`/${'perplexitybot'}.json`, `/perplexitybot-fault-${i + 1}.json`),
  );
  await writeFile(path, `${yaml.trimEnd()}\n${copies.join('\n')}\n`);
}

before(async () => {
  project = await tempProject('mini');
  await addFaultSources(project.root);
  upstream = await startUpstreamServer(routes);
  routes['/openai-gptbot'] = file('google-style.json');
  routes['/google-googlebot'] = status(404);
  FAULTS.forEach((_, i) => {
    routes[`/${faultSource(i)}`] = goodRoute(i);
  });
  await build({ root: project.root, now: tick() });
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
// source's answers. SOURCE itself carries the first fault.
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
/** The fault's source: SOURCE for the first, else a copy of its row. */
const faultSource = (index: number) => (index === 0 ? SOURCE : `${SOURCE}-fault-${index}`);
/** Twenty prefixes of the fault's own (twenty.json's for SOURCE, 66.249.<66+index>.0/24 cut alike for the others). */
const faultList = (index: number): Prefixes =>
  index === 0 ? TWENTY : TWENTY.map((p) => ({ ipv4Prefix: p.ipv4Prefix.replace(/^66\.249\.66\./, `66.249.${66 + index}.`) }));
const goodRoute = (index: number): Route => (index === 0 ? GOOD : bytes(JSON.stringify({ creationTime: '2026-01-01T00:00:00Z', prefixes: faultList(index) })));

type EventRow = { cursor: number; kind: string; subject: { id: string } };
const eventsAfter = async (cursor: number): Promise<string[]> =>
  (await readJson<{ events: EventRow[] }>('/changes/log.json')).events.filter((e) => e.cursor > cursor).map((e) => `${e.kind} ${e.subject.id}`);

interface FaultRun {
  good: Refreshed;
  before: SourceDoc[];
  failed: Refreshed;
  during: SourceDoc[];
  statusDoc: StatusDoc;
  all: string;
  failedEvents: string[];
  again: Refreshed;
  recovered: Refreshed;
  back: string[];
  after: SourceDoc[];
}
let faultRun: Promise<FaultRun> | undefined;

/** Good, every fault, every fault again, good again: four refreshes for the whole matrix. */
function runFaults(): Promise<FaultRun> {
  faultRun ??= (async () => {
    const sources = FAULTS.map((_, i) => faultSource(i));
    const docs = () => Promise.all(sources.map((id) => readJson<SourceDoc>(`/ip-ranges/${id}.json`)));
    FAULTS.forEach((_, i) => {
      routes[`/${faultSource(i)}`] = goodRoute(i);
    });
    const good = await refresh();
    const before = await docs();
    FAULTS.forEach((fault, i) => {
      routes[`/${faultSource(i)}`] = fault.route(faultSource(i), faultList(i));
    });
    const failed = await refresh();
    const during = await docs();
    const statusDoc = await readJson<StatusDoc>('/status.json');
    const all = await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8');
    const failedEvents = await eventsAfter(good.page.head);
    const again = await refresh();
    FAULTS.forEach((_, i) => {
      routes[`/${faultSource(i)}`] = goodRoute(i);
    });
    const recovered = await refresh();
    const back = await eventsAfter(again.page.head);
    return { good, before, failed, during, statusDoc, all, failedEvents, again, recovered, back, after: await docs() };
  })();
  return faultRun;
}

test('the fault matrix: every fault at once is one stopped-answering event per source, the same faults again none, the recovery one started-answering each', async () => {
  const run = await runFaults();
  const sources = FAULTS.map((_, i) => faultSource(i));
  assert.deepEqual([...run.failedEvents].sort(), sources.map((id) => `source.stopped-answering ${id}`).sort());
  assert.equal(run.failed.page.head - run.good.page.head, FAULTS.length);
  assert.equal(run.again.page.head, run.failed.page.head, 'the same failures again are no new event');
  await assertOnlyChecked(run.again.committed, 'the same failures again');
  assert.deepEqual([...run.back].sort(), sources.map((id) => `source.started-answering ${id}`).sort());
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
  routes['/openai-gptbot'] = file('google-style.json');
  const start = await refresh();
  routes['/openai-gptbot'] = file('google-style.added.json');
  const next = await refresh();
  const log = await readJson<{
    events: {
      cursor: number;
      kind: string;
      subject: { id: string };
      added?: { ipv4: string[]; ipv6: string[] };
      removed?: { ipv4: string[]; ipv6: string[] };
    }[];
  }>('/changes/log.json');
  const events = log.events.filter((e) => e.cursor > start.page.head);
  assert.deepEqual(
    events.map((e) => `${e.kind} ${e.subject.id}`),
    ['ranges.changed openai-gptbot'],
  );
  const before = JSON.parse(await readFile(new URL('./fixtures/upstream/google-style.json', import.meta.url), 'utf8')) as {
    prefixes: Record<string, string>[];
  };
  const afterList = JSON.parse(await readFile(new URL('./fixtures/upstream/google-style.added.json', import.meta.url), 'utf8')) as {
    prefixes: Record<string, string>[];
  };
  const set = (list: { prefixes: Record<string, string>[] }, key: string) => new Set(list.prefixes.flatMap((p) => (p[key] ? [p[key]] : [])));
  const expectAdded = [...set(afterList, 'ipv4Prefix')].filter((p) => !set(before, 'ipv4Prefix').has(p));
  assert.ok(expectAdded.length > 0);
  assert.deepEqual(new Set(events[0]!.added!.ipv4), new Set(expectAdded));
  assert.ok(next.committed, 'the change is committed');
});

test('a creationTime-only change upstream commits only the time of the check', async () => {
  routes['/openai-gptbot'] = file('google-style.json');
  await refresh();
  routes['/openai-gptbot'] = bytes(await readFile(new URL('./fixtures/upstream/google-style.next-day.json', import.meta.url)));
  const result = await refresh();
  await assertOnlyChecked(result.committed, 'a creationTime-only change');
});

test('an upstream that never answered usably is failed, serves no prefixes and warns', async () => {
  const doc = await readJson<SourceDoc>('/ip-ranges/google-googlebot.json');
  assert.equal(doc.state, 'failed', 'the 404 upstream was attempted and refused');
  assert.deepEqual(doc.ipv4, []);
  assert.match(doc.warning ?? '', /last fetch failed/);
});

// docs/API.md §2.3: a list that holds everything, or private space, would make verify-crawler
// call any address genuine. It is refused like any other fault, and verify still says no.
test('a list holding 0.0.0.0/0, 10.0.0.0/8 and 127.0.0.0/8 is refused; verify-crawler calls none of those addresses genuine', async () => {
  routes[`/${SOURCE}`] = file('twenty.json');
  await refresh();
  const twenty = (JSON.parse(fixture('twenty.json').toString('utf8')) as { prefixes: { ipv4Prefix: string }[] }).prefixes;
  const hostile = [...twenty, { ipv4Prefix: '0.0.0.0/0' }, { ipv4Prefix: '10.0.0.0/8' }, { ipv4Prefix: '127.0.0.0/8' }];
  routes[`/${SOURCE}`] = bytes(JSON.stringify({ creationTime: '2026-01-03T00:00:00Z', prefixes: hostile }));
  await refresh();

  const row = (await readJson<StatusDoc>('/status.json')).sources.find((s) => s.id === SOURCE);
  assert.equal(row?.state, 'failed');
  assert.equal(
    row?.error,
    `The list holds 3 prefixes that cannot be a crawler's public addresses: "0.0.0.0/0" is wider than /8, the most any one organisation holds; "10.0.0.0/8" is in private space 10.0.0.0/8; "127.0.0.0/8" is in loopback space 127.0.0.0/8. The previous 20 prefixes are kept.`,
  );
  const served = await readJson<SourceDoc>(`/ip-ranges/${SOURCE}.json`);
  assert.deepEqual(
    served.ipv4,
    twenty.map((p) => p.ipv4Prefix),
    'the last good list is served',
  );
  const lines = (await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8')).split('\n');
  for (const prefix of ['0.0.0.0/0', '10.0.0.0/8', '127.0.0.0/8']) assert.ok(!lines.includes(prefix), `${prefix} is not published`);

  // verify-crawler as the server answers it: from the published documents.
  const data = await publishedToolData(project.root);
  // Judged at the refresh's own clock, when the last good copy is hours old: evidence.
  const answer = verifyBatch(data.prefixes, data.crawlers, ['8.8.8.8', '192.168.1.10', '127.0.0.1', '66.249.66.1'], 'PerplexityBot', clock);
  assert.deepEqual(
    answer.results.map((r) => (r.valid ? `${r.address} ${r.verdict}` : r.input)),
    ['8.8.8.8 not-in-published-ranges', '192.168.1.10 not-in-published-ranges', '127.0.0.1 not-in-published-ranges', '66.249.66.1 genuine'],
  );
  routes[`/${SOURCE}`] = file('twenty.json');
  await refresh();
});

/** Every file of dist/ and state/ in which `needle` occurs. */
async function filesHolding(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ['dist', 'state']) {
    for (const [path, body] of await readTree(join(project.root, dir))) if (body.includes(needle)) found.push(`${dir}${path}`);
  }
  return found;
}

// docs/PRINCIPLES.md §4: an upstream's redirect to a service on our own network is not followed,
// so nothing that service says can be published.
test('a 302 to another loopback port is refused; nothing of the target appears in dist/ or state/', async () => {
  const TOKEN = 'local-service-token-5f2c9e';
  const local = await startUpstreamServer({
    [`/${SOURCE}`]: bytes(JSON.stringify({ creationTime: TOKEN, prefixes: [{ ipv4Prefix: '66.249.66.0/29' }], token: TOKEN }), { 'x-token': TOKEN }),
  });
  // Both redirects at once, each from its own source (the fault matrix's first two).
  const targets = [local.url(`/${SOURCE}`), local.url(`/${SOURCE}`).replace('http:', 'https:')];
  try {
    targets.forEach((target, i) => {
      routes[`/${faultSource(i)}`] = redirect(target, 302);
    });
    const failed = await refresh();
    const statusDoc = await readJson<StatusDoc>('/status.json');
    targets.forEach((target, i) => {
      const id = faultSource(i);
      const row = statusDoc.sources.find((s) => s.id === id);
      assert.equal(row?.state, 'failed', target);
      assert.match(
        row?.error ?? '',
        /^Fetch failed \(bad-redirect\): .* redirected to https?:\/\/127\.0\.0\.1:\d+\/perplexity-perplexitybot, which was not followed: /,
      );
      assert.ok(failed.page.stale_sources.some((s) => s.id === id));
    });
    assert.equal(local.hits(`/${SOURCE}`), 0, 'the local service was never asked');
    assert.deepEqual(await filesHolding(TOKEN), []);
  } finally {
    await local.close();
    targets.forEach((_, i) => {
      routes[`/${faultSource(i)}`] = goodRoute(i);
    });
    await refresh();
  }
});

test('a 200,000-character upstream string is never published whole; a line break in an error starts no line of all.txt', async () => {
  const long = 'q'.repeat(200_000);
  const twenty = (JSON.parse(fixture('twenty.json').toString('utf8')) as { prefixes: { ipv4Prefix: string }[] }).prefixes;
  const cases: Array<[string, string]> = [
    ['an invalid prefix', JSON.stringify({ creationTime: '2026-01-04T00:00:00Z', prefixes: [...twenty, { ipv4Prefix: long }] })],
    ['a creationTime', JSON.stringify({ creationTime: long, prefixes: twenty })],
    ['a key', JSON.stringify({ [long]: 1 })],
    ['an extra entry key', JSON.stringify({ creationTime: '2026-01-04T00:00:00Z', prefixes: twenty.map((p) => ({ ...p, [long]: 1 })) })],
    ['a Content-Type', ''],
  ];
  // All five at once, each from its own source (the fault matrix's first five), in one refresh.
  cases.forEach(([what, body], i) => {
    routes[`/${faultSource(i)}`] = what === 'a Content-Type' ? bytes(fixture('twenty.json'), { 'content-type': `text/${'q'.repeat(7_000)}` }) : bytes(body);
  });
  await refresh();
  const statusDoc = await readFile(join(project.root, 'dist', 'status.json'), 'utf8');
  assert.ok(statusDoc.length < 40_000, `status.json is ${statusDoc.length} characters`);
  const holding = await filesHolding('q'.repeat(201));
  assert.deepEqual(holding, [], `quoted at most 200 characters at a time (${cases.map(([what], i) => `${faultSource(i)}: ${what}`).join('; ')})`);
  cases.forEach((_, i) => {
    routes[`/${faultSource(i)}`] = goodRoute(i);
  });

  routes[`/${SOURCE}`] = bytes('x\n8.8.8.8/32\n# a comment line\n');
  await refresh();
  const row = (await readJson<StatusDoc>('/status.json')).sources.find((s) => s.id === SOURCE);
  assert.match(row?.error ?? '', /^Parse failed: /);
  assert.doesNotMatch(row?.error ?? '', /[\r\n]/);
  const lines = (await readFile(join(project.root, 'dist', 'ip-ranges', 'all.txt'), 'utf8')).split('\n');
  assert.ok(!lines.includes('8.8.8.8/32'), 'the upstream text did not become a prefix line');
  assert.ok(
    lines.every((line) => line === '' || line.startsWith('# ') || /^[0-9a-f.:]+\/\d+$/.test(line)),
    'every line is a comment or a prefix',
  );
  routes[`/${SOURCE}`] = file('twenty.json');
  await refresh();
});
