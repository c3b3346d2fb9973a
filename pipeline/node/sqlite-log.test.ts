import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { logEntry as entry, LOG_TIME } from '../../test/support/log-entry.ts';
import { Database } from './sqlite-driver.ts';
import { SCHEMA_VERSION, sqliteLog } from './sqlite-log.ts';
import { VISITOR_COUNT_LIMIT } from '../log/visitor-tally.ts';
import { statsDocument } from '../log/stats.ts';

const dir = mkdtempSync(join(tmpdir(), 'request-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fresh = () => join(dir, `log-${files++}.db`);

const DAY = 86_400_000;
const T = LOG_TIME;

test('a new file gets the schema and its version; rows written in a batch come back, daily sums and pages by cursor', async () => {
  const file = fresh();
  const log = sqliteLog({ file, now: () => T });
  log.record(entry());
  log.record(entry({ route: '/crawler/{slug}.json', crawler: 'gptbot', category: 'ai-training', verdict: 'not-genuine', bytes: 50 }));
  log.record(entry({ at: T + 1000, crawler: 'gptbot', category: 'ai-training', verdict: 'not-genuine', route: '/crawler/{slug}.json', bytes: 50 }));
  log.flush();
  assert.deepEqual(await log.daily('2026-11-25'), [
    {
      day: '2026-11-25',
      route: '/crawler/{slug}.json',
      status: 200,
      crawler: 'gptbot',
      category: 'ai-training',
      verdict: 'not-genuine',
      requests: 2,
      bytes: 100,
    },
    { day: '2026-11-25', route: '/data/agents.json', status: 200, crawler: null, category: null, verdict: null, requests: 1, bytes: 10 },
  ]);
  const first = await log.hits(0, 2);
  assert.deepEqual(
    first.hits.map((h) => h.id),
    [1, 2],
  );
  assert.equal(first.next_cursor, 2);
  const second = await log.hits(2, 2);
  assert.deepEqual(
    second.hits.map((h) => h.id),
    [3],
  );
  assert.equal(second.next_cursor, null);
  assert.deepEqual(log.health(), { state: 'ok', reason: null, written: 3, dropped: 0, evicted: 0, retention_days: 30, max_bytes: 1024 * 1024 * 1024 });
  log.close();
  const db = new Database(file, { readonly: true });
  assert.deepEqual(db.prepare('SELECT version FROM schema_version').all(), [{ version: SCHEMA_VERSION }]);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  db.close();
});

test('reopening keeps the rows and migrates nothing twice', async () => {
  const file = fresh();
  const first = sqliteLog({ file, now: () => T });
  first.record(entry());
  first.close();
  const again = sqliteLog({ file, now: () => T });
  assert.equal((await again.hits(0, 10)).hits.length, 1);
  again.close();
});

test('a visitor: requests counted (queued ones too), first and last seen, the latest booking', async () => {
  const log = sqliteLog({ file: fresh(), now: () => T });
  log.record(entry({ at: T }));
  log.record(entry({ at: T + 5, crawler: 'gptbot', verdict: 'genuine' }));
  log.flush();
  log.record(entry({ at: T + 9, crawler: 'claudebot', verdict: 'not-genuine' }));
  assert.deepEqual(await log.visitor('cafe'), {
    counted: true,
    visitor: { requests: 3, first_seen: T, last_seen: T + 9, crawler: 'claudebot', verdict: 'not-genuine' },
  });
  assert.deepEqual(await log.visitor('bbbb'), { counted: true, visitor: null });
  await log.close();
});

test("a visitor's requests are counted up to the limit, however many there are", async () => {
  const log = sqliteLog({ file: fresh(), queueLimit: VISITOR_COUNT_LIMIT + 100, now: () => T });
  for (let i = 0; i < VISITOR_COUNT_LIMIT + 5; i++) log.record(entry({ at: T + i }));
  log.flush();
  const lookup = await log.visitor('cafe');
  assert.equal(lookup.counted && lookup.visitor?.requests, VISITOR_COUNT_LIMIT);
  assert.equal(lookup.counted && lookup.visitor?.last_seen, T + VISITOR_COUNT_LIMIT + 4);
  await log.close();
});

test('a dropped request counts for nobody: the visitor count is what the log recorded', async () => {
  const log = sqliteLog({ file: fresh(), queueLimit: 2, flushEveryMs: 60_000, now: () => T });
  for (let i = 0; i < 4; i++) log.record(entry({ at: T + i }));
  const lookup = await log.visitor('cafe');
  assert.equal(lookup.counted && lookup.visitor?.requests, 2);
  log.close();
});

test('a file of schema version 1 loses its indexes by address hash and by time, and keeps its rows', async () => {
  const file = fresh();
  const db = new Database(file);
  db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1);
    CREATE TABLE hits (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, method TEXT NOT NULL, route TEXT NOT NULL, status INTEGER NOT NULL,
      bytes INTEGER NOT NULL, duration_ms REAL NOT NULL, crawler TEXT, category TEXT, verdict TEXT, address_hash TEXT, user_agent TEXT);
    CREATE INDEX hits_at ON hits (at);
    CREATE INDEX hits_address ON hits (address_hash, at);
    CREATE TABLE daily (day TEXT NOT NULL, route TEXT NOT NULL, status INTEGER NOT NULL, crawler TEXT NOT NULL, category TEXT NOT NULL,
      verdict TEXT NOT NULL, requests INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (day, route, status, crawler, category, verdict)) WITHOUT ROWID;
    INSERT INTO hits (at, method, route, status, bytes, duration_ms, address_hash) VALUES (${T}, 'GET', '/', 200, 10, 1.5, 'cafe');`);
  db.close();
  const log = sqliteLog({ file, now: () => T });
  assert.equal(log.health().state, 'ok');
  assert.deepEqual(
    (await log.hits(0, 10)).hits.map((h) => [h.at, h.address_hash]),
    [[T, 'cafe']],
  );
  log.close();
  const migrated = new Database(file, { readonly: true });
  assert.deepEqual(migrated.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hits' ORDER BY name").all(), []);
  assert.deepEqual(migrated.prepare('SELECT version FROM schema_version').all(), [{ version: SCHEMA_VERSION }]);
  migrated.close();
});

test('a full queue drops and counts instead of waiting', () => {
  const log = sqliteLog({ file: fresh(), queueLimit: 3, flushEveryMs: 60_000, now: () => T });
  // Fewer than a batch, so nothing is written before the explicit flush.
  for (let i = 0; i < 5; i++) log.record(entry());
  assert.equal(log.health().dropped, 2);
  log.flush();
  assert.equal(log.health().written, 3);
  log.close();
});

test('retention removes rows and days older than the window', async () => {
  const file = fresh();
  const first = sqliteLog({ file, now: () => T });
  first.record(entry({ at: T - 40 * DAY }));
  first.record(entry({ at: T - 1 * DAY }));
  first.close();
  // Retention runs when the log opens (and every hour after).
  const later = sqliteLog({ file, retentionDays: 30, now: () => T });
  assert.deepEqual(
    (await later.hits(0, 10)).hits.map((h) => h.at),
    [T - DAY],
  );
  assert.deepEqual(
    (await later.daily('2000-01-01')).map((r) => r.day),
    ['2026-11-24'],
  );
  later.close();
});

test('a file that is not a database, or from a newer server, makes the log unavailable with one line; nothing throws', async () => {
  const garbage = fresh();
  writeFileSync(garbage, 'this is not a SQLite database, just bytes that look nothing like one'.repeat(100));
  const lines: string[] = [];
  const broken = sqliteLog({ file: garbage, log: (line) => lines.push(line) });
  broken.record(entry());
  broken.flush();
  assert.equal(broken.health().state, 'unavailable');
  assert.match(broken.health().reason ?? '', /cannot open/);
  assert.deepEqual(await broken.daily('2026-01-01'), []);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /requests are answered but not recorded/);
  broken.close();

  const newer = fresh();
  const db = new Database(newer);
  db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (${SCHEMA_VERSION + 1});`);
  db.close();
  const future = sqliteLog({ file: newer });
  assert.match(future.health().reason ?? '', /newer than this server's/);
  future.close();
});

test('a missing folder makes the log unavailable, not the server', () => {
  const log = sqliteLog({ file: join(dir, 'no', 'such', 'folder', 'log.db') });
  assert.equal(log.health().state, 'unavailable');
  log.close();
});

/** The daily aggregate as the rows make it, beside the daily table as stored: the two /stats.json could be read from. */
function aggregates(file: string): { fromRows: unknown[]; stored: unknown[] } {
  const db = new Database(file, { readonly: true });
  try {
    const fromRows = db
      .prepare(
        `SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch') AS day, route, status, COALESCE(crawler, '') AS crawler, COALESCE(category, '') AS category,
                COALESCE(verdict, '') AS verdict, COUNT(*) AS requests, SUM(bytes) AS bytes
         FROM hits GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
      )
      .all();
    const stored = db.prepare('SELECT day, route, status, crawler, category, verdict, requests, bytes FROM daily ORDER BY 1, 2, 3, 4, 5, 6').all();
    return { fromRows, stored };
  } finally {
    db.close();
  }
}

/** The file's size as SQLite sees it, its WAL included. */
function pagesBytes(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test('past the size cap the oldest rows go first, the daily aggregate with them, and the file stops growing', async () => {
  const file = fresh();
  const maxBytes = 1024 * 1024;
  const log = sqliteLog({ file, maxBytes, now: () => T });
  const userAgent = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  // Far more rows than fit, over two days, several routes and bookings, in batches as the thread writes them.
  const total = 12_000;
  const sizes: number[] = [];
  for (let i = 0; i < total; i++) {
    log.record(
      entry({
        at: T - DAY + i * 10_000,
        route: i % 3 === 0 ? '/data/agents.json' : '/crawler/{slug}.json',
        status: i % 7 === 0 ? 304 : 200,
        bytes: i % 7 === 0 ? 0 : 100 + (i % 50),
        crawler: i % 2 === 0 ? 'googlebot' : null,
        verdict: i % 2 === 0 ? 'not-genuine' : null,
        address_hash: (i % 97).toString(16).padStart(32, '0'),
        user_agent: `${userAgent} ${i}`,
      }),
    );
    if (i % 500 === 499) {
      log.flush();
      // The thread's turn ends here; removals left for the next turn run now.
      await new Promise((resolve) => setImmediate(resolve));
      sizes.push(pagesBytes(file));
    }
  }
  log.flush();
  const health = log.health();
  assert.equal(health.written, total);
  assert.ok(health.evicted > 0 && health.evicted < total, `${health.evicted} rows evicted`);
  // The newest rows stay, without a gap: the oldest went first.
  const kept: number[] = [];
  let keptBytes = 0;
  for (let cursor = 0; ; ) {
    const page = await log.hits(cursor, 1000);
    kept.push(...page.hits.map((h) => h.id));
    keptBytes += page.hits.reduce((sum, h) => sum + h.bytes, 0);
    if (page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  assert.equal(kept.length, total - health.evicted);
  assert.deepEqual(
    kept,
    Array.from({ length: kept.length }, (_, i) => health.evicted + 1 + i),
  );
  // /stats.json is computed from the daily rows alone: it counts exactly the rows that stay.
  const stats = statsDocument(await log.daily('2000-01-01'), health, '2000-01-01', '2026-11-25T12:00:00Z');
  assert.deepEqual(stats.totals, { requests: kept.length, bytes: keptBytes });
  // Past the cap by at most the batch written since the last removal; free pages are reused after
  // that. A batch is what the file grew by between two readings before the cap was reached (a
  // tenth of this small cap; the SQLite of better-sqlite3 13 lays out a batch a little larger than 12's).
  const firstOver = sizes.findIndex((size) => size > maxBytes);
  assert.ok(firstOver > 1, `the file passed the cap after ${firstOver} readings: ${sizes.join(', ')}`);
  const batch = Math.max(...sizes.slice(1, firstOver).map((size, i) => size - sizes[i]!));
  const largest = Math.max(...sizes);
  assert.ok(largest <= maxBytes + batch, `the file reached ${largest} bytes with a cap of ${maxBytes} and batches of ${batch}`);
  await log.close();
  assert.ok(statSync(file).size <= maxBytes + batch, `${statSync(file).size} bytes on disk once the WAL is written back`);
  const { fromRows, stored } = aggregates(file);
  assert.deepEqual(stored, fromRows);
});

test('retention removes every row older than the window, oldest first in chunks, and keeps the newer ones', async () => {
  const file = fresh();
  const first = sqliteLog({ file, now: () => T });
  // More old rows than one chunk (500) holds, two of them written after a newer one (a clock set back a little).
  for (let i = 0; i < 1_200; i++) first.record(entry({ at: T - 40 * DAY + i }));
  first.record(entry({ at: T - DAY }));
  first.record(entry({ at: T - 40 * DAY + 5_000 }));
  first.record(entry({ at: T - 40 * DAY + 5_001 }));
  for (let i = 0; i < 600; i++) first.record(entry({ at: T - DAY + 1 + i }));
  await first.close();
  const later = sqliteLog({ file, retentionDays: 30, now: () => T });
  const kept = (await later.hits(0, 1_000)).hits.map((h) => h.at);
  assert.equal(kept.length, 601);
  assert.ok(
    kept.every((at) => at >= T - DAY),
    'no row older than the window is kept',
  );
  await later.close();
  const { fromRows, stored } = aggregates(file);
  assert.deepEqual(stored, fromRows);
});

test('retention takes the rows before the cutoff out of the daily aggregate, also part of a day', async () => {
  const file = fresh();
  const first = sqliteLog({ file, now: () => T });
  // 30 days and 2 hours before T, and 29 days 22 hours before: the same UTC day, one each side of the cutoff.
  first.record(entry({ at: T - 30 * DAY - 2 * 3_600_000 }));
  first.record(entry({ at: T - 30 * DAY + 2 * 3_600_000 }));
  first.record(entry({ at: T }));
  await first.close();
  const later = sqliteLog({ file, retentionDays: 30, now: () => T });
  assert.equal((await later.hits(0, 10)).hits.length, 2);
  await later.close();
  const { fromRows, stored } = aggregates(file);
  assert.deepEqual(stored, fromRows);
});

test('each row comes back as written, however many a batch holds; each repeated text is stored once', async () => {
  const file = fresh();
  const log = sqliteLog({ file, now: () => T });
  // More rows than one statement writes (sqlite-log-store.ts) and a remainder, over two days,
  // in runs: each grouped column changes on a period of its own, so that rows alike but for one
  // of them follow each other, and groups come back.
  const run = (i: number, length: number, values: number) => Math.floor(i / length) % values;
  const written = Array.from({ length: 123 }, (_, i) => {
    const crawler = [null, 'gptbot', 'claudebot'][run(i, 11, 3)]!;
    return entry({
      at: T - DAY / 2 + i * 900_000,
      method: i % 9 === 0 ? 'HEAD' : 'GET',
      route: ['/data/agents.json', '/crawler/{slug}.json', '/robots.txt'][run(i, 5, 3)]!,
      status: run(i, 7, 3) === 0 ? 304 : 200,
      bytes: 100 + i,
      duration_ms: i / 8,
      crawler,
      category: crawler === null ? null : ['ai-training', 'ai-assistant'][run(i, 13, 2)]!,
      verdict: crawler === null ? null : run(i, 2, 2) === 0 ? 'not-genuine' : 'genuine',
      address_hash: i % 6 === 0 ? null : `hash-${i % 6}`,
      user_agent: i % 7 === 0 ? null : `agent ${i % 7} ☃`,
    });
  });
  for (const row of written) log.record(row);
  log.flush();
  assert.deepEqual(
    (await log.hits(0, 1000)).hits,
    written.map((row, i) => ({ ...row, id: i + 1 })),
  );
  await log.close();
  const { fromRows, stored } = aggregates(file);
  assert.deepEqual(stored, fromRows);
  assert.equal(new Set(stored.map((row) => (row as { day: string }).day)).size, 2, 'the rows span two days');
  const db = new Database(file, { readonly: true });
  const texts = (db.prepare('SELECT text FROM texts ORDER BY text').all() as { text: string }[]).map((row) => row.text);
  db.close();
  const distinct = new Set(written.flatMap((row) => [row.method, row.route, row.crawler, row.category, row.verdict]).filter((text) => text !== null));
  assert.deepEqual(texts, [...distinct].sort());
});

test('a file of schema version 3 keeps its rows where they are: new rows follow their ids, pages read on across both, removal takes them first', async () => {
  const file = fresh();
  const db = new Database(file);
  const old = (i: number) => `(${i}, ${T - 40 * DAY + i}, 'GET', '/data/agents.json', 200, 10, 1.5, 'gptbot', 'ai-training', 'genuine', 'cafe', 'GPTBot/1.3')`;
  db.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (3);
    CREATE TABLE hits (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, method TEXT NOT NULL, route TEXT NOT NULL, status INTEGER NOT NULL,
      bytes INTEGER NOT NULL, duration_ms REAL NOT NULL, crawler TEXT, category TEXT, verdict TEXT, address_hash TEXT, user_agent TEXT);
    CREATE TABLE daily (day TEXT NOT NULL, route TEXT NOT NULL, status INTEGER NOT NULL, crawler TEXT NOT NULL, category TEXT NOT NULL,
      verdict TEXT NOT NULL, requests INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (day, route, status, crawler, category, verdict)) WITHOUT ROWID;
    INSERT INTO hits VALUES ${[1, 2, 3].map(old).join(', ')};
    INSERT INTO daily VALUES ('${new Date(T - 40 * DAY).toISOString().slice(0, 10)}', '/data/agents.json', 200, 'gptbot', 'ai-training', 'genuine', 3, 30);`);
  db.close();
  // Kept for a year: the older rows stay until something removes them.
  const log = sqliteLog({ file, retentionDays: 365, now: () => T });
  log.record(entry({ at: T }));
  log.record(entry({ at: T + 1, crawler: 'gptbot', category: 'ai-training', verdict: 'genuine', user_agent: 'GPTBot/1.3' }));
  log.flush();
  const first = await log.hits(0, 2);
  assert.deepEqual(
    first.hits.map((h) => [h.id, h.at, h.crawler, h.user_agent]),
    [
      [1, T - 40 * DAY + 1, 'gptbot', 'GPTBot/1.3'],
      [2, T - 40 * DAY + 2, 'gptbot', 'GPTBot/1.3'],
    ],
  );
  const rest = await log.hits(first.next_cursor!, 10);
  assert.deepEqual(
    rest.hits.map((h) => [h.id, h.at, h.crawler, h.user_agent]),
    [
      [3, T - 40 * DAY + 3, 'gptbot', 'GPTBot/1.3'],
      [4, T, null, null],
      [5, T + 1, 'gptbot', 'GPTBot/1.3'],
    ],
  );
  await log.close();
  const raw = new Database(file, { readonly: true });
  const count = (table: string) => (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  assert.deepEqual([count('hits_v3'), count('requests'), count('hits')], [2, 3, 5], 'only the newest older row moved; the view shows all');
  assert.deepEqual(raw.prepare('SELECT version FROM schema_version').all(), [{ version: SCHEMA_VERSION }]);
  raw.close();
  // A window of 30 days: the older rows are removed first, with what they added to the aggregate.
  const later = sqliteLog({ file, retentionDays: 30, now: () => T });
  assert.deepEqual(
    (await later.hits(0, 10)).hits.map((h) => h.id),
    [4, 5],
  );
  later.record(entry({ at: T + 2 }));
  later.flush();
  assert.deepEqual(
    (await later.hits(0, 10)).hits.map((h) => h.id),
    [4, 5, 6],
  );
  await later.close();
  const { fromRows, stored } = aggregates(file);
  assert.deepEqual(stored, fromRows);
  assert.equal(stored.length, 2);
});

test('two servers sharing a file write in turn: every row is kept, ids follow the order of the writes, each text is stored once', async () => {
  const file = fresh();
  const first = sqliteLog({ file, now: () => T });
  const second = sqliteLog({ file, now: () => T });
  first.record(entry({ at: T, route: '/robots.txt' }));
  first.flush();
  // A text the first server has not met, then met by it after the second one stored it.
  second.record(entry({ at: T + 1, crawler: 'gptbot', category: 'ai-training', verdict: 'genuine' }));
  second.record(entry({ at: T + 2 }));
  second.flush();
  first.record(entry({ at: T + 3, crawler: 'gptbot', category: 'ai-training', verdict: 'genuine' }));
  first.flush();
  for (const log of [first, second]) assert.equal(log.health().state, 'ok');
  assert.deepEqual(
    (await second.hits(0, 10)).hits.map((h) => [h.id, h.at, h.crawler]),
    [
      [1, T, null],
      [2, T + 1, 'gptbot'],
      [3, T + 2, null],
      [4, T + 3, 'gptbot'],
    ],
  );
  await first.close();
  await second.close();
  const { fromRows, stored } = aggregates(file);
  assert.deepEqual(stored, fromRows);
  const db = new Database(file, { readonly: true });
  assert.deepEqual(
    (db.prepare('SELECT text FROM texts ORDER BY text').all() as { text: string }[]).map((row) => row.text),
    ['/data/agents.json', '/robots.txt', 'GET', 'ai-training', 'genuine', 'gptbot'],
  );
  db.close();
});
