import { CORS_HEADERS } from '../contract/headers.ts';
import { NO_LOG } from '../log/types.ts';
import { href } from '../paths.ts';
import type { SiteSettings } from '../records/types.ts';
import { type Answer, canonicalPath, findRoute, isDynamic, type Method, type Route } from '../routes.ts';
import { inProcessRunner, type ToolRunner } from '../tools/registry/runner.ts';
import { answerAgentCard } from './a2a/agent-card-answer.ts';
import { answerA2a } from './a2a/endpoint.ts';
import type { Answerers, Asked, Service } from './answer-context.ts';
import { answerApiRoot } from './api-root.ts';
import { answerChanges, feedHead, peekFeedHead } from './changes-answer.ts';
import type { ConditionalHeaders, DirectAnswer } from './document-answer.ts';
import { errorResponse, notFoundPageHeaders } from './errors.ts';
import { answerHealth } from './health.ts';
import { canonicalAddress, linkHeader } from './links.ts';
import { answerHits, answerStats } from './log-answers.ts';
import { prefersHtml } from './negotiate.ts';
import { DIRECT, type OriginHeaders, type OriginPolicy, originHeadersOf, originReader } from './origin.ts';
import { logViews, type Visits } from './request-log.ts';
import { resolvePath } from './request-path.ts';
import { boundedMemo } from '../util/bounded-memo.ts';
import { withSecurityHeaders } from './security.ts';
import { storedAnswers } from './stored-answer.ts';
import type { DocumentStore } from './store.ts';
import { toolDataFrom } from './tool-data.ts';
import { answerTool } from './tools-http.ts';

export { afterSent, knownBody } from './document-answer.ts';

// The whole service as a runtime sees it: a path is resolved, checked against its route's
// methods, and handed to the answerer of its route's `answer.by` (one module per kind; the
// table below). Everything thrown becomes a logged JSON 500.

/** What an adapter passes for a request it answers without building a Request. */
interface DirectRequest extends ConditionalHeaders {
  origin: OriginHeaders;
  /** The origin the request arrived at (the listening address), named when Host says nothing usable. */
  fallbackOrigin: string;
}

/**
 * `fetch` is the one definition of behaviour; `answerDocument` is the same answer for a stored
 * document, or the 404 of a path without one, given without building a Request, for an adapter
 * that can write bytes directly (both go through stored-answer.ts). `refuseMethod` answers
 * methods a WHATWG Request cannot carry (TRACE, TRACK, CONNECT).
 */
export interface App {
  fetch: (request: Request) => Promise<Response>;
  answerDocument(pathAndQuery: string, request: DirectRequest): DirectAnswer | null;
  refuseMethod(method: string, pathAndQuery: string): Response;
}

export interface HandlerOptions {
  store: DocumentStore;
  site: SiteSettings;
  /** The client's address as the transport saw it (never from a request header a client can set). */
  addressOf?: (request: Request) => string | null;
  /** Where tool calls run; default: in place, on the thread that handles the request. */
  tools?: ToolRunner;
  /** The request log behind /stats.json, /hits.json and whoami; default: none (--no-log). */
  visits?: Visits;
  /** Told about every failure that became a 500, once, without the client's input. */
  onError?: (error: unknown, request: Request) => void;
  /** How the origin named in dynamic answers is decided (http/origin.ts); default: the request's own. */
  origin?: OriginPolicy;
  /**
   * Run once before the MCP answerer is first imported, with its promise awaited; default:
   * nothing. The Node server imports the MCP SDK there in parts (node/mcp-parts.ts).
   */
  beforeMcpLoad?: () => Promise<void>;
}

const READ_METHODS: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];

/** A path a document may be answered at without a Request: the stored path, its route and canonical address. */
interface DirectPath {
  path: string;
  route: Route | undefined;
  canonical: string | null;
}

/**
 * How a raw path (no query) is answered directly, or null when only fetch() can answer it: a
 * path to decode or refuse, or one a route answers by code (dist/changes.json is the static
 * hosts' first page; this server pages it). A function of the path alone, so it is remembered.
 */
function directPathOf(rawPath: string): DirectPath | null {
  if (rawPath.includes('%')) return null;
  const resolved = resolvePath(rawPath);
  if (!resolved.ok) return null;
  const path = canonicalPath(resolved.path);
  const route = findRoute(path);
  if (route !== undefined && isDynamic(route)) return null;
  return { path, route, canonical: canonicalAddress(route, resolved.path, path, resolved.prefixed) };
}

/**
 * Raw paths whose reading is remembered, and the longest remembered: the same few paths are
 * asked again and again, and reading one (decoding, the route table) costs more than its
 * answer. A client chooses its paths, so the memory is bounded in count and size (a 16 KiB path
 * is read each time).
 */
const MAX_REMEMBERED_PATHS = 4096;
const MAX_REMEMBERED_PATH_LENGTH = 512;

const STORED: Answer = { by: 'document' };

function allowedMethods(route: Route | undefined): readonly Method[] {
  return route?.methods ?? READ_METHODS;
}

function methodNotAllowed(method: string, allow: readonly Method[], headers: Record<string, string>): Response {
  const list = allow.join(', ');
  // The method is an HTTP token (the transport refused anything else); cut to a sane length.
  return errorResponse(
    405,
    { code: 'method_not_allowed', message: `${method.slice(0, 32)} is not accepted here; use ${list}.`, allow },
    { ...headers, allow: list },
  );
}

function preflight(headers: Record<string, string>, allow: readonly Method[]): Response {
  const list = allow.join(', ');
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      allow: list,
      'access-control-allow-methods': list,
      'access-control-allow-headers':
        'If-None-Match, If-Modified-Since, Content-Type, Accept, Accept-Encoding, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, A2A-Version',
      'access-control-max-age': '86400',
    },
  });
}

const internalError = () =>
  errorResponse(
    500,
    { code: 'internal_error', message: 'The server failed to answer this request; it has been logged. Try again, or report the URL.' },
    CORS_HEADERS,
  );

export function createApp(options: HandlerOptions): App {
  const { store, site } = options;
  const originOf = originReader(options.origin ?? DIRECT);
  const rememberedDirectPath = boundedMemo(directPathOf, { keys: MAX_REMEMBERED_PATHS, keyLength: MAX_REMEMBERED_PATH_LENGTH });
  const visits: Visits = options.visits ?? { log: NO_LOG, hashAddress: () => '', exportKey: null };
  const service: Service = {
    store,
    site,
    visits,
    views: logViews(visits),
    runner: options.tools ?? inProcessRunner(() => toolDataFrom(store)),
    addressOf: options.addressOf ?? (() => null),
  };
  const stored = storedAnswers(service);
  // The module's promise is kept: every import() asks the module loader again, which under a
  // loader hook (tsx on Node 20) is a round trip to the hook's thread on each MCP request.
  let mcpModule: Promise<typeof import('./mcp.ts')> | undefined;
  const loadMcp = () => {
    mcpModule ??= (options.beforeMcpLoad?.() ?? Promise.resolve())
      .then(() => import('./mcp.ts'))
      .catch((error: unknown) => {
        mcpModule = undefined;
        throw error;
      });
    return mcpModule;
  };

  /** Who answers each kind of route (the route table's `answer.by`). */
  const answerers: Answerers = {
    document: (_how, asked) => stored.answer(asked),
    'api-root': answerApiRoot,
    changes: answerChanges,
    stats: answerStats,
    hits: answerHits,
    health: answerHealth,
    'agent-card': answerAgentCard,
    tool: answerTool,
    // Loaded on the first MCP request: the SDK and its schema library are a fifth of a cold start.
    mcp: async (how, asked, service) => (await loadMcp()).answerMcp(how, asked, service),
    a2a: answerA2a,
  };
  // Each answerer takes its own kind of Answer; the table is keyed by that kind, so the lookup is sound.
  const answer = (how: Answer, asked: Asked) => (answerers[how.by] as (how: Answer, asked: Asked, service: Service) => Promise<Response>)(how, asked, service);

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const resolved = resolvePath(url.pathname);
    const here: SiteSettings = { ...site, base_url: originOf(originHeadersOf(request.headers), url.origin) };
    const cursor = await feedHead(store);
    if (!resolved.ok) {
      const headers = { ...CORS_HEADERS, link: linkHeader(here.base_url, href('home'), null, cursor) };
      const message = `No document at this path (${resolved.reason}). Paths are listed at ${here.base_url}${href('api_root')}.`;
      return notFoundForBrowser(request, errorResponse(404, { code: 'not_found', message }, headers));
    }
    const path = canonicalPath(resolved.path);
    const route = findRoute(path);
    const canonical = canonicalAddress(route, resolved.path, path, resolved.prefixed);
    const headers: Record<string, string> = { ...CORS_HEADERS, link: linkHeader(here.base_url, path, canonical, cursor) };
    const allow = allowedMethods(route);
    if (request.method === 'OPTIONS') return preflight(headers, allow);
    if (!allow.includes(request.method as Method)) return methodNotAllowed(request.method, allow, headers);
    // A stored file outside the table (the style sheet) is answered like any document.
    const answered = await answer(route?.answer ?? STORED, { request, url, path, route, canonical, cursor, headers, here });
    return answered.status === 404 ? notFoundForBrowser(request, answered) : answered;
  }

  /**
   * A browser that followed a broken link reads a page with the way back, as on a static host
   * (which serves /404.html); programs keep the JSON error naming the paths that exist.
   */
  async function notFoundForBrowser(request: Request, error: Response): Promise<Response> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !prefersHtml(request.headers.get('accept'))) return error;
    const page = await store.get(href('not_found_html'));
    if (!page) return error;
    const headers = notFoundPageHeaders(Object.fromEntries(error.headers));
    return new Response(request.method === 'HEAD' ? null : page.bytes, { status: 404, headers });
  }

  return {
    async fetch(request) {
      // Structural: whatever a request makes any part of the service throw, the client gets a
      // JSON 500 and the process goes on.
      try {
        return withSecurityHeaders(await handle(request));
      } catch (error) {
        options.onError?.(error, request);
        return withSecurityHeaders(internalError());
      }
    },

    answerDocument(pathAndQuery, request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      const query = pathAndQuery.indexOf('?');
      const direct = rememberedDirectPath(query === -1 ? pathAndQuery : pathAndQuery.slice(0, query));
      if (direct === null) return null;
      return stored.peek(direct.path, direct.route, direct.canonical, request, peekFeedHead(store), originOf(request.origin, request.fallbackOrigin));
    },

    refuseMethod(method, pathAndQuery) {
      const resolved = resolvePath(pathAndQuery.split('?', 1)[0] ?? '/');
      const path = resolved.ok ? canonicalPath(resolved.path) : href('home');
      return withSecurityHeaders(methodNotAllowed(method, allowedMethods(findRoute(path)), { ...CORS_HEADERS }));
    },
  };
}
