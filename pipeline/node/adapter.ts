import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { afterSent, knownBody, type App } from '../http/handler.ts';
import { errorBody } from '../http/errors.ts';
import { SECURITY_HEADERS } from '../contract/headers.ts';
import { quote } from '../util/quote.ts';
import { hostProblem, parseTarget } from '../http/target.ts';

// node:http → the Web-standard App. Nothing in this file may throw out of the listener: every
// failure, however early, becomes an HTTP answer and the process goes on.

// The socket's address travels beside the Request, not in a header a client could forge.
const addresses = new WeakMap<Request, string>();

export function addressOf(request: Request): string | null {
  return addresses.get(request) ?? null;
}

/** Methods the WHATWG Request constructor refuses (fetch spec "forbidden method"). */
const UNREPRESENTABLE = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Every method some path of this server accepts, for `OPTIONS *`. */
const SERVER_METHODS = 'GET, HEAD, OPTIONS, POST';

const BASE_HEADERS = { 'access-control-allow-origin': '*', 'cache-control': 'no-store', ...SECURITY_HEADERS };

/** node:http → WHATWG Request. The body is passed as a stream so handlers decide how much to read. */
function toRequest(req: IncomingMessage, origin: string, pathAndQuery: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // Concatenated, not resolved: a target such as `//x` is a path here, not an authority.
  const request = new Request(origin + pathAndQuery, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    // Required by undici when a stream is the body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
  const address = peerAddress(req.socket);
  if (address) addresses.set(request, address);
  return request;
}

/** A header node:http may give as a list (x-forwarded-* are not joined for us): its first value. */
function firstValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The client's address as the socket saw it; an IPv4 client of a dual-stack socket (::ffff:a.b.c.d) as a.b.c.d. */
export function peerAddress(socket: { remoteAddress?: string | undefined }): string | null {
  const address = socket.remoteAddress;
  if (!address) return null;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The status booked for a request whose client went away before its answer could be handed to
 * the socket: nothing of it went out. nginx's "client closed request", so that log tools that
 * know nginx's logs read it the same way (docs/API.md §4.3a).
 */
const CLIENT_GONE_STATUS = 499;

/** One answered request, as the request log is told of it. */
interface AnsweredRequest {
  at: number;
  method: string;
  target: string;
  status: number;
  bytes: number;
  durationMs: number;
  userAgent: string | null;
  address: string | null;
  /** For the access log (node/access-log.ts). */
  referer: string | null;
  httpVersion: string;
}

/** Writes the answer; resolves to the number of body bytes sent (none for HEAD), or null when the client had gone. */
async function sendResponse(response: Response, res: ServerResponse, req?: IncomingMessage): Promise<number | null> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // An answer given before the body was read (413) leaves body bytes on the connection; the
  // next request on it would be parsed from them. Close it instead of draining a large body.
  if (req && !req.complete) headers['connection'] = 'close';
  const body = response.body === null ? null : (knownBody(response) ?? new Uint8Array(await response.arrayBuffer()));
  // The whole body is in hand: its length goes out, not a chunked stream (HEAD: the length GET would send).
  if (body !== null && headers['content-length'] === undefined) headers['content-length'] = String(body.byteLength);
  const sent = afterSent(response);
  if (res.destroyed) {
    sent?.();
    return null;
  }
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
  // Once the last byte has left (or the client has gone), the body is no longer read.
  if (sent !== undefined) res.once('close', sent);
  // Bytes sent: node:http sends no body for HEAD, whatever the answer holds.
  return res.req.method === 'HEAD' ? 0 : (body?.byteLength ?? 0);
}

/**
 * A JSON error for a request that never became a Request (a bad target, a head node:http
 * refused, CONNECT): the same body and headers whether it goes through a ServerResponse or
 * straight to a socket.
 */
export function plainError(status: number, code: string, message: string, allow?: readonly string[]): { headers: Record<string, string>; body: string } {
  const body = errorBody(status, { code, message, allow });
  const headers: Record<string, string> = { ...BASE_HEADERS, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  if (allow) headers['allow'] = allow.join(', ');
  return { headers, body };
}

function sendError(res: ServerResponse, status: number, code: string, message: string, report?: Report): void {
  if (res.headersSent) return;
  if (res.destroyed) return void report?.(CLIENT_GONE_STATUS, 0);
  const { headers, body } = plainError(status, code, message);
  res.writeHead(status, headers);
  res.end(body);
  report?.(status, Buffer.byteLength(body));
}

/**
 * RFC 9110 section 10.1.1: an expectation other than 100-continue may be refused with 417.
 * node:http sends that itself with an empty body; this one names the expectation it knows.
 * The connection is closed, since the body the client holds back would follow on it.
 */
export function refuseExpectation(req: IncomingMessage, res: ServerResponse): void {
  const expect = req.headers['expect'] ?? '';
  const { headers, body } = plainError(
    417,
    'expectation_failed',
    `The Expect header ${quote(expect)} is not one this server meets; send Expect: 100-continue, or no Expect header.`,
  );
  res.writeHead(417, { ...headers, connection: 'close' });
  res.end(body);
}

/** Tells the request log about one answer: its status and body bytes. */
type Report = (status: number, bytes: number) => void;

export interface ListenerOptions {
  /** The origin requests are resolved against (the server's own address). */
  origin: () => string;
  /** One line per event worth an operator's attention; never a client's input in full. */
  log: (line: string) => void;
  /** Told of every answered request once its last byte is handed to the socket. */
  onAnswered?: (answered: AnsweredRequest) => void;
}

/** Errors that mean the client went away; they are the client's business, worth one short line. */
export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  return (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    code === 'ERR_STREAM_DESTROYED' ||
    name === 'AbortError' ||
    (error as Error | null)?.message === 'aborted'
  );
}

/**
 * A reporter for one request, called where its answer is written (not on the response's
 * 'finish' event: a listener per response cost a quarter of the document throughput). Its
 * first call counts; the later ones of a failure path change nothing. The client's address is
 * read when the request arrives and passed in: once the client has gone, its socket has no
 * address left to read.
 */
function reporter(req: IncomingMessage, onAnswered: (answered: AnsweredRequest) => void, started: number, address: string | null, target: string): Report {
  // Made when first needed, perhaps after an await: the time the request arrived is counted back.
  const at = Date.now() - (performance.now() - started);
  const method = req.method ?? 'GET';
  const userAgent = req.headers['user-agent'];
  let reported = false;
  return (status, bytes) => {
    if (reported) return;
    reported = true;
    onAnswered({
      at,
      method,
      target,
      status,
      bytes,
      durationMs: performance.now() - started,
      userAgent: typeof userAgent === 'string' ? userAgent : null,
      address,
      referer: req.headers.referer ?? null,
      httpVersion: req.httpVersion,
    });
  };
}

/** Reports a written answer: its status and bytes, or the client's leaving when nothing could be written. */
function reportSent(report: Report | undefined, status: number, bytes: number | null): void {
  if (bytes === null) report?.(CLIENT_GONE_STATUS, 0);
  else report?.(status, bytes);
}

/** The whole adapter: stored documents are answered directly, everything else by the App. */
export function nodeListener(app: App, options: ListenerOptions) {
  const fail = (res: ServerResponse, error: unknown, report?: Report) => {
    // Whatever was thrown, even null: reading it must not throw here.
    const thrown = error as { code?: unknown; message?: unknown; stack?: unknown } | null | undefined;
    if (isClientGone(error) || res.destroyed) {
      options.log(`serve: client went away (${String(thrown?.code ?? thrown?.message ?? error)})`);
    } else {
      options.log(`serve: ${String(thrown?.stack ?? error)}`);
      sendError(res, 500, 'internal_error', 'The server failed to answer this request; it has been logged. Try again, or report the URL.', report);
      if (!res.writableEnded) res.end();
    }
    // Booked whatever happened: the status that went out, or the client's leaving.
    report?.(res.headersSent ? res.statusCode : CLIENT_GONE_STATUS, 0);
  };

  // A write to a socket the client closed is not the server's failure. One function for every
  // response: a closure made per request is an allocation on the path of every document.
  const onResponseError = (error: Error) => {
    if (!isClientGone(error)) options.log(`serve: response: ${error.message}`);
  };

  return (req: IncomingMessage, res: ServerResponse) => {
    res.on('error', onResponseError);
    const onAnswered = options.onAnswered;
    const started = onAnswered === undefined ? 0 : performance.now();
    const address = onAnswered === undefined ? null : peerAddress(req.socket);
    // Made where a path needs it: a stored document, the most asked, is booked without one.
    let report: Report | undefined;
    // What the log books as the target: the path and query once read (an absolute-form target's
    // too, as the direct answer books it), the raw target for a request refused before that.
    let booked = req.url ?? '';
    const reportFor = () => (report ??= onAnswered === undefined ? undefined : reporter(req, onAnswered, started, address, booked));
    try {
      const host = hostProblem(req.httpVersion, req.rawHeaders);
      if (host !== null) return sendError(res, 400, 'bad_request', host, reportFor());
      const target = parseTarget(req.url ?? '');
      if (!target.ok) return sendError(res, 400, 'bad_request_target', target.message, reportFor());
      if (target.form !== 'asterisk') booked = target.pathAndQuery;
      const method = req.method ?? 'GET';
      if (target.form === 'asterisk') {
        if (method === 'OPTIONS') {
          res.writeHead(204, { ...BASE_HEADERS, allow: SERVER_METHODS });
          res.end();
          return void reportFor()?.(204, 0);
        }
        return sendError(res, 400, 'bad_request_target', 'The request-target * is only for OPTIONS; name a path such as /data/agents.json.', reportFor());
      }
      if (UNREPRESENTABLE.has(method)) {
        const refusal = app.refuseMethod(method, target.pathAndQuery);
        return void sendResponse(refusal, res, req)
          .then((bytes) => reportSent(reportFor(), refusal.status, bytes))
          .catch((error: unknown) => fail(res, error, reportFor()));
      }
      const answer = app.answerDocument(target.pathAndQuery, {
        method,
        ifNoneMatch: req.headers['if-none-match'] ?? null,
        ifModifiedSince: req.headers['if-modified-since'] ?? null,
        acceptEncoding: req.headers['accept-encoding'] ?? null,
        accept: req.headers['accept'] ?? null,
        origin: {
          host: req.headers['host'] ?? null,
          forwarded: req.headers['forwarded'] ?? null,
          forwardedProto: firstValue(req.headers['x-forwarded-proto']),
          forwardedHost: firstValue(req.headers['x-forwarded-host']),
        },
        fallbackOrigin: options.origin(),
      });
      if (answer) {
        const gone = res.destroyed;
        const body = answer.body;
        const length = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
        if (!gone) {
          // A stored document's headers carry its length; a miss's are given it here, as sendResponse does.
          const sized = body === null || answer.headers['content-length'] !== undefined;
          res.writeHead(answer.status, sized ? answer.headers : { ...answer.headers, 'content-length': String(length) });
          res.end(body ?? undefined);
        }
        if (onAnswered === undefined) return;
        // Answered within this turn of the loop: the time it arrived is the time it is booked.
        const userAgent = req.headers['user-agent'];
        return onAnswered({
          at: Date.now(),
          method,
          target: target.pathAndQuery,
          status: gone ? CLIENT_GONE_STATUS : answer.status,
          // Bytes sent: HEAD is told GET's length, and sent no body.
          bytes: gone || method === 'HEAD' ? 0 : length,
          durationMs: performance.now() - started,
          userAgent: typeof userAgent === 'string' ? userAgent : null,
          address,
          referer: req.headers.referer ?? null,
          httpVersion: req.httpVersion,
        });
      }
      let request: Request;
      try {
        request = toRequest(req, options.origin(), target.pathAndQuery);
      } catch (error) {
        return sendError(res, 400, 'bad_request', `The request cannot be read: ${(error as Error).message.slice(0, 200)}`, reportFor());
      }
      app
        .fetch(request)
        .then(async (response) => {
          // Sent first: report?.(…) would skip evaluating its arguments when there is no log.
          const bytes = await sendResponse(response, res, req);
          reportSent(reportFor(), response.status, bytes);
        })
        .catch((error: unknown) => fail(res, error, reportFor()));
    } catch (error) {
      fail(res, error, reportFor());
    }
  };
}
