import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { diffStates, type PublishedState } from './diff.ts';
import { DEFAULT_RETENTION, recordBatch } from './log.ts';
import { changesPage, parseChangesQuery, type ChangesQuery, type PublishedLog } from './page.ts';
import { EMPTY_LOG, type ChangeEvent, type EventLog } from './types.ts';

const BASE = 'https://index.example';
const urls = {
  crawler: (s: string) => `${BASE}/crawler/${s}.json`,
  source: (s: string) => `${BASE}/ip-ranges/${s}.json`,
  sourceHistory: (s: string) => `https://git.example/commits/main/state/mirror/${s}.json`,
  directory: (s: string) => `${BASE}/signature-agents/${s}.json`,
};

function logOf(count: number, start = 1): PublishedLog {
  const events: ChangeEvent[] = Array.from({ length: count }, (_, i) => ({
    cursor: start + i,
    kind: 'crawler.edited',
    observed_at: new Date(Date.UTC(2026, 0, 1) + (start + i) * 60_000).toISOString(),
    subject: { type: 'crawler', id: `c${start + i}`, url: `${BASE}/crawler/c${start + i}.json` },
    summary: 'edited',
    fields: ['name'],
  }));
  return { head: start + count - 1, oldest: start, generated_at: '2026-01-01T00:00:00Z', stale_sources: [], events };
}

const query = (params: string): ChangesQuery => {
  const parsed = parseChangesQuery(new URLSearchParams(params));
  assert.ok(parsed.ok, params);
  return parsed.query;
};

test('docs/API.md §4.4: paging 1,000 events with limit 1, 7 and 400 returns each event exactly once, oldest first', () => {
  const log = logOf(1000);
  for (const limit of [1, 7, 400]) {
    const seen: number[] = [];
    let since: number | undefined;
    for (let pages = 0; pages < 2000; pages++) {
      const result = changesPage(log, query(since === undefined ? `limit=${limit}` : `since=${since}&limit=${limit}`), BASE);
      assert.ok(result.ok);
      const { page } = result;
      seen.push(...page.changes.map((e) => e.cursor));
      assert.equal(page.count, page.changes.length);
      assert.ok(page.count <= limit);
      if (!page.has_more) {
        assert.equal(page.next, null);
        assert.equal(page.up_to_date, true);
        break;
      }
      assert.equal(page.next, `${BASE}/changes.json?since=${page.cursor}&limit=${limit}`);
      since = page.cursor;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 1000 }, (_, i) => i + 1),
      `limit ${limit}`,
    );
  }
});

test('docs/API.md §4.4: at the head the page is empty, up to date, and keeps the cursor', () => {
  const result = changesPage(logOf(5), query('since=5'), BASE);
  assert.ok(result.ok);
  assert.deepEqual(
    { cursor: result.page.cursor, count: result.page.count, up_to_date: result.page.up_to_date, has_more: result.page.has_more },
    { cursor: 5, count: 0, up_to_date: true, has_more: false },
  );
  assert.ok(JSON.stringify(result.page, null, 2).length < 2560, 'an empty page stays near 2.5 KB');
});

test('docs/API.md §4.4: a cursor older than the oldest retained event is expired and lists what to re-read', () => {
  const log = logOf(10, 41); // events 41..50 kept, 1..40 dropped
  const result = changesPage(log, query('since=12'), BASE);
  assert.ok(result.ok);
  assert.equal(result.page.cursor_expired, true);
  assert.ok(result.page.refetch.includes(`${BASE}/data/agents.json`));
  assert.equal(result.page.changes[0]?.cursor, 41);
  const fine = changesPage(log, query('since=40'), BASE);
  assert.ok(fine.ok);
  assert.equal(fine.page.cursor_expired, false, 'a client exactly before the oldest kept event lost nothing');
});

test('docs/API.md §4.4: since as an ISO 8601 time returns the events observed after it', () => {
  const log = logOf(10);
  const result = changesPage(log, query(`since=${encodeURIComponent(log.events[4]!.observed_at)}`), BASE);
  assert.ok(result.ok);
  assert.deepEqual(
    result.page.changes.map((e) => e.cursor),
    [6, 7, 8, 9, 10],
  );
  const dateOnly = changesPage(log, query('since=2025-12-31'), BASE);
  assert.ok(dateOnly.ok);
  assert.equal(dateOnly.page.count, 10);
});

test('docs/API.md §4.4: every unparseable since or limit is refused, naming the field and the accepted form', () => {
  const bad: [string, string][] = [
    ['since=abc', 'since'],
    ['since=-1', 'since'],
    ['since=1.5', 'since'],
    ['since=', 'since'],
    ['since=2026-13-45', 'since'],
    ['since=2026-11-22T06:00:00', 'since'],
    ['since=yesterday', 'since'],
    ['since=1&since=2', 'since'],
    ['since=0x10', 'since'],
    ['limit=0', 'limit'],
    ['limit=401', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1&limit=2', 'limit'],
  ];
  for (const [params, field] of bad) {
    const parsed = parseChangesQuery(new URLSearchParams(params));
    assert.equal(parsed.ok, false, params);
    if (parsed.ok) continue;
    assert.equal(parsed.field, field, params);
    assert.match(parsed.accepted, field === 'since' ? /cursor.*ISO 8601/ : /1 to 400/, params);
  }
  const ahead = changesPage(logOf(3), query('since=99'), BASE);
  assert.equal(ahead.ok, false);
});

const state = (crawlers: Record<string, Record<string, unknown>>, sources: Record<string, { state: string; ipv4: string[] }>): PublishedState => ({
  crawlers: new Map(Object.entries(crawlers)),
  sources: new Map(Object.entries(sources).map(([id, s]) => [id, { state: s.state, ipv4: s.ipv4, ipv6: [], error: s.state === 'failed' ? 'HTTP 500' : null }])),
  directories: new Map(),
});

test('diff: added, edited (which fields, derived ones ignored), withdrawn, ranges and state flips', () => {
  const before = state(
    { a: { slug: 'a', name: 'A', operator: 'X', ipv4_prefix_count: 1 }, b: { slug: 'b', name: 'B', operator: 'X' } },
    { s: { state: 'ok', ipv4: ['192.0.2.0/24'] }, t: { state: 'ok', ipv4: [] } },
  );
  const after = state(
    { a: { slug: 'a', name: 'A2', operator: 'X', ipv4_prefix_count: 9 }, c: { slug: 'c', name: 'C', operator: 'Y' } },
    { s: { state: 'ok', ipv4: ['198.51.100.0/24'] }, t: { state: 'failed', ipv4: [] } },
  );
  const events = diffStates(before, after, urls);
  assert.deepEqual(
    events.map((e) => `${e.kind} ${e.subject.id}`),
    ['ranges.changed s', 'source.stopped-answering t', 'crawler.edited a', 'crawler.withdrawn b', 'crawler.added c'],
  );
  assert.deepEqual(events[0]!.added, { ipv4: ['198.51.100.0/24'], ipv6: [] });
  assert.deepEqual(events[0]!.removed, { ipv4: ['192.0.2.0/24'], ipv6: [] });
  assert.deepEqual(events[2]!.fields, ['name']);
  assert.deepEqual(diffStates(after, after, urls), [], 'no change, no event');
});

test('log: cursors are monotonic; a re-run on the same base replaces its batch; retention drops the oldest', () => {
  const pending = diffStates(state({}, {}), state({ a: { slug: 'a', name: 'A', operator: 'X' } }, {}), urls);
  let log: EventLog = recordBatch(EMPTY_LOG, 'c1', pending, '2026-01-01T00:00:00Z');
  assert.deepEqual([log.head, log.oldest, log.events.map((e) => e.cursor)], [1, 1, [1]]);
  const rerun = recordBatch(log, 'c1', pending, '2026-01-02T00:00:00Z');
  assert.deepEqual(rerun, log, 'same base, same events: identical log, original time kept');
  log = recordBatch(log, 'c2', pending, '2026-01-03T00:00:00Z');
  assert.deepEqual(
    log.events.map((e) => e.cursor),
    [1, 2],
  );
  assert.deepEqual(recordBatch(log, 'c3', [], '2026-01-04T00:00:00Z'), log, 'nothing found: nothing recorded');
  const old = recordBatch(log, 'c4', pending, '2027-06-01T00:00:00Z', DEFAULT_RETENTION);
  assert.deepEqual(
    old.events.map((e) => e.cursor),
    [3],
    'events older than the age limit are dropped',
  );
  assert.equal(old.oldest, 3);
  const counted = recordBatch(log, 'c5', pending, '2026-01-05T00:00:00Z', { maxEvents: 2, maxAgeDays: 9999 });
  assert.deepEqual(
    counted.events.map((e) => e.cursor),
    [2, 3],
  );
});

test('a timestamp without a time zone is refused with the fix, not read as UTC', () => {
  const result = parseChangesQuery(new URLSearchParams('since=2026-11-22T19:25:00'));
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.message, /has no time zone; add Z for UTC \(2026-11-22T19:25:00Z\)/);
});

test('a day the month lacks (February 30, April 31) is refused, not rolled into the next month', () => {
  for (const since of ['2026-02-30', '2026-02-29T00:00:00Z', '2026-04-31T12:00:00+02:00', '2026-06-31']) {
    const result = parseChangesQuery(new URLSearchParams({ since }));
    assert.equal(result.ok, false, since);
    assert.match(result.ok ? '' : result.message, /is not a real date/, since);
  }
  assert.equal(parseChangesQuery(new URLSearchParams({ since: '2028-02-29' })).ok, true, 'a leap day is one');
  assert.equal(parseChangesQuery(new URLSearchParams({ since: '2026-01-31T23:30:00-01:00' })).ok, true, 'an offset may move the instant into the next month');
});

test('a refused value is quoted in part: 15,000 characters of since are not echoed back', () => {
  const cases: Record<string, string>[] = [
    { since: '1'.repeat(15_000) },
    { limit: '9'.repeat(15_000) },
    { since: `2026-11-22T06:00:00${'0'.repeat(15_000)}` },
    { since: `2026-11-22T06:00:00.${'0'.repeat(15_000)}` },
  ];
  for (const params of cases) {
    const result = parseChangesQuery(new URLSearchParams(params));
    assert.equal(result.ok, false);
    const message = result.ok ? '' : result.message;
    assert.ok(message.length < 400, `${message.length} characters`);
    assert.match(message, /more characters\)/);
  }
});
