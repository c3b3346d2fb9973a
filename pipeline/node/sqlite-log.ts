// The Node server's request log: one SQLite file (better-sqlite3, WAL). Requests are queued in
// memory and written in one transaction per batch, off the request path; a full queue drops and
// counts. The oldest rows leave the file past the retention window or the size cap, a few
// hundred at a time, each batch taken out of the daily aggregate in the same transaction (the
// schema: sqlite-log-schema.ts; the statements: sqlite-log-store.ts). A file
// that cannot be opened, migrated or written turns the log unavailable with one line of
// explanation, and the server goes on serving.

import { Database } from './sqlite-driver.ts';
import { migrate } from './sqlite-log-schema.ts';
import { type LogStore, logStore } from './sqlite-log-store.ts';
import { visitorTally } from '../log/visitor-tally.ts';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_RETENTION_DAYS,
  type HitsPage,
  type LogEntry,
  type LogHealth,
  type RequestLog,
  type Verdict,
  type VisitorLookup,
} from '../log/types.ts';

export { SCHEMA_VERSION } from './sqlite-log-schema.ts';

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
  let statements: LogStore | null = null;

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
    statements = logStore(db);
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
      return statements.daily(since).map((row) => ({
        ...row,
        crawler: row.crawler === '' ? null : row.crawler,
        category: row.category === '' ? null : row.category,
        verdict: row.verdict === '' ? null : (row.verdict as Verdict),
      }));
    },
    async hits(cursor, limit): Promise<HitsPage> {
      if (statements === null || unavailable !== null) return { hits: [], next_cursor: null };
      const rows = statements.hits(cursor, limit + 1);
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
