// A request log in memory, for tests of what reads the log: the same answers as the SQLite log
// (pipeline/node/sqlite-log.ts), from the same daily rows.

import { dayOf } from '../../pipeline/log/daily.ts';
import {
  DEFAULT_RETENTION_DAYS,
  type DailyRow,
  type HitsPage,
  type LogEntry,
  type LoggedHit,
  type LogHealth,
  type RequestLog,
  type VisitorLookup,
} from '../../pipeline/log/types.ts';
import { visitorTally } from '../../pipeline/log/visitor-tally.ts';

/** The columns a daily row is grouped by, as one key. */
function dailyKey(row: Omit<DailyRow, 'requests' | 'bytes'>): string {
  return `${row.day}\u0000${row.route}\u0000${row.status}\u0000${row.crawler ?? ''}\u0000${row.category ?? ''}\u0000${row.verdict ?? ''}`;
}

export function memoryLog(options: { capacity?: number; retentionDays?: number } = {}): RequestLog {
  const capacity = options.capacity ?? 50_000;
  const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  const hits: LoggedHit[] = [];
  const daily = new Map<string, DailyRow>();
  const visitors = visitorTally();
  let nextId = 1;
  let written = 0;
  let evicted = 0;
  /** Adds one request to its daily row (`sign` -1 takes it out again). */
  const count = (entry: LogEntry, sign: 1 | -1) => {
    const row = { day: dayOf(entry.at), route: entry.route, status: entry.status, crawler: entry.crawler, category: entry.category, verdict: entry.verdict };
    const key = dailyKey(row);
    const current = daily.get(key) ?? { ...row, requests: 0, bytes: 0 };
    const next = { ...current, requests: current.requests + sign, bytes: current.bytes + sign * entry.bytes };
    if (next.requests === 0) daily.delete(key);
    else daily.set(key, next);
  };
  return {
    record(entry: LogEntry) {
      // The oldest row goes first, as retention would take it, and leaves the aggregate with it.
      const oldest = hits.length >= capacity ? hits.shift() : undefined;
      if (oldest !== undefined) {
        count(oldest, -1);
        evicted++;
      }
      hits.push({ ...entry, id: nextId++ });
      written++;
      count(entry, 1);
      visitors.add(entry);
    },
    daily: async (since: string) => [...daily.values()].filter((r) => r.day >= since),
    async hits(cursor: number, limit: number): Promise<HitsPage> {
      const page = hits.filter((h) => h.id > cursor).slice(0, limit);
      const last = page[page.length - 1];
      return { hits: page, next_cursor: last !== undefined && last.id < nextId - 1 ? last.id : null };
    },
    async visitor(addressHash: string): Promise<VisitorLookup> {
      return visitors.lookup(addressHash, Date.now());
    },
    // Nothing is queued, so nothing is dropped: a full log forgets its oldest row instead.
    health: (): LogHealth => ({ state: 'ok', reason: null, written, dropped: 0, evicted, retention_days: retentionDays, max_bytes: 0 }),
    flush() {},
    close: async () => {},
  };
}
