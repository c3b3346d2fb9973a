import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { Socket, type AddressInfo } from 'node:net';
import { createApp } from '../http/handler.ts';
import type { OriginPolicy } from '../http/origin.ts';
import { toolDataFrom, toolSnapshotFrom } from '../http/tool-data.ts';
import { readSite } from './site-settings.ts';
import { addressOf, isClientGone, nodeListener, peerAddress, plainError, refuseExpectation } from './adapter.ts';
import { snapshotStore } from './dist-snapshot.ts';
import { clientKey, ConnectionTable } from './admission.ts';
import { recoverDist } from '../publish/recover-dist.ts';
import { toolPool, type ToolPool, type ToolPoolOptions } from './tool-pool.ts';
import { inProcessRunner } from '../tools/registry/runner.ts';
import { createHash, randomBytes } from 'node:crypto';
import { type ThreadedLog, threadedLog } from './threaded-log.ts';
import { NO_LOG } from '../log/types.ts';
import { dailySaltedHasher } from '../log/salt.ts';
import { answeredEntry } from '../log/entry.ts';
import { accessLog } from './access-log.ts';
import { importMcpInParts } from './mcp-parts.ts';
import type { Visits } from '../http/request-log.ts';
import { routeTemplateOf } from '../http/route-template.ts';
import { href } from '../paths.ts';
import { REQUEST_HEAD_BYTES } from '../contract/error-catalog.ts';

/**
 * How long a client may take, and how many connections it may hold. A slow client is cut off
 * by these, not by the operating system: every number here is a promise in the README.
 */
interface ConnectionLimits {
  /** The whole request head must arrive within this (slowloris). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (slow uploads). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection with no byte moving either way is closed after this (slow readers). */
  idleTimeoutMs: number;
  /**
   * Connections open at once. At this cap a newcomer takes the place of the oldest idle
   * connection of the address holding the most, if that address holds more than the
   * newcomer's (admission.ts); otherwise it is refused.
   */
  maxConnections: number;
  /** Connections open at once from one address; past it the address's own oldest idle connection makes room. */
  maxConnectionsPerAddress: number;
  /**
   * After the server answers on a connection it then ends (408, 400, 431, CONNECT), the
   * client has this long to read the answer and close its side; then the connection is reset.
   */
  closeGraceMs: number;
}

const DEFAULT_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  maxConnections: 4_096,
  // A browser opens at most 6 connections to a host (HTTP/1.1), so 64 leaves room for a
  // network of them behind one NAT, while 64 addresses are needed to fill the server.
  maxConnectionsPerAddress: 64,
  closeGraceMs: 2_000,
};

const HEALTH_ROUTE = href('healthz');

export interface ServeOptions {
  root: string;
  distDir?: string;
  port: number;
  host: string;
  checkEveryMs?: number;
  limits?: Partial<ConnectionLimits>;
  /** Encode documents with brotli and gzip (default true). */
  compress?: boolean;
  /** Tool calls run on worker threads (node/tool-pool.ts: by default one per CPU but one, plus one for small calls); `threads: 0` runs them in place. */
  tools?: ToolPoolOptions;
  /**
   * The request log: a SQLite file, or null for none (--no-log). Default: none. `maxBytes` is its
   * size cap (--log-max-mb); `flushEveryMs` how often its thread takes the answered requests (20 ms).
   */
  requestLog?: { file: string | null; retentionDays?: number; maxBytes?: number; flushEveryMs?: number; started?: ThreadedLog };
  /** The key /hits.json asks for (EXPORT_KEY); null or absent: every request to it is 401. */
  exportKey?: string | null;
  /** Which origin dynamic answers name (BASE_URL, --trust-proxy); default: the one each request used. */
  origin?: OriginPolicy;
  /** --access-log: where a line per answered request goes (standard output), in the combined format; absent: nowhere. */
  accessLog?: (text: string) => void;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
  refresh(): Promise<void>;
  /** Resolves when every document of the current build has its compressed forms. */
  encoded(): Promise<void>;
}

/** Status and code for the errors node:http reports before a request exists. */
function clientErrorAnswer(code: string | undefined): { status: number; code: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        message:
          `The request head (the URL with its query, and the headers) is larger than ${REQUEST_HEAD_BYTES} bytes (16 KiB). ` +
          'Send long input in a POST body instead: a robots.txt as the raw body or a form field, and long paths as form fields ' +
          '(ai-access, robots-allowed, robots-lint); or call the tool over MCP or A2A.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', message: 'The request did not arrive in time.' };
    case 'HPE_INVALID_METHOD':
      return {
        status: 400,
        code: 'bad_method',
        message: 'The method is not a known HTTP method; this server accepts GET, HEAD, OPTIONS and POST (in upper case).',
      };
    default:
      return { status: 400, code: 'bad_request', message: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * Writes a whole response to a raw socket and closes it (no request object exists yet).
 * Ending sends the answer and a FIN, but the connection stays held until the client closes its
 * side, which a hostile one never does: after `graceMs` it is reset. RFC 9112 section 9.6: a
 * server half-closes first and fully closes once the client has had the time to receive the
 * last response, so that a reset cannot discard it.
 */
function answerSocket(socket: Duplex, graceMs: number, status: number, code: string, message: string, allow?: readonly string[]): void {
  if (!socket.writable || socket.destroyed) return void socket.destroy();
  const { headers, body } = plainError(status, code, message, allow);
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries({ ...headers, connection: 'close' }).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  const reset = setTimeout(() => resetConnection(socket), graceMs);
  reset.unref();
  socket.once('close', () => clearTimeout(reset));
}

/** Fully closes a connection with a reset: the client learns at once, and no half-closed connection lingers in the kernel. */
function resetConnection(socket: Duplex): void {
  if (socket instanceof Socket && !socket.destroyed) {
    try {
      return void socket.resetAndDestroy();
    } catch {
      // Not a TCP socket (a pipe): a plain destroy is all there is.
    }
  }
  socket.destroy();
}

/**
 * Holds every connection in a ConnectionTable (admission.ts, which says why): at either cap
 * a newcomer is admitted by closing an idle connection of an address holding more, or refused.
 * A connection is busy from its request's head to the last byte of its answer.
 */
function admitConnections(server: Server, limits: ConnectionLimits): void {
  const answering = new WeakMap<Socket, ServerResponse>();
  const table = new ConnectionTable<Socket>({ total: limits.maxConnections, perAddress: limits.maxConnectionsPerAddress }, (socket) => {
    const response = answering.get(socket);
    return response !== undefined && !response.writableFinished;
  });
  server.on('connection', (socket: Socket) => {
    const decision = table.admit(clientKey(peerAddress(socket) ?? ''), socket);
    if (!decision.admit) return void socket.destroy();
    decision.evict?.destroy();
    socket.once('close', () => table.remove(socket));
  });
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    answering.set(req.socket, res);
  });
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const site = await readSite(options.root);
  const distDir = options.distDir ?? join(options.root, 'dist');
  // A build killed mid-swap can leave no dist/ at all; the complete tree it left is put back.
  const recovered = await recoverDist(distDir);
  if (recovered) log(recovered);
  // Made once the store is: the store's first build is prepared before any thread exists.
  let pool: ToolPool | null = null;
  // Started first (or already, `started`, by a process that began it before loading this module):
  // its thread opens the file and builds its booking data from distDir while the build is loaded
  // here, and the server listens only once both are done, so that every answered request is
  // booked and in the file within the bound of docs/API.md §4.3a, the first one too.
  const requestLog =
    options.requestLog?.started ??
    (options.requestLog?.file ? threadedLog({ ...options.requestLog, file: options.requestLog.file, log, bookFrom: distDir }) : null);
  const access = options.accessLog === undefined ? null : accessLog(options.accessLog);
  const fixedOrigin = options.origin?.fixed ?? null;
  const store = await snapshotStore(distDir, {
    checkEveryMs: options.checkEveryMs,
    onReload: log,
    compress: options.compress,
    // With BASE_URL, the stored documents name it too, not the address the tree was built for.
    ...(fixedOrigin === null ? {} : { relocateTo: { baseUrl: fixedOrigin, siteName: site.name } }),
    // The tools' classifier and prefix index are built before a build is swapped in, on every
    // tool thread and on the log's thread (which books requests with them), so no request pays
    // for them and no call's deadline counts them. The server's own thread builds them only when
    // it runs the tools itself (`tools.threads: 0`), at the first call; otherwise it reads only
    // small documents of the build (http/served-build.ts).
    prepare: async (snapshot) => {
      const booking = requestLog === null ? undefined : toolSnapshotFrom(snapshot, 'built').then((tools) => requestLog.prepare(tools));
      await Promise.all([pool?.prepare(snapshot), booking]);
    },
  }).catch(async (error: unknown) => {
    // A dist/ that cannot be served: the log's thread, already started, must not outlive the start.
    await requestLog?.close();
    throw error;
  });
  pool = options.tools?.threads === 0 ? null : toolPool(store, { log, ...options.tools });
  const tools = pool ?? inProcessRunner(() => toolDataFrom(store));
  const hasher = dailySaltedHasher(
    () => randomBytes(32),
    (salt, address) => createHash('sha256').update(salt).update(address).digest('hex').slice(0, 32),
  );
  const visits: Visits = { log: requestLog ?? NO_LOG, hashAddress: (address, at) => hasher.hash(address, at), exportKey: options.exportKey ?? null };
  const app = createApp({
    store,
    site,
    addressOf,
    tools,
    visits,
    ...(options.origin === undefined ? {} : { origin: options.origin }),
    beforeMcpLoad: importMcpInParts,
    onError: (error) =>
      log(isClientGone(error) ? `serve: client went away (${(error as Error).message})` : `serve: ${(error as Error).stack ?? String(error)}`),
  });
  let origin = 'http://localhost';
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Stated here, not left to Node's default or a command-line flag: the 431 and docs/API.md name it.
      maxHeaderSize: REQUEST_HEAD_BYTES,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often node:http looks for requests past their timeouts (default 30 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, limits.headersTimeoutMs / 2)),
      // node:http would answer a missing Host with an empty 400; the listener answers it with a
      // JSON error naming the form (http/target.ts hostProblem), and refuses duplicates too.
      requireHostHeader: false,
    },
    nodeListener(app, {
      origin: () => origin,
      log,
      onAnswered:
        requestLog === null && access === null
          ? undefined
          : (answered) => {
              // Written after the answer is sent: every request on the access log, as people expect of a server.
              access?.record(answered);
              if (requestLog === null) return;
              // Booked on the log's thread, with the tools' data of the build being served.
              try {
                const route = routeTemplateOf(answered.target);
                // A container's health probe (every 30 s) is the operator's machinery, not a visit.
                if (route === HEALTH_ROUTE) return;
                requestLog.record(answeredEntry(answered, route, hasher));
              } catch (error) {
                log(`log: ${(error as Error).message}`);
              }
            },
    }),
  );
  // No server.maxConnections: node:http would refuse at accept, before admission could make room.
  server.timeout = limits.idleTimeoutMs;
  admitConnections(server, limits);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (isClientGone(error)) return void socket.destroy();
    const answer = clientErrorAnswer(error.code);
    answerSocket(socket, limits.closeGraceMs, answer.status, answer.code, answer.message);
  });
  // An Expect other than 100-continue; without this listener node:http answers 417 with no body.
  server.on('checkExpectation', refuseExpectation);
  // CONNECT asks for a tunnel; without this listener node:http would drop the connection unanswered.
  server.on('connect', (req: { url?: string }, socket: Duplex) => {
    const response = app.refuseMethod('CONNECT', req.url?.startsWith('/') ? req.url : '/');
    answerSocket(
      socket,
      limits.closeGraceMs,
      405,
      'method_not_allowed',
      'CONNECT is not accepted here; this server is not a proxy.',
      (response.headers.get('allow') ?? 'GET, HEAD, OPTIONS').split(', '),
    );
  });
  try {
    await requestLog?.ready();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    // A busy port or a bad address: the threads and the encoding already started would keep the process alive.
    store.close();
    await tools.close();
    await requestLog?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  return {
    url: origin,
    server,
    refresh: () => store.refresh(),
    encoded: () => store.encoded(),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      store.close();
      await tools.close();
      await requestLog?.close();
      access?.close();
    },
  };
}
