import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { knownBody, type App } from '../http/handler.ts';
import { errorBody } from '../http/errors.ts';
import { SECURITY_HEADERS } from '../http/security.ts';
import { parseTarget } from '../http/target.ts';

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
  const address = socketAddress(req);
  if (address) addresses.set(request, address);
  return request;
}

/** The client's address as the socket saw it; IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d. */
function socketAddress(req: IncomingMessage): string | null {
  const address = req.socket.remoteAddress;
  if (!address) return null;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

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
}

async function sendResponse(response: Response, res: ServerResponse, req?: IncomingMessage): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // An answer given before the body was read (413) leaves body bytes on the connection; the
  // next request on it would be parsed from them. Close it instead of draining a large body.
  if (req && !req.complete) headers['connection'] = 'close';
  const body = response.body === null ? null : (knownBody(response) ?? new Uint8Array(await response.arrayBuffer()));
  if (res.destroyed) return;
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
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

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const { headers, body } = plainError(status, code, message);
  res.writeHead(status, headers);
  res.end(body);
}

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

/** Reports the request when its answer is finished; the bytes are what the socket wrote for it, headers included. */
function watch(req: IncomingMessage, res: ServerResponse, onAnswered: (answered: AnsweredRequest) => void): void {
  const at = Date.now();
  const started = performance.now();
  const written = req.socket.bytesWritten;
  res.once('finish', () => {
    const userAgent = req.headers['user-agent'];
    onAnswered({
      at,
      method: req.method ?? 'GET',
      target: req.url ?? '',
      status: res.statusCode,
      bytes: Math.max(0, req.socket.bytesWritten - written),
      durationMs: performance.now() - started,
      userAgent: typeof userAgent === 'string' ? userAgent : null,
      address: socketAddress(req),
    });
  });
}

/** The whole adapter: stored documents are answered directly, everything else by the App. */
export function nodeListener(app: App, options: ListenerOptions) {
  const fail = (res: ServerResponse, error: unknown) => {
    if (isClientGone(error) || res.destroyed) {
      options.log(`serve: client went away (${(error as { code?: string }).code ?? (error as Error).message})`);
      return;
    }
    options.log(`serve: ${(error as Error).stack ?? String(error)}`);
    sendError(res, 500, 'internal_error', 'The server failed to answer this request; it has been logged. Try again, or report the URL.');
    if (!res.writableEnded) res.end();
  };

  return (req: IncomingMessage, res: ServerResponse) => {
    // A write to a socket the client closed is not the server's failure.
    res.on('error', (error) => {
      if (!isClientGone(error)) options.log(`serve: response: ${error.message}`);
    });
    if (options.onAnswered) watch(req, res, options.onAnswered);
    try {
      const target = parseTarget(req.url ?? '');
      if (!target.ok) return sendError(res, 400, 'bad_request_target', target.message);
      const method = req.method ?? 'GET';
      if (target.form === 'asterisk') {
        if (method === 'OPTIONS') {
          res.writeHead(204, { ...BASE_HEADERS, allow: SERVER_METHODS });
          return void res.end();
        }
        return sendError(res, 400, 'bad_request_target', 'The request-target * is only for OPTIONS; name a path such as /data/agents.json.');
      }
      if (UNREPRESENTABLE.has(method))
        return void sendResponse(app.refuseMethod(method, target.pathAndQuery), res, req).catch((error: unknown) => fail(res, error));
      const answer = app.answerDocument(target.pathAndQuery, {
        method,
        ifNoneMatch: req.headers['if-none-match'] ?? null,
        ifModifiedSince: req.headers['if-modified-since'] ?? null,
        acceptEncoding: req.headers['accept-encoding'] ?? null,
      });
      if (answer) {
        res.writeHead(answer.status, answer.headers);
        return void res.end(answer.body ?? undefined);
      }
      let request: Request;
      try {
        request = toRequest(req, options.origin(), target.pathAndQuery);
      } catch (error) {
        return sendError(res, 400, 'bad_request', `The request cannot be read: ${(error as Error).message.slice(0, 200)}`);
      }
      app
        .fetch(request)
        .then((response) => sendResponse(response, res, req))
        .catch((error: unknown) => fail(res, error));
    } catch (error) {
      fail(res, error);
    }
  };
}
