// The request log as every runtime sees it: a small interface, so that the Node server's SQLite
// file and any other store (an edge runtime has no SQLite) stand behind the same answers.

/**
 * What the address of a request that named a crawler shows: genuine (in the crawler's own
 * published or listed addresses), operator-network (in its operator's network, which is all an
 * asn claim can show), not-genuine (the crawler is checked by address and this one fails),
 * unverifiable (the crawler offers no address check: reverse DNS, a signature, or nothing; or a
 * list it is checked by has no current copy here, docs/API.md §6.4).
 */
export type Verdict = 'genuine' | 'operator-network' | 'not-genuine' | 'unverifiable';

export const VERDICTS: readonly Verdict[] = ['genuine', 'operator-network', 'not-genuine', 'unverifiable'];

/** One request, as the log keeps it: never the raw address, never the query string. */
export interface LogEntry {
  /** Milliseconds since the epoch. */
  at: number;
  method: string;
  /** The route's path template (`/crawler/{slug}.json`), `(none)` for a path no route names. */
  route: string;
  status: number;
  /** Body bytes of the answer (0 for a 304 or a HEAD). */
  bytes: number;
  duration_ms: number;
  /** The crawler the User-Agent names, or null. */
  crawler: string | null;
  category: string | null;
  verdict: Verdict | null;
  /** A salted hash of the address (the salt changes every UTC day and is never stored). */
  address_hash: string | null;
  /** The User-Agent, cut to USER_AGENT_LIMIT characters. */
  user_agent: string | null;
}

export const USER_AGENT_LIMIT = 256;

/**
 * An answered request as the server hands it to the log, before it is booked. The log's thread
 * books it (the crawler its User-Agent names and what its address shows, tools/booking.ts) with
 * the tools' data of the build being served, so the server's own thread never builds that data
 * (docs/API.md §4.3a).
 */
export interface AnsweredEntry extends Omit<LogEntry, 'crawler' | 'category' | 'verdict' | 'user_agent'> {
  /** The address the request came from, for booking only: it stays in memory, the file keeps its hash. */
  address: string | null;
  /** The User-Agent as sent: booking reads all of it; the file keeps USER_AGENT_LIMIT characters. */
  user_agent: string | null;
}

/** Days of requests a log keeps unless the server is told otherwise (--log-retention-days). */
export const DEFAULT_RETENTION_DAYS = 30;

/** The request log's size cap unless the server is told otherwise (--log-max-mb): 1 GiB. */
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;

/** Requests of one day that share every other column: what /stats.json is computed from. */
export interface DailyRow {
  day: string;
  route: string;
  status: number;
  crawler: string | null;
  category: string | null;
  verdict: Verdict | null;
  requests: number;
  bytes: number;
}

export interface LoggedHit extends LogEntry {
  id: number;
}

export interface HitsPage {
  hits: LoggedHit[];
  /** Pass as `cursor` for the next page; null when this page reached the newest row. */
  next_cursor: number | null;
}

/** What the log knows about one address hash (today's salt). */
export interface Visitor {
  requests: number;
  first_seen: number;
  last_seen: number;
  /** The booking of the latest request: the crawler it named and what its address showed. */
  crawler: string | null;
  verdict: Verdict | null;
}

/**
 * What the log can say of one address hash: its requests today (null: none), or why it did not
 * count them (more distinct addresses today than it counts, log/visitor-tally.ts).
 */
export type VisitorLookup = { counted: true; visitor: Visitor | null } | { counted: false; reason: string };

export interface LogHealth {
  state: 'ok' | 'unavailable' | 'off';
  /** Why the log is unavailable or off; null when it works. */
  reason: string | null;
  /** Rows written since the server started. */
  written: number;
  /** Rows dropped since the server started because the write queue was full. */
  dropped: number;
  /** Rows removed since the server started, oldest first, to keep the log under its cap (max_bytes). */
  evicted: number;
  retention_days: number;
  /** The size cap of the log's file in bytes; 0 when it has none (no log, or a log in memory capped by rows). */
  max_bytes: number;
}

/**
 * The reads (daily, hits, visitor) answer empty when the log is off or unavailable, and reject
 * with a LogBusy when the store is there but did not answer in time: a caller then says so
 * rather than showing an empty log as if it were one.
 */
export interface RequestLog {
  /** Queues one request; never throws and never waits: a full queue drops and counts. */
  record(entry: LogEntry): void;
  /** Daily aggregates from `since` (YYYY-MM-DD) on. */
  daily(since: string): Promise<DailyRow[]>;
  /** Rows after `cursor` (an id), oldest first. */
  hits(cursor: number, limit: number): Promise<HitsPage>;
  /** What today's rows say of an address hash (the salt of today, log/salt.ts). */
  visitor(addressHash: string): Promise<VisitorLookup>;
  health(): LogHealth;
  /** Writes what is queued now. */
  flush(): void;
  /** Writes what is queued and releases the store; resolves once it is written. */
  close(): Promise<void>;
}

/** What the service's answers read of a log (/stats.json, /hits.json, whoami). */
export type LogReader = Pick<RequestLog, 'daily' | 'hits' | 'visitor' | 'health'>;

/** The log of a server started with --no-log: records nothing and says so. */
export const NO_LOG: RequestLog = {
  record() {},
  daily: async () => [],
  hits: async () => ({ hits: [], next_cursor: null }),
  visitor: async () => ({ counted: true, visitor: null }),
  health: () => ({ state: 'off', reason: 'The server was started with --no-log.', written: 0, dropped: 0, evicted: 0, retention_days: 0, max_bytes: 0 }),
  flush() {},
  close: async () => {},
};

/** A read the store did not answer in time. */
export class LogBusy extends Error {}
