// /stats.json and /hits.json: the request log's two doors. The aggregate is public and cached
// for a minute; the raw rows need the export key and are never cached.

import { dayOf } from '../log/daily.ts';
import { statsDocument } from '../log/stats.ts';
import { liveCounts, type LiveCounts } from '../log/live.ts';
import { type DailyRow, LogBusy, type LogReader } from '../log/types.ts';
import { etagOfWeb } from '../util/etag-rule.ts';
import { errorResponse } from './errors.ts';
import { sameSecret } from './secret.ts';
import { jsonDocument, type StoredDocument } from './store.ts';
import { href } from '../paths.ts';

const STATS_MAX_AGE_MS = 60_000;
const BUSY_MAX_AGE_MS = 5_000;
const HITS_DEFAULT_LIMIT = 100;
const HITS_MAX_LIMIT = 1000;

/** The request log as the handler is given it. */
export interface Visits {
  log: LogReader;
  /** The salted hash the log keeps instead of an address. */
  hashAddress(address: string, at: number): string;
  /** EXPORT_KEY; null: /hits.json answers 401 to everyone. */
  exportKey: string | null;
  now?: () => number;
}

/** One reading of the log, shared by /stats.json and the pages' live counters for a minute. */
interface LogView {
  /** When it was read (ms since the epoch). */
  at: number;
  /** How long it is served before the log is read again (shorter when the log was busy). */
  maxAge: number;
  generatedAt: string;
  stats: StoredDocument;
  counts: LiveCounts;
}

/** The log read at most once a minute, however many requests ask. */
export interface LogViews {
  /** The current reading, reading the log again when it is a minute old; concurrent askers share one read. */
  read(): Promise<LogView>;
  /** The current reading if it is fresh, without waiting: for an adapter's synchronous path. */
  peek(): LogView | null;
}

export function logViews(visits: Visits): LogViews {
  const now = visits.now ?? Date.now;
  let cached: LogView | null = null;
  let pending: Promise<LogView> | null = null;
  async function load(at: number): Promise<LogView> {
    let health = visits.log.health();
    const from = dayOf(at - health.retention_days * 86_400_000);
    const generatedAt = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
    let rows: DailyRow[] = [];
    let maxAge = STATS_MAX_AGE_MS;
    try {
      rows = await visits.log.daily(from);
    } catch (error) {
      if (!(error instanceof LogBusy)) throw error;
      // Said in the document, and asked again soon: a busy log is not an empty one.
      health = { ...health, state: 'unavailable', reason: `${error.message}; ask again in a few seconds` };
      maxAge = BUSY_MAX_AGE_MS;
    }
    const stats = await jsonDocument(href('stats'), statsDocument(rows, health, from, generatedAt), generatedAt);
    return { at, maxAge, generatedAt, stats, counts: liveCounts(rows, dayOf(at), health.retention_days) };
  }
  const fresh = (at: number) => (cached !== null && at - cached.at < cached.maxAge ? cached : null);
  return {
    async read() {
      const at = now();
      const current = fresh(at);
      if (current !== null) return current;
      pending ??= load(at).finally(() => {
        pending = null;
      });
      cached = await pending;
      return cached;
    },
    peek: () => fresh(now()),
  };
}

function unauthorised(headers: Record<string, string>, why: string): Response {
  return errorResponse(
    401,
    {
      code: 'export_key_required',
      message: `${why} /hits.json is the raw request log; send the export key as ?key= or Authorization: Bearer <key>. The aggregate is public at /stats.json.`,
    },
    { ...headers, 'www-authenticate': 'Bearer realm="hits"', 'cache-control': 'no-store' },
  );
}

function keyOf(request: Request, url: URL): string | null {
  const bearer = /^Bearer\s+(.+?)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return bearer?.[1] ?? url.searchParams.get('key');
}

function integerParameter(url: URL, name: string, min: number, max: number, fallback: number): number | { error: string } {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) return { error: `${name} must be a whole number from ${min} to ${max}.` };
  return Number(raw);
}

export async function hitsResponse(visits: Visits, request: Request, url: URL, baseUrl: string, headers: Record<string, string>): Promise<Response> {
  if (visits.exportKey === null) return unauthorised(headers, 'This server has no export key set (EXPORT_KEY), so nobody can read the raw log.');
  for (const name of ['key', 'cursor', 'limit']) {
    if (url.searchParams.getAll(name).length > 1) {
      return errorResponse(
        400,
        { code: 'invalid_parameter', message: `${name} is given more than once; send it once.`, field: name, accepted: 'one value' },
        {
          ...headers,
          'cache-control': 'no-store',
        },
      );
    }
  }
  const given = keyOf(request, url);
  if (given === null) return unauthorised(headers, 'No export key was sent.');
  if (!(await sameSecret(given, visits.exportKey))) return unauthorised(headers, 'The export key is wrong.');
  const cursor = integerParameter(url, 'cursor', 0, Number.MAX_SAFE_INTEGER, 0);
  const limit = integerParameter(url, 'limit', 1, HITS_MAX_LIMIT, HITS_DEFAULT_LIMIT);
  for (const [field, value] of [
    ['cursor', cursor],
    ['limit', limit],
  ] as const) {
    if (typeof value !== 'number') {
      return errorResponse(
        400,
        { code: 'invalid_parameter', message: value.error, field, accepted: field === 'limit' ? `1 to ${HITS_MAX_LIMIT}` : 'a next_cursor' },
        {
          ...headers,
          'cache-control': 'no-store',
        },
      );
    }
  }
  let page: Awaited<ReturnType<LogReader['hits']>>;
  try {
    page = await visits.log.hits(cursor as number, limit as number);
  } catch (error) {
    if (!(error instanceof LogBusy)) throw error;
    return errorResponse(503, { code: 'log_busy', message: `${error.message}; send the same request again.` }, { ...headers, 'retry-after': '5' });
  }
  const body = {
    cursor,
    limit,
    log: visits.log.health(),
    hits: page.hits,
    next_cursor: page.next_cursor,
    // The key stays out of the link: send it again the way this request did.
    next: page.next_cursor === null ? null : `${baseUrl}${href('hits')}?cursor=${page.next_cursor}&limit=${limit}`,
  };
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return new Response(bytes, {
    status: 200,
    headers: { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store', etag: `"${await etagOfWeb(bytes)}"` },
  });
}
