import type { ChangeEvent } from './types.ts';
import { href } from '../paths.ts';
import { quote } from '../util/quote.ts';

// The change feed's paging rules (docs/API.md §4.4), pure so that the build renders the
// no-parameter page into dist/changes.json with the same function the server uses.

export const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 400;
const POLL_INTERVAL_SECONDS = 21_600;
/** What a client whose cursor expired re-reads once before polling again. */
const REFETCH = [href('agents'), href('ip_sources'), href('ip_ranges_all'), href('status')];

export interface StaleSource {
  id: string;
  operator: string;
  state: string;
  error: string | null;
  last_success: string | null;
  last_attempt: string | null;
  endpoint: string;
}

/** The published event log (/changes/log.json). */
export interface PublishedLog {
  head: number;
  oldest: number;
  generated_at: string;
  stale_sources: StaleSource[];
  events: ChangeEvent[];
}

type Since = { kind: 'start' } | { kind: 'cursor'; cursor: number } | { kind: 'time'; time: string; ms: number };

export interface ChangesQuery {
  since: Since;
  limit: number;
}

export type QueryResult = { ok: true; query: ChangesQuery } | { ok: false; field: string; message: string; accepted: string };

const SINCE_FORM =
  'a cursor (a whole number from an earlier response, such as 42) or an ISO 8601 timestamp with a time zone (2026-11-22T06:00:00Z or 2026-11-22)';
const LIMIT_FORM = `a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})`;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/**
 * Whether the YYYY-MM-DD a timestamp starts with is a day of its month. Date.parse takes any
 * day up to 31 and rolls it over (February 30 becomes March 2), which would answer a
 * mistyped date with events from another day.
 */
function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Reads `since` and `limit`; anything else in the query is ignored (for example the `s` tag). */
export function parseChangesQuery(params: URLSearchParams): QueryResult {
  for (const name of ['since', 'limit']) {
    if (params.getAll(name).length > 1)
      return { ok: false, field: name, message: `${name} was given more than once; give it once.`, accepted: name === 'since' ? SINCE_FORM : LIMIT_FORM };
  }
  const rawSince = params.get('since');
  let since: Since = { kind: 'start' };
  if (rawSince !== null) {
    if (/^\d{1,15}$/.test(rawSince)) since = { kind: 'cursor', cursor: Number(rawSince) };
    else if (ISO_DATE.test(rawSince) || ISO_DATE_TIME.test(rawSince)) {
      const ms = Date.parse(ISO_DATE.test(rawSince) ? `${rawSince}T00:00:00Z` : rawSince);
      if (Number.isNaN(ms) || !isCalendarDay(rawSince))
        return { ok: false, field: 'since', message: `since=${quote(rawSince)} is not a real date.`, accepted: SINCE_FORM };
      since = { kind: 'time', time: new Date(ms).toISOString(), ms };
    } else if (ZONELESS_DATE_TIME.test(rawSince)) {
      // A time without a zone means a different instant in every zone: ask rather than guess UTC.
      return {
        ok: false,
        field: 'since',
        message: `since=${quote(rawSince)} has no time zone; add Z for UTC (${rawSince}Z) or an offset such as +02:00.`,
        accepted: SINCE_FORM,
      };
    } else {
      return { ok: false, field: 'since', message: `since=${quote(rawSince)} is neither a cursor nor a timestamp.`, accepted: SINCE_FORM };
    }
  }
  const rawLimit = params.get('limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== null) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_LIMIT) {
      return { ok: false, field: 'limit', message: `limit=${quote(rawLimit)} is out of range.`, accepted: LIMIT_FORM };
    }
    limit = Number(rawLimit);
  }
  return { ok: true, query: { since, limit } };
}

export interface ChangesPage {
  cursor: number;
  head: number;
  oldest_retained: number;
  up_to_date: boolean;
  count: number;
  has_more: boolean;
  next: string | null;
  cursor_expired: boolean;
  refetch: string[];
  poll_interval_seconds: number;
  stale_sources: StaleSource[];
  changes: ChangeEvent[];
}

export type PageResult = { ok: true; page: ChangesPage; lastModified: string } | { ok: false; field: string; message: string; accepted: string };

/**
 * One page, oldest first. `cursor` is what to send back as `since`: the last event on the
 * page, or where the client already was when the page is empty. A cursor older than the
 * oldest retained event cannot be answered completely: the page starts at the oldest one,
 * says `cursor_expired`, and lists the documents to re-read.
 */
export function changesPage(log: PublishedLog, query: ChangesQuery, baseUrl: string): PageResult {
  const { since, limit } = query;
  if (since.kind === 'cursor' && since.cursor > log.head) {
    return {
      ok: false,
      field: 'since',
      message: `since=${since.cursor} is ahead of the newest cursor, ${log.head}; send a cursor this service returned.`,
      accepted: SINCE_FORM,
    };
  }
  const first = log.events[0];
  let after: number;
  let expired = false;
  if (since.kind === 'cursor') {
    after = since.cursor;
    expired = since.cursor < log.oldest - 1;
  } else if (since.kind === 'time') {
    const later = log.events.find((e) => Date.parse(e.observed_at) > since.ms);
    after = later ? later.cursor - 1 : log.head;
    // Dropped events may have been observed after that time if the oldest kept one is later.
    expired = log.oldest > 1 && first !== undefined && Date.parse(first.observed_at) > since.ms && later === first;
  } else {
    after = log.oldest - 1;
  }
  const remaining = log.events.filter((e) => e.cursor > after);
  const changes = remaining.slice(0, limit);
  const cursor = changes.at(-1)?.cursor ?? Math.max(after, expired ? log.oldest - 1 : after);
  const hasMore = remaining.length > changes.length;
  const newest = changes.at(-1)?.observed_at ?? log.events.at(-1)?.observed_at ?? log.generated_at;
  return {
    ok: true,
    lastModified: newest,
    page: {
      cursor,
      head: log.head,
      oldest_retained: log.oldest,
      up_to_date: cursor === log.head,
      count: changes.length,
      has_more: hasMore,
      next: hasMore ? `${baseUrl}${href('changes')}?since=${cursor}&limit=${limit}` : null,
      cursor_expired: expired,
      refetch: expired ? REFETCH.map((path) => baseUrl + path) : [],
      poll_interval_seconds: POLL_INTERVAL_SECONDS,
      stale_sources: log.stale_sources,
      changes,
    },
  };
}
