import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { logEntry as entry, LOG_TIME } from '../../test/support/log-entry.ts';
import { Database } from './sqlite-driver.ts';
import { SCHEMA_VERSION, sqliteLog, VISITOR_COUNT_LIMIT } from './sqlite-log.ts';

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
  assert.deepEqual(log.health(), { state: 'ok', reason: null, written: 3, dropped: 0, retention_days: 30 });
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
  assert.deepEqual(await log.visitor('cafe'), { requests: 3, first_seen: T, last_seen: T + 9, crawler: 'claudebot', verdict: 'not-genuine' });
  assert.equal(await log.visitor('bbbb'), null);
  await log.close();
});

test("a visitor's requests are counted up to the limit, however many there are", async () => {
  const log = sqliteLog({ file: fresh(), queueLimit: VISITOR_COUNT_LIMIT + 100, now: () => T });
  for (let i = 0; i < VISITOR_COUNT_LIMIT + 5; i++) log.record(entry({ at: T + i }));
  log.flush();
  const visitor = await log.visitor('cafe');
  assert.equal(visitor?.requests, VISITOR_COUNT_LIMIT);
  assert.equal(visitor?.last_seen, T + VISITOR_COUNT_LIMIT + 4);
  await log.close();
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
