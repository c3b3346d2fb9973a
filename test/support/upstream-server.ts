// A real HTTP server on 127.0.0.1 that plays operator upstreams from fixture files, with
// the fault modes real upstreams show. Used by the tests of this folder; never by the build.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const FIXTURES = new URL('../fixtures/upstream/', import.meta.url);

export function fixture(name: string): Buffer {
  return readFileSync(new URL(name, FIXTURES));
}

/** `hit` counts this route's requests, starting at 1. */
export type Route = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface UpstreamServer {
  url(path: string): string;
  hits(path: string): number;
  /** Request headers as received, in order, per path. */
  headers(path: string): IncomingMessage['headers'][];
  close(): Promise<void>;
}

export async function startUpstreamServer(routes: Record<string, Route>): Promise<UpstreamServer> {
  const hits = new Map<string, number>();
  const seen = new Map<string, IncomingMessage['headers'][]>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    seen.set(path, [...(seen.get(path) ?? []), req.headers]);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such fixture route\n');
      return;
    }
    route(req, res, count);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    headers: (path) => seen.get(path) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        // Hung routes keep their sockets open on purpose; end them so close() returns.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function file(name: string, contentType = 'application/json', headers: Record<string, string> = {}): Route {
  return (_req, res) => {
    const body = fixture(name);
    res.writeHead(200, { 'content-type': contentType, 'content-length': String(body.length), ...headers }).end(body);
  };
}

export function bytes(body: Uint8Array | string, headers: Record<string, string> = {}): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);
  };
}

export function gzipped(name: string, contentType = 'application/json'): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': contentType, 'content-encoding': 'gzip' }).end(gzipSync(fixture(name)));
  };
}

export function status(code: number, body = `status ${code}\n`): Route {
  return (_req, res) => {
    res.writeHead(code, { 'content-type': 'text/plain' }).end(body);
  };
}

/** The n-th request gets routes[n-1]; later requests get the last route. */
export function sequence(...steps: Route[]): Route {
  return (req, res, hit) => {
    const step = steps[Math.min(hit, steps.length) - 1];
    if (step) step(req, res, hit);
  };
}

export function redirect(location: string, code = 301): Route {
  return (_req, res) => {
    res.writeHead(code, { location }).end();
  };
}

/** Never answers; the socket stays open until the server closes. */
export function hang(): Route {
  return () => undefined;
}

/** Sends headers and part of the body, then stalls. */
export function stallBody(): Route {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"prefixes": [');
  };
}

/** Drops the connection without an answer. */
export function reset(): Route {
  return (req) => {
    req.socket.destroy();
  };
}

/** A body of `size` bytes sent in chunks, with or without a Content-Length. */
export function large(size: number, announce: boolean): Route {
  return (_req, res) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (announce) headers['content-length'] = String(size);
    res.writeHead(200, headers);
    const chunk = Buffer.alloc(1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => undefined);
    pump();
  };
}

/** Answers 304 when the request carries the matching validator, else the file. */
export function conditional(name: string, etag: string, lastModified: string): Route {
  return (req, res) => {
    if (req.headers['if-none-match'] === etag || req.headers['if-modified-since'] === lastModified) {
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    file(name, 'application/json', { etag, 'last-modified': lastModified })(req, res, 0);
  };
}
