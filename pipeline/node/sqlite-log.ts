// The Node server's request log: one SQLite file (better-sqlite3, WAL). Requests are queued in
// memory and written in one transaction per batch, off the request path; a full queue drops and
// counts. The oldest rows leave the file past the retention window or the size cap, a few
// hundred at a time, each batch taken out of the daily aggregate in the same transaction. A file
// that cannot be opened, migrated or written turns the log unavailable with one line of
// explanation, and the server goes on serving.

import { Database } from './sqlite-driver.ts';
import { dailyKey, dayOf } from '../log/daily.ts';
import { visitorTally } from '../log/visitor-tally.ts';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_RETENTION_DAYS,
  type DailyRow,
  type HitsPage,
  type LogEntry,
  type LoggedHit,
  type LogHealth,
  type RequestLog,
  type Verdict,
  type VisitorLookup,
} from '../log/types.ts';

export interface SqliteLogOptions {
  file: string;
  retentionDays?: number;
  /** The rows' pages are kept under this many bytes; past it the oldest rows are removed. */
  maxBytes?: number;
  /** A batch is written at the latest this long after its first request (ms); 0: at the next turn of the event loop. */
  flushEveryMs?: number;
  /** Requests waiting to be written; more are dropped and counted. */
  queueLimit?: number;
  log?: (line: string) => void;
  now?: () => number;
}

const BATCH = 512;
const HOUR = 3_600_000;
/** Rows removed per transaction by retention and the size cap (a few milliseconds of work). */
const EVICT_CHUNK = 500;
/**
 * Removal runs in chunks for at most this long per turn of the thread's event loop, so that a
 * batch of new rows never waits behind it longer than this and one chunk (docs/API.md §4.3a).
 */
const EVICT_SLICE_MS = 20;
/** Past the cap, rows are removed until their pages fill this share of it (room for the next batches). */
const CAP_TARGET = 0.9;
/** The WAL is cut back to this size after a checkpoint (SQLite keeps it at its largest otherwise). */
const WAL_LIMIT_BYTES = 4 * 1024 * 1024;

// Each entry takes the schema from the version before it to its own; the server applies the
// missing ones in order, in one transaction each, and records the version it reached.
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE hits (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     method TEXT NOT NULL,
     route TEXT NOT NULL,
     status INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     duration_ms REAL NOT NULL,
     crawler TEXT,
     category TEXT,
     verdict TEXT,
     address_hash TEXT,
     user_agent TEXT
   );
   CREATE INDEX hits_at ON hits (at);
   CREATE INDEX hits_address ON hits (address_hash, at);
   CREATE TABLE daily (
     day TEXT NOT NULL,
     route TEXT NOT NULL,
     status INTEGER NOT NULL,
     crawler TEXT NOT NULL,
     category TEXT NOT NULL,
     verdict TEXT NOT NULL,
     requests INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     PRIMARY KEY (day, route, status, crawler, category, verdict)
   ) WITHOUT ROWID;`,
  // whoami's count of an address comes from memory (log/visitor-tally.ts): an index by hash made
  // each row a write at a random place in the file.
  'DROP INDEX IF EXISTS hits_address;',
  // Retention reads the oldest rows in the order they were written (by id), which is the order
  // of their times: the index by time only made each row a second write (0.6-0.8 µs of the log
  // thread's 5-7 µs a row).
  'DROP INDEX IF EXISTS hits_at;',
];

export const SCHEMA_VERSION = MIGRATIONS.length;

type HitRow = Omit<LoggedHit, 'verdict'> & { verdict: string | null };

export function sqliteLog(options: SqliteLogOptions): RequestLog {
  const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const flushEveryMs = options.flushEveryMs ?? 100;
  const queueLimit = options.queueLimit ?? 10_000;
  const say = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  let queue: LogEntry[] = [];
  const visitors = visitorTally();
  let written = 0;
  let dropped = 0;
  let evicted = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let immediate: ReturnType<typeof setImmediate> | null = null;
  let unavailable: string | null = null;
  let db: Database | null = null;
  let statements: ReturnType<typeof prepare> | null = null;

  const fail = (what: string, error: unknown) => {
    if (unavailable !== null) return;
    unavailable = `${what}: ${(error as Error).message}`;
    say(`log: the request log at ${options.file} is unavailable (${unavailable}); requests are answered but not recorded`);
    queue = [];
  };

  try {
    db = new Database(options.file);
    db.pragma('journal_mode = WAL');
    // WAL with NORMAL loses no committed batch when the process is killed; only a power cut
    // may lose the last few, and neither can corrupt the file.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 1000');
    db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
    migrate(db);
    statements = prepare(db);
  } catch (error) {
    fail('cannot open', error);
  }

  function flush(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (immediate !== null) {
      clearImmediate(immediate);
      immediate = null;
    }
    if (queue.length === 0 || statements === null || unavailable !== null) return;
    const batch = queue;
    queue = [];
    try {
      statements.writeBatch(batch);
      written += batch.length;
      if (statements.overCap(maxBytes)) evictions.start();
    } catch (error) {
      fail('cannot write', error);
    }
  }

  const evictions = evictor(() => {
    if (statements === null || unavailable !== null) return false;
    try {
      // Past the window first, then past the cap; both oldest first, in chunks.
      if (statements.evictBefore(now() - retentionDays * 24 * HOUR, EVICT_CHUNK) > 0) return true;
      const removed = statements.evictOverCap(maxBytes * CAP_TARGET, EVICT_CHUNK);
      evicted += removed;
      return removed > 0;
    } catch (error) {
      fail('cannot remove old rows', error);
      return false;
    }
  });
  const retention = setInterval(evictions.start, HOUR);
  retention.unref();
  evictions.start();

  return {
    record(entry) {
      if (unavailable !== null || statements === null) return;
      if (queue.length >= queueLimit) {
        dropped++;
        return;
      }
      queue.push(entry);
      // Counted as it is queued: a caller seen a moment ago was seen, whether or not its batch is written.
      visitors.add(entry);
      if (flushEveryMs === 0 || queue.length >= BATCH) {
        if (immediate === null) immediate = setImmediate(flush);
      } else if (timer === null) {
        timer = setTimeout(flush, flushEveryMs);
        timer.unref();
      }
    },
    async daily(since) {
      if (statements === null || unavailable !== null) return [];
      return statements.daily.all(since).map((row) => ({
        ...row,
        crawler: row.crawler === '' ? null : row.crawler,
        category: row.category === '' ? null : row.category,
        verdict: row.verdict === '' ? null : (row.verdict as Verdict),
      }));
    },
    async hits(cursor, limit): Promise<HitsPage> {
      if (statements === null || unavailable !== null) return { hits: [], next_cursor: null };
      const rows = statements.hits.all(cursor, limit + 1);
      const page = rows.slice(0, limit).map((row) => ({ ...row, verdict: row.verdict as Verdict | null }));
      const last = page[page.length - 1];
      return { hits: page, next_cursor: rows.length > limit && last !== undefined ? last.id : null };
    },
    async visitor(addressHash): Promise<VisitorLookup> {
      if (statements === null || unavailable !== null) return { counted: true, visitor: null };
      return visitors.lookup(addressHash, now());
    },
    health(): LogHealth {
      return {
        state: unavailable === null ? 'ok' : 'unavailable',
        reason: unavailable,
        written,
        dropped,
        evicted,
        retention_days: retentionDays,
        max_bytes: maxBytes,
      };
    },
    flush,
    async close() {
      flush();
      clearInterval(retention);
      evictions.stop();
      try {
        db?.close();
      } catch {
        // Closing a file that failed is no news.
      }
      statements = null;
    },
  };
}

/**
 * Runs `step` (one chunk, true while there is more) for at most EVICT_SLICE_MS per turn of the
 * event loop, then yields, so that the batches written meanwhile never wait long behind it.
 */
function evictor(step: () => boolean) {
  let pending: ReturnType<typeof setImmediate> | null = null;
  let stopped = false;
  const slice = () => {
    pending = null;
    const started = performance.now();
    while (step()) {
      if (stopped) return;
      if (performance.now() - started >= EVICT_SLICE_MS) {
        pending = setImmediate(slice);
        return;
      }
    }
  };
  return {
    /** Starts a run now unless one is under way (the first slice runs at once). */
    start() {
      if (pending === null && !stopped) slice();
    },
    stop() {
      stopped = true;
      if (pending !== null) clearImmediate(pending);
      pending = null;
    },
  };
}

/** dayOf for a batch's times, which nearly all fall in one UTC day: the date is formatted once per day met. */
function dayCache() {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let day = '';
  return {
    of(at: number): string {
      if (at < start || at >= end) {
        day = dayOf(at);
        start = Date.parse(`${day}T00:00:00Z`);
        end = start + 24 * HOUR;
      }
      return day;
    },
  };
}

function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > MIGRATIONS.length) throw new Error(`the file has schema version ${current}, newer than this server's ${MIGRATIONS.length}`);
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.exec('DELETE FROM schema_version');
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(version + 1);
    })();
  }
}

function prepare(db: Database) {
  // Positional, not named: binding by name costs a quarter of each row's write (measured on this log's rows).
  const insertHit = db.prepare(
    `INSERT INTO hits (at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addDaily = db.prepare(
    `INSERT INTO daily (day, route, status, crawler, category, verdict, requests, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (day, route, status, crawler, category, verdict) DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes`,
  );
  // The rows a removal takes, and what they added to the daily aggregate: the same rows leave
  // both tables in one transaction, so /stats.json always sums what the rows hold.
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS leaving (id INTEGER PRIMARY KEY);
           CREATE TEMP TABLE IF NOT EXISTS leaving_daily (day TEXT, route TEXT, status INTEGER, crawler TEXT, category TEXT, verdict TEXT, requests INTEGER, bytes INTEGER)`);
  const clearLeaving = db.prepare('DELETE FROM leaving');
  // Of the `limit` oldest rows, those before the cutoff: a bounded read of the table's first
  // pages, never a scan of the whole file. Rows are written in the order they were answered, so a
  // row before the cutoff is among the oldest unless the clock was set back past it; it then
  // leaves with the rows written before it, at a later hour's run.
  const chooseBefore = db.prepare('INSERT INTO leaving SELECT id FROM (SELECT id, at FROM hits ORDER BY id LIMIT ?) WHERE at < ?');
  const chooseOldest = db.prepare('INSERT INTO leaving SELECT id FROM hits ORDER BY id LIMIT ?');
  const removeLeaving = [
    db.prepare('DELETE FROM leaving_daily'),
    db.prepare(
      `INSERT INTO leaving_daily
       SELECT strftime('%Y-%m-%d', at / 1000, 'unixepoch'), route, status, COALESCE(crawler, ''), COALESCE(category, ''), COALESCE(verdict, ''), COUNT(*), SUM(bytes)
       FROM hits WHERE id IN (SELECT id FROM leaving) GROUP BY 1, 2, 3, 4, 5, 6`,
    ),
    db.prepare(
      `UPDATE daily SET requests = daily.requests - g.requests, bytes = daily.bytes - g.bytes FROM leaving_daily AS g
       WHERE daily.day = g.day AND daily.route = g.route AND daily.status = g.status AND daily.crawler = g.crawler AND daily.category = g.category AND daily.verdict = g.verdict`,
    ),
    db.prepare(
      `DELETE FROM daily WHERE requests <= 0
       AND (day, route, status, crawler, category, verdict) IN (SELECT day, route, status, crawler, category, verdict FROM leaving_daily)`,
    ),
    db.prepare('DELETE FROM hits WHERE id IN (SELECT id FROM leaving)'),
  ];
  // Days wholly before the window; their rows left with retention. Also clears the days an older
  // server's retention left behind when it removed rows by time and days by date.
  const pruneDaily = db.prepare('DELETE FROM daily WHERE day < ?');
  const usedBytes = db.prepare<[], { used: number }>(
    'SELECT (page_count - freelist_count) * page_size AS used FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()',
  );
  const used = () => usedBytes.get()?.used ?? 0;
  /** Removes the rows `choose` puts in `leaving`; returns how many. */
  const evict = db.transaction((choose: () => number): number => {
    clearLeaving.run();
    const count = choose();
    if (count > 0) for (const statement of removeLeaving) statement.run();
    return count;
  });

  return {
    /** Removes those of the `limit` oldest rows that are older than `cutoff` (ms); 0 when none of them is. */
    evictBefore(cutoff: number, limit: number): number {
      const removed = evict(() => chooseBefore.run(limit, cutoff).changes);
      if (removed === 0) pruneDaily.run(dayOf(cutoff));
      return removed;
    },
    /** Removes up to `limit` of the oldest rows if their pages take more than `bytes`; 0 when under. */
    evictOverCap(bytes: number, limit: number): number {
      return used() > bytes ? evict(() => chooseOldest.run(limit).changes) : 0;
    },
    overCap: (bytes: number) => used() > bytes,
    writeBatch: db.transaction((batch: readonly LogEntry[]) => {
      // A batch is mostly the same few documents: one daily upsert per group, not per request.
      const groups = new Map<string, DailyRow>();
      const days = dayCache();
      for (const entry of batch) {
        const { at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent } = entry;
        insertHit.run(at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent);
        const day = days.of(at);
        const key = dailyKey({ day, route, status, crawler, category, verdict });
        let group = groups.get(key);
        if (group === undefined) {
          group = { day, route, status, crawler, category, verdict, requests: 0, bytes: 0 };
          groups.set(key, group);
        }
        group.requests++;
        group.bytes += bytes;
      }
      for (const g of groups.values()) addDaily.run(g.day, g.route, g.status, g.crawler ?? '', g.category ?? '', g.verdict ?? '', g.requests, g.bytes);
    }),
    daily: db.prepare<[string], Omit<DailyRow, 'crawler' | 'category' | 'verdict'> & { crawler: string; category: string; verdict: string }>(
      'SELECT day, route, status, crawler, category, verdict, requests, bytes FROM daily WHERE day >= ? ORDER BY day, route, status, crawler, category, verdict',
    ),
    hits: db.prepare<[number, number], HitRow>(
      'SELECT id, at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent FROM hits WHERE id > ? ORDER BY id LIMIT ?',
    ),
  };
}
