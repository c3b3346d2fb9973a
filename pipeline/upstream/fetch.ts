// The only I/O in pipeline/upstream: one GET of an operator's prefix list, with the
// defences a six-hourly cron needs against a misbehaving upstream. Every upstream fault
// becomes a value (`FetchOutcome`), never an exception, so the caller can keep the last
// good copy (docs/PRINCIPLES.md, principle 4).

import { sha256Hex } from '../util/sha256.ts';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { clip, quote } from '../util/quote.ts';
import { literalAddressProblem, NotPublicAddressError, publicOnlyLookup, redirectProblem } from './redirect-guard.ts';

export const DEFAULT_USER_AGENT = 'CrawlerIndex/1.0 (+https://github.com/crawler-index/crawler-index)';

interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export interface FetchOptions {
  /** Validators of the copy we already hold; sent as If-None-Match / If-Modified-Since. */
  validators?: Validators;
  /** Deadline for one attempt, headers and body together, across its redirects. */
  timeoutMs?: number;
  /** Largest body accepted, counted while streaming (and after decompression). */
  maxBytes?: number;
  /**
   * Redirects followed per attempt. Those leaving the configured origin must go to https on
   * public addresses (redirect-guard.ts).
   */
  maxRedirects?: number;
  /** Total tries, the first included. Only network faults, timeouts and 5xx are retried. */
  attempts?: number;
  /** Wait before the second try; doubles before each later one. */
  baseDelayMs?: number;
  userAgent?: string;
  accept?: string;
  /**
   * Connect only to public addresses, the configured URL included (not only the redirects
   * leaving its origin): for URLs an upstream may point anywhere, such as key directories.
   * A `dispatcher`, when given, decides instead.
   */
  publicOnly?: boolean;
  /** Response headers returned with a 200 (lower-case names), e.g. a directory's own signature. */
  keepHeaders?: readonly string[];
  /**
   * For tests or a proxy; defaults to undici's global dispatcher. Given one, it also carries
   * redirects that leave the configured origin (a proxy decides where it connects); without
   * one, those go through a connection whose lookup refuses non-public addresses.
   */
  dispatcher?: Dispatcher;
}

type FetchErrorCode =
  | 'invalid-url'
  | 'network'
  | 'timeout'
  | 'http-status'
  | 'too-large'
  | 'redirect-loop'
  | 'too-many-redirects'
  | 'bad-redirect'
  | 'bad-encoding'
  | 'not-public';

export type FetchOutcome =
  | {
      kind: 'ok';
      bytes: Uint8Array;
      /** Lower-case hex sha-256 of `bytes` (the decoded body). */
      sha256: string;
      status: number;
      etag: string | null;
      lastModified: string | null;
      contentType: string | null;
      finalUrl: string;
      attempts: number;
      /** The headers named in keepHeaders that the response carried. */
      kept?: Record<string, string>;
    }
  | {
      kind: 'not-modified';
      status: 304;
      /** A 304 may carry fresher validators; null when it carried none. */
      etag: string | null;
      lastModified: string | null;
      finalUrl: string;
      attempts: number;
    }
  | {
      kind: 'error';
      code: FetchErrorCode;
      /** A sentence a maintainer can act on. */
      message: string;
      status?: number;
      attempts: number;
    };

type FetchError = Extract<FetchOutcome, { kind: 'error' }>;
type SingleResult = Exclude<FetchOutcome, FetchError> | (Omit<FetchError, 'attempts'> & { retry: boolean });

interface ResolvedOptions {
  validators: Validators | undefined;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  attempts: number;
  baseDelayMs: number;
  userAgent: string;
  accept: string;
  publicOnly: boolean;
  keepHeaders: readonly string[];
  dispatcher: Dispatcher | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function fetchUpstream(url: string, options: FetchOptions = {}): Promise<FetchOutcome> {
  const opts = resolveOptions(options);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'error', code: 'invalid-url', message: `"${url}" is not an absolute URL.`, attempts: 0 };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { kind: 'error', code: 'invalid-url', message: `"${url}" is not an http(s) URL.`, attempts: 0 };
  }

  const literal = opts.publicOnly && !opts.dispatcher ? literalAddressProblem(parsed) : null;
  if (literal !== null)
    return { kind: 'error', code: 'not-public', message: `${url} was not fetched: ${literal}; only public addresses are contacted.`, attempts: 0 };

  for (let attempt = 1; ; attempt++) {
    const result = await fetchOnce(parsed, opts);
    if (result.kind !== 'error') return { ...result, attempts: attempt };
    const { retry, ...error } = result;
    if (!retry || attempt >= opts.attempts) {
      const message = attempt > 1 ? `${error.message.replace(/\.$/, '')} (after ${attempt} attempts).` : error.message;
      return { ...error, message, attempts: attempt };
    }
    await sleep(opts.baseDelayMs * 2 ** (attempt - 1));
  }
}

function resolveOptions(options: FetchOptions): ResolvedOptions {
  // Validate up front: a zero or negative limit would silently disable a defence.
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`fetchUpstream: ${name} must be a positive number, got ${v}`);
    return v;
  };
  const nonNegative = (name: string, value: number | undefined, fallback: number): number => {
    const v = value ?? fallback;
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`fetchUpstream: ${name} must be zero or more, got ${v}`);
    return v;
  };
  return {
    validators: options.validators,
    timeoutMs: positive('timeoutMs', options.timeoutMs, 30_000),
    // The largest real list (Amazon Amzn-User, as HTML) is well under 1 MiB.
    maxBytes: positive('maxBytes', options.maxBytes, 8 * 1024 * 1024),
    maxRedirects: nonNegative('maxRedirects', options.maxRedirects, 5),
    attempts: Math.floor(positive('attempts', options.attempts, 3)),
    baseDelayMs: nonNegative('baseDelayMs', options.baseDelayMs, 1_000),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    accept: options.accept ?? 'application/json, text/html;q=0.8, text/plain;q=0.5, */*;q=0.1',
    publicOnly: options.publicOnly ?? false,
    keepHeaders: options.keepHeaders ?? [],
    dispatcher: options.dispatcher,
  };
}

/** One attempt: the request, its redirects and the body, under one deadline. */
async function fetchOnce(start: URL, opts: ResolvedOptions): Promise<SingleResult> {
  const controller = new AbortController();
  const deadline = new Error('deadline');
  const timer = setTimeout(() => controller.abort(deadline), opts.timeoutMs);
  const seen = new Set<string>([start.href]);
  const guarded = lazyGuardedAgent();
  const dispatcherFor = (url: URL): Dispatcher | undefined =>
    opts.dispatcher || (url.origin === start.origin && !opts.publicOnly) ? opts.dispatcher : guarded.get();
  let current = start;
  try {
    for (let hop = 0; ; hop++) {
      const dispatcher = dispatcherFor(current);
      const response = await request(current, {
        method: 'GET',
        headers: requestHeaders(opts),
        signal: controller.signal,
        // Our own deadline governs; undici's idle timers are set no looser than it.
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
      const status = response.statusCode;
      // Every URL past the first came from the upstream: it is shown cut (quote.ts).
      const here = shownUrl(current);

      if (REDIRECT_STATUSES.has(status)) {
        await response.body.dump().catch(() => undefined);
        const location = header(response.headers, 'location');
        if (location === null) {
          return fail('bad-redirect', `${here} answered ${status} without a Location header.`, false, status);
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          return fail('bad-redirect', `${here} redirected to ${quote(location)}, which is not a valid URL.`, false, status);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          return fail('bad-redirect', `${here} redirected to ${shownUrl(next)}, which is not http(s).`, false, status);
        }
        if (seen.has(next.href)) {
          return fail('redirect-loop', `Redirect loop: ${here} sends us back to ${shownUrl(next)}.`, false, status);
        }
        if (opts.maxRedirects === 0) {
          return fail(
            'http-status',
            `${here} answered ${status} (a redirect to ${shownUrl(next)}); expected 200, and redirects are not followed.`,
            false,
            status,
          );
        }
        if (hop + 1 > opts.maxRedirects) {
          return fail('too-many-redirects', `More than ${opts.maxRedirects} redirects starting at ${start.href}.`, false, status);
        }
        const refused = redirectProblem(next, start);
        if (refused !== null) {
          return fail('bad-redirect', `${here} redirected to ${shownUrl(next)}, which was not followed: ${refused}.`, false, status);
        }
        seen.add(next.href);
        current = next;
        continue;
      }

      const etag = header(response.headers, 'etag');
      const lastModified = header(response.headers, 'last-modified');

      if (status === 304) {
        await response.body.dump().catch(() => undefined);
        if (!opts.validators?.etag && !opts.validators?.lastModified) {
          return fail('http-status', `${here} answered 304 Not Modified to a request that was not conditional.`, false, 304);
        }
        return { kind: 'not-modified', status: 304, etag, lastModified, finalUrl: current.href, attempts: 0 };
      }

      if (status !== 200) {
        await response.body.dump().catch(() => undefined);
        const retry = status >= 500;
        return fail('http-status', `${here} answered HTTP ${status}; expected 200.`, retry, status);
      }

      const declared = Number(header(response.headers, 'content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        response.body.destroy();
        return fail('too-large', `${here} announced ${declared} bytes, over the ${opts.maxBytes}-byte limit.`, false);
      }
      const raw = await readLimited(response.body, opts.maxBytes);
      if (raw === null) {
        return fail('too-large', `${here} sent more than ${opts.maxBytes} bytes; the download was stopped.`, false);
      }
      const decoded = decode(raw, header(response.headers, 'content-encoding'), opts.maxBytes);
      if (decoded.kind === 'too-large') {
        return fail('too-large', `${here} decompresses to more than ${opts.maxBytes} bytes.`, false);
      }
      if (decoded.kind === 'error') {
        return fail('bad-encoding', `${here}: ${decoded.message}`, false);
      }
      return {
        kind: 'ok',
        bytes: decoded.bytes,
        sha256: sha256Hex(decoded.bytes),
        status,
        etag,
        lastModified,
        contentType: header(response.headers, 'content-type'),
        finalUrl: current.href,
        attempts: 0,
        ...(opts.keepHeaders.length > 0 ? { kept: keptHeaders(response.headers, opts.keepHeaders) } : {}),
      };
    }
  } catch (error) {
    const refused = notPublic(error);
    if (refused !== null) {
      if (current === start)
        return fail(
          'not-public',
          `${shownUrl(current)} was not fetched: ${refused.hostname} resolves to ${refused.address}, which is ${refused.problem}; only public addresses are contacted.`,
          false,
        );
      return fail('bad-redirect', `The redirect to ${shownUrl(current)} was not followed: ${refused.message}.`, false);
    }
    const code = (error as { code?: unknown } | null)?.code;
    const undiciTimeout = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    if ((controller.signal.aborted && controller.signal.reason === deadline) || undiciTimeout) {
      return fail('timeout', `${shownUrl(current)} did not answer in full within ${opts.timeoutMs} ms.`, true);
    }
    return fail('network', `Could not fetch ${shownUrl(current)}: ${describeNetworkError(error)}.`, true);
  } finally {
    clearTimeout(timer);
    await guarded.close();
  }
}

/** The dispatcher for hops off the configured origin: made when first needed, closed with the attempt. */
function lazyGuardedAgent(): { get: () => Agent; close: () => Promise<void> } {
  let agent: Agent | null = null;
  return {
    get: () => (agent ??= new Agent({ connect: { lookup: publicOnlyLookup() } })),
    // Destroyed, not closed: by then the attempt has all it will read, and a stalled
    // connection must not hold the attempt past its deadline.
    close: async () => {
      await agent?.destroy().catch(() => undefined);
    },
  };
}

function shownUrl(url: URL): string {
  return clip(url.href);
}

/** The guarded lookup's refusal, wherever undici wrapped it. */
function notPublic(error: unknown): NotPublicAddressError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof NotPublicAddressError) return e;
  }
  return null;
}

function fail(code: FetchErrorCode, message: string, retry: boolean, status?: number): SingleResult {
  return status === undefined ? { kind: 'error', code, message, retry } : { kind: 'error', code, message, status, retry };
}

function requestHeaders(opts: ResolvedOptions): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': opts.userAgent, accept: opts.accept };
  if (opts.validators?.etag) headers['if-none-match'] = opts.validators.etag;
  if (opts.validators?.lastModified) headers['if-modified-since'] = opts.validators.lastModified;
  return headers;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

function keptHeaders(headers: Record<string, string | string[] | undefined>, names: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    // A field sent on several lines is one list (RFC 9110 5.3), as a signature verifier reads it.
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

/** Reads the body, stopping (and destroying the stream) as soon as it passes `max` bytes. */
async function readLimited(body: Dispatcher.ResponseData['body'], max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = chunk as Uint8Array;
    total += bytes.byteLength;
    if (total > max) {
      body.destroy();
      return null;
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

type Decoded = { kind: 'ok'; bytes: Uint8Array } | { kind: 'too-large' } | { kind: 'error'; message: string };

// We send no Accept-Encoding, yet some CDNs compress anyway; decode rather than fail, with the
// same size limit applied to the decoded bytes (a small gzip can expand enormously).
function decode(raw: Uint8Array, encoding: string | null, max: number): Decoded {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  try {
    switch (name) {
      case 'identity':
      case '':
        return { kind: 'ok', bytes: raw };
      case 'gzip':
      case 'x-gzip':
        return { kind: 'ok', bytes: gunzipSync(raw, { maxOutputLength: max }) };
      case 'deflate':
        return { kind: 'ok', bytes: inflateSync(raw, { maxOutputLength: max }) };
      case 'br':
        return { kind: 'ok', bytes: brotliDecompressSync(raw, { maxOutputLength: max }) };
      default:
        return { kind: 'error', message: `unsupported Content-Encoding ${quote(encoding ?? '')}.` };
    }
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return { kind: 'too-large' };
    }
    return { kind: 'error', message: `the ${name} body could not be decoded (${(error as Error).message}).` };
  }
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
