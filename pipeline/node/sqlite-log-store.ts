// The request log file's statements: a batch of rows written in one transaction, the oldest rows
// removed (with what they added to the daily aggregate), and the reads.
// The schema is sqlite-log-schema.ts; when and how much is written or removed, sqlite-log.ts.

import { dayOf } from '../log/daily.ts';
import type { DailyRow, LogEntry, LoggedHit } from '../log/types.ts';
import type { Database } from './sqlite-driver.ts';
import { HIT_COLUMNS } from './sqlite-log-schema.ts';
import { logTextIds } from './sqlite-log-texts.ts';

const DAY = 86_400_000;
/**
 * Rows given to one INSERT statement. Each statement run costs as much again as the row it
 * writes: 50 rows to a statement took a row 1.7-2.3 µs against 2.5-3.7 µs one at a time (this
 * log's rows, their texts as numbers, by hand on a 2-core machine).
 */
const ROWS_PER_INSERT = 50;
/** The columns of `requests` a row gives, in the order its values are bound. */
const ROW_COLUMNS = 'at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent';
const COLUMNS = ROW_COLUMNS.split(', ').length;

type HitRow = Omit<LoggedHit, 'verdict'> & { verdict: string | null };
type StoredDailyRow = Omit<DailyRow, 'crawler' | 'category' | 'verdict'> & { crawler: string; category: string; verdict: string };

export interface LogStore {
  writeBatch(batch: readonly LogEntry[]): void;
  /** Removes those of the `limit` oldest rows that are older than `cutoff` (ms); 0 when none of them is. */
  evictBefore(cutoff: number, limit: number): number;
  /** Removes up to `limit` of the oldest rows if the file's pages take more than `bytes`; 0 when under. */
  evictOverCap(bytes: number, limit: number): number;
  overCap(bytes: number): boolean;
  /** Daily rows from `since` (YYYY-MM-DD) on, with '' for an empty crawler, category or verdict. */
  daily(since: string): StoredDailyRow[];
  /** Up to `limit` rows after the id `cursor`, oldest first. */
  hits(cursor: number, limit: number): HitRow[];
}

export function logStore(db: Database): LogStore {
  const texts = logTextIds(db);
  // Positional, not named: binding by name costs a quarter of each row's write (measured on this
  // log's rows). SQLite gives each row the id after the largest in the table, which continues
  // the ids of an older version's rows (sqlite-log-schema.ts), also when two servers share the file.
  const insertRows = (count: number) =>
    db.prepare(
      `INSERT INTO requests (${ROW_COLUMNS}) VALUES ${Array(count)
        .fill(`(${Array(COLUMNS).fill('?').join(', ')})`)
        .join(', ')}`,
    );
  const insertMany = insertRows(ROWS_PER_INSERT);
  const insertOne = insertRows(1);
  const many: unknown[] = new Array(ROWS_PER_INSERT * COLUMNS);
  const one: unknown[] = new Array(COLUMNS);
  const addDaily = db.prepare(
    `INSERT INTO daily (day, route, status, crawler, category, verdict, requests, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (day, route, status, crawler, category, verdict) DO UPDATE SET requests = requests + excluded.requests, bytes = bytes + excluded.bytes`,
  );
  // The rows a removal takes, and what they added to the daily aggregate: the same rows leave
  // their table and the aggregate in one transaction, so /stats.json always sums what the rows hold.
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS leaving (id INTEGER PRIMARY KEY);
           CREATE TEMP TABLE IF NOT EXISTS leaving_daily (day TEXT, route TEXT, status INTEGER, crawler TEXT, category TEXT, verdict TEXT, requests INTEGER, bytes INTEGER)`);
  const clearLeaving = db.prepare('DELETE FROM leaving');
  // Of the `limit` oldest rows, those before the cutoff: a bounded read of each table's first
  // pages, never a scan of the whole file. Rows are written in the order they were answered, so
  // a row before the cutoff is among the oldest unless the clock was set back past it; it then
  // leaves with the rows written before it, at a later hour's run. Every row of `hits_v3` is
  // older than every row of `requests`.
  // better-sqlite3 binds positional parameters only, so the limit is given once per table and once for both.
  const OLDEST = `SELECT id, at FROM (SELECT id, at FROM hits_v3 ORDER BY id LIMIT ?)
                  UNION ALL SELECT id, at FROM (SELECT id, at FROM requests ORDER BY id LIMIT ?)
                  ORDER BY id LIMIT ?`;
  const chooseBefore = db.prepare(`INSERT INTO leaving SELECT id FROM (${OLDEST}) WHERE at < ?`);
  const chooseOldest = db.prepare(`INSERT INTO leaving SELECT id FROM (${OLDEST})`);
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
    db.prepare('DELETE FROM hits_v3 WHERE id IN (SELECT id FROM leaving)'),
    db.prepare('DELETE FROM requests WHERE id IN (SELECT id FROM leaving)'),
  ];
  // Days wholly before the window; their rows left with retention. Also clears the days an older
  // server's retention left behind when it removed rows by time and days by date.
  const pruneDaily = db.prepare('DELETE FROM daily WHERE day < ?');
  const usedBytes = db.prepare<[], { used: number }>(
    'SELECT (page_count - freelist_count) * page_size AS used FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()',
  );
  const used = () => usedBytes.get()?.used ?? 0;
  /** Removes the rows `choose` puts in `leaving`; returns how many. Run `.immediate`, as writes are: the lock first, then what it reads. */
  const evict = db.transaction((choose: () => number): number => {
    clearLeaving.run();
    const count = choose();
    if (count > 0) for (const statement of removeLeaving) statement.run();
    return count;
  });

  const write = db.transaction((batch: readonly LogEntry[]) => {
    // A batch is mostly the same few documents: one daily upsert per group, not per request.
    // A group is found by its texts' numbers, and a row like the one before it (most are) finds
    // the same group without a lookup: a key spelled out of the texts for each row took a
    // quarter of the thread's time per row.
    const groups = new Map<string, DailyRow>();
    const days = dayCache();
    let filled = 0;
    let group: DailyRow | undefined;
    let groupIds: readonly (number | null)[] = [];
    let groupDay = '';
    for (const entry of batch) {
      const { at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent } = entry;
      const routeId = texts.idOf(route);
      const crawlerId = texts.idOf(crawler);
      const categoryId = texts.idOf(category);
      const verdictId = texts.idOf(verdict);
      let p = filled * COLUMNS;
      many[p++] = at;
      many[p++] = texts.idOf(method);
      many[p++] = routeId;
      many[p++] = status;
      many[p++] = bytes;
      many[p++] = duration_ms;
      many[p++] = crawlerId;
      many[p++] = categoryId;
      many[p++] = verdictId;
      many[p++] = address_hash;
      many[p] = user_agent;
      if (++filled === ROWS_PER_INSERT) {
        insertMany.run(many);
        filled = 0;
      }
      const day = days.of(at);
      if (
        group === undefined ||
        day !== groupDay ||
        routeId !== groupIds[0] ||
        status !== groupIds[1] ||
        crawlerId !== groupIds[2] ||
        categoryId !== groupIds[3] ||
        verdictId !== groupIds[4]
      ) {
        groupIds = [routeId, status, crawlerId, categoryId, verdictId];
        groupDay = day;
        const key = `${day} ${groupIds.join(' ')}`;
        group = groups.get(key);
        if (group === undefined) {
          group = { day, route, status, crawler, category, verdict, requests: 0, bytes: 0 };
          groups.set(key, group);
        }
      }
      group.requests++;
      group.bytes += bytes;
    }
    for (let row = 0; row < filled; row++) {
      for (let column = 0; column < COLUMNS; column++) one[column] = many[row * COLUMNS + column];
      insertOne.run(one);
    }
    for (const g of groups.values()) addDaily.run(g.day, g.route, g.status, g.crawler ?? '', g.category ?? '', g.verdict ?? '', g.requests, g.bytes);
  });

  const daily = db.prepare<[string], StoredDailyRow>(
    'SELECT day, route, status, crawler, category, verdict, requests, bytes FROM daily WHERE day >= ? ORDER BY day, route, status, crawler, category, verdict',
  );
  const hits = db.prepare<[number, number], HitRow>(`SELECT ${HIT_COLUMNS} FROM hits WHERE id > ? ORDER BY id LIMIT ?`);

  return {
    writeBatch(batch) {
      try {
        // The write lock is taken first: a text looked up in the batch is then not added meanwhile by another server sharing the file.
        write.immediate(batch);
      } catch (error) {
        // Nothing of the batch was committed: numbers given to texts it added mean nothing.
        texts.reset();
        throw error;
      }
    },
    evictBefore(cutoff, limit) {
      const removed = evict.immediate(() => chooseBefore.run(limit, limit, limit, cutoff).changes);
      if (removed === 0) pruneDaily.run(dayOf(cutoff));
      return removed;
    },
    evictOverCap(bytes, limit) {
      return used() > bytes ? evict.immediate(() => chooseOldest.run(limit, limit, limit).changes) : 0;
    },
    overCap: (bytes) => used() > bytes,
    daily: (since) => daily.all(since),
    hits: (cursor, limit) => hits.all(cursor, limit),
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
        end = start + DAY;
      }
      return day;
    },
  };
}
