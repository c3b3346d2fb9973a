import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { knownBody, type Handler } from '../http/handler.ts';

/** Request bodies above this are refused before they reach a handler. */
export const MAX_BODY_BYTES = 1024 * 1024;

// The socket's address travels beside the Request, not in a header a client could forge.
const addresses = new WeakMap<Request, string>();

export function addressOf(request: Request): string | null {
  return addresses.get(request) ?? null;
}

/** node:http → WHATWG Request. The body is passed as a stream so handlers decide how much to read. */
export function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    // Required by undici when a stream is the body.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
  const address = req.socket.remoteAddress;
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d; report the IPv4 address.
  if (address) addresses.set(request, address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address);
  return request;
}

export async function sendResponse(response: Response, res: ServerResponse, req?: IncomingMessage): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => { headers[name] = value; });
  // An answer given before the body was read (413) leaves body bytes on the connection; the
  // next request on it would be parsed from them. Close it instead of draining a large body.
  if (req && !req.complete) headers['connection'] = 'close';
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.end(knownBody(response) ?? new Uint8Array(await response.arrayBuffer()));
}

/** The whole adapter: every request goes to the Web-standard handler; failures become a JSON 500. */
export function nodeListener(handler: Handler, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    handler(toRequest(req, origin()))
      .then((response) => sendResponse(response, res, req))
      .catch((error: unknown) => {
        process.stderr.write(`serve: ${(error as Error).stack ?? String(error)}\n`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(JSON.stringify({ error: { code: 'internal_error', message: 'The server failed to answer this request.', status: 500 } }) + '\n');
      });
  };
}
