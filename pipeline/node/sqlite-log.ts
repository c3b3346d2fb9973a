// The Node server's request log: one SQLite file (better-sqlite3, WAL). Requests are queued in
// memory and written in one transaction per batch, off the request path; a full queue drops and
// counts. A file that cannot be opened, migrated or written turns the log unavailable with one
// line of explanation, and the server goes on serving.

import { Database } from './sqlite-driver.ts';
import { dailyKey, dayOf } from '../log/daily.ts';
import {
  DEFAULT_RETENTION_DAYS,
  type DailyRow,
  type HitsPage,
  type LogEntry,
  type LoggedHit,
  type LogHealth,
  type RequestLog,
  type Verdict,
  type Visitor,
} from '../log/types.ts';

export interface SqliteLogOptions {
  file: string;
  retentionDays?: number;
  /** A batch is written at the latest this long after its first request (ms). */
  flushEveryMs?: number;
  /** Requests waiting to be written; more are dropped and counted. */
  queueLimit?: number;
  log?: (line: string) => void;
  now?: () => number;
}

const BATCH = 512;
const RETENTION_CHUNK = 5_000;
const HOUR = 3_600_000;
/** A visitor's requests are counted up to this many. */
export const VISITOR_COUNT_LIMIT = 10_000;

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
];

export const SCHEMA_VERSION = MIGRATIONS.length;

type HitRow = Omit<LoggedHit, 'verdict'> & { verdict: string | null };

export function sqliteLog(options: SqliteLogOptions): RequestLog {
  const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  const flushEveryMs = options.flushEveryMs ?? 100;
  const queueLimit = options.queueLimit ?? 10_000;
  const say = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  let queue: LogEntry[] = [];
  let written = 0;
  let dropped = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
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
    if (queue.length === 0 || statements === null || unavailable !== null) return;
    const batch = queue;
    queue = [];
    try {
      statements.writeBatch(batch);
      written += batch.length;
    } catch (error) {
      fail('cannot write', error);
    }
  }

  function pruneOld(): void {
    if (statements === null || unavailable !== null) return;
    try {
      const cutoff = now() - retentionDays * 24 * HOUR;
      // In chunks, so that a month of backlog never holds the event loop in one go.
      let removed: number;
      do removed = statements.pruneHits.run(cutoff, RETENTION_CHUNK).changes;
      while (removed === RETENTION_CHUNK);
      statements.pruneDaily.run(dayOf(cutoff));
    } catch (error) {
      fail('cannot apply retention', error);
    }
  }
  const retention = setInterval(pruneOld, HOUR);
  retention.unref();
  pruneOld();

  return {
    record(entry) {
      if (unavailable !== null || statements === null) return;
      if (queue.length >= queueLimit) {
        dropped++;
        return;
      }
      queue.push(entry);
      if (queue.length >= BATCH) setImmediate(flush);
      else if (timer === null) {
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
    async visitor(addressHash): Promise<Visitor | null> {
      if (statements === null || unavailable !== null) return null;
      const row = statements.visitor.get(addressHash, VISITOR_COUNT_LIMIT, addressHash, addressHash, addressHash, addressHash);
      const stored: Visitor | null =
        row === undefined || row.requests === 0 || row.first_seen === null || row.last_seen === null
          ? null
          : { requests: row.requests, first_seen: row.first_seen, last_seen: row.last_seen, crawler: row.crawler, verdict: row.verdict as Verdict | null };
      // Requests still waiting for their batch count too: a caller seen a moment ago was seen.
      return withPending(stored, queue, addressHash);
    },
    health(): LogHealth {
      return { state: unavailable === null ? 'ok' : 'unavailable', reason: unavailable, written, dropped, retention_days: retentionDays };
    },
    flush,
    async close() {
      flush();
      clearInterval(retention);
      try {
        db?.close();
      } catch {
        // Closing a file that failed is no news.
      }
      statements = null;
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
  const insertHit = db.prepare(
    `INSERT INTO hits (at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent)
     VALUES (@at, @method, @route, @status, @bytes, @duration_ms, @crawler, @category, @verdict, @address_hash, @user_agent)`,
  );
  const addDaily = db.prepare(
    `INSERT INTO daily (day, route, status, crawler, category, verdict, requests, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (day, route, status, crawler, category, verdict) DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes`,
  );
  return {
    writeBatch: db.transaction((batch: readonly LogEntry[]) => {
      // A batch is mostly the same few documents: one daily upsert per group, not per request.
      const groups = new Map<string, DailyRow>();
      for (const entry of batch) {
        insertHit.run(entry);
        const row = {
          day: dayOf(entry.at),
          route: entry.route,
          status: entry.status,
          crawler: entry.crawler,
          category: entry.category,
          verdict: entry.verdict,
        };
        const key = dailyKey(row);
        const group = groups.get(key) ?? { ...row, requests: 0, bytes: 0 };
        group.requests++;
        group.bytes += entry.bytes;
        groups.set(key, group);
      }
      for (const g of groups.values()) addDaily.run(g.day, g.route, g.status, g.crawler ?? '', g.category ?? '', g.verdict ?? '', g.requests, g.bytes);
    }),
    pruneHits: db.prepare('DELETE FROM hits WHERE id IN (SELECT id FROM hits WHERE at < ? ORDER BY id LIMIT ?)'),
    pruneDaily: db.prepare('DELETE FROM daily WHERE day < ?'),
    daily: db.prepare<[string], Omit<DailyRow, 'crawler' | 'category' | 'verdict'> & { crawler: string; category: string; verdict: string }>(
      'SELECT day, route, status, crawler, category, verdict, requests, bytes FROM daily WHERE day >= ? ORDER BY day, route, status, crawler, category, verdict',
    ),
    hits: db.prepare<[number, number], HitRow>(
      'SELECT id, at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent FROM hits WHERE id > ? ORDER BY id LIMIT ?',
    ),
    // Index seeks only, and the count stops at VISITOR_COUNT_LIMIT: a caller with a million rows
    // costs what one with ten thousand does.
    visitor: db.prepare<
      [string, number, string, string, string, string],
      { requests: number; first_seen: number | null; last_seen: number | null; crawler: string | null; verdict: string | null }
    >(
      `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM hits WHERE address_hash = ? LIMIT ?)) AS requests,
              (SELECT at FROM hits WHERE address_hash = ? ORDER BY at LIMIT 1) AS first_seen,
              (SELECT at FROM hits WHERE address_hash = ? ORDER BY at DESC LIMIT 1) AS last_seen,
              (SELECT crawler FROM hits WHERE address_hash = ? ORDER BY at DESC LIMIT 1) AS crawler,
              (SELECT verdict FROM hits WHERE address_hash = ? ORDER BY at DESC LIMIT 1) AS verdict`,
    ),
  };
}

function withPending(stored: Visitor | null, queue: readonly LogEntry[], addressHash: string): Visitor | null {
  let visitor = stored;
  for (const entry of queue) {
    if (entry.address_hash !== addressHash) continue;
    visitor =
      visitor === null
        ? { requests: 1, first_seen: entry.at, last_seen: entry.at, crawler: entry.crawler, verdict: entry.verdict }
        : {
            requests: Math.min(VISITOR_COUNT_LIMIT, visitor.requests + 1),
            first_seen: visitor.first_seen,
            last_seen: entry.at,
            crawler: entry.crawler,
            verdict: entry.verdict,
          };
  }
  return visitor;
}
