import type { SiteSettings } from '../records/types.ts';
import { contentTypeOf, href, toolHref, API_PREFIX } from '../paths.ts';
import { type Answer, canonicalPath, findRoute, isDynamic as isDynamicRoute, matchRoute, type Method, type Route, routeOf } from '../routes.ts';
import { prefersHtml, prefersJson } from './negotiate.ts';
import { toolErrorReport, toolReport } from '../render/tool-reports.ts';
import { apiRootDocument } from './api-root.ts';
import { conditionalHeadersOf, PreparedDocument, type ConditionalHeaders, type DocumentAnswer } from './document-answer.ts';
import { errorResponse } from './errors.ts';
import { changesPage, parseChangesQuery, type PublishedLog } from '../changes/page.ts';
import { resolvePath } from './request-path.ts';
import { MCP_SERVERS, TOOLS, toolByName } from '../tools/registry/index.ts';
import { callTool } from './tools-http.ts';
import { toolDataFrom } from './tool-data.ts';
import { ANSWER_FORM, answerTooLarge } from '../tools/registry/limits.ts';
import { inProcessRunner, type ToolRunner } from '../tools/registry/call.ts';
import type { McpServerSpec } from './mcp.ts';
import { handleA2a } from './a2a/endpoint.ts';
import { CORS_HEADERS } from '../contract/headers.ts';
import { withMissingHeaders, withSecurityHeaders } from './security.ts';
import { quote } from '../util/quote.ts';
import { jsonBytesDocument, jsonDocument, type DocumentStore, type StoredDocument } from './store.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { hitsResponse, logViews, type Visits } from './request-log.ts';
import { livePages } from './live-pages.ts';
import { carriesLiveCounters } from '../site/live.ts';
import { LogBusy, NO_LOG } from '../log/types.ts';
import { etagOfWeb } from '../util/etag-rule.ts';
import { agentCard } from '../render/agent-card.ts';
import { DIRECT, originHeadersOf, publicOrigin, relocate, type OriginHeaders, type OriginPolicy } from './origin.ts';
import type { CallerHistory } from '../tools/registry/types.ts';
import { healthDocument, healthResponse } from './health.ts';

type Handler = (request: Request) => Promise<Response>;

/**
 * The whole service as a runtime sees it. `fetch` is the one definition of behaviour;
 * `answerDocument` is the same answer for a stored document, given without building a
 * Request, for an adapter that can write bytes directly (both go through PreparedDocument).
 * `refuseMethod` answers methods a WHATWG Request cannot carry (TRACE, TRACK, CONNECT).
 */
/** What an adapter passes for a request it answers without building a Request. */
interface DirectRequest extends ConditionalHeaders {
  origin: OriginHeaders;
  /** The origin the request arrived at (the listening address), named when Host says nothing usable. */
  fallbackOrigin: string;
}

export interface App {
  fetch: Handler;
  answerDocument(pathAndQuery: string, request: DirectRequest): DocumentAnswer | null;
  refuseMethod(method: string, pathAndQuery: string): Response;
}

// Reading a Response body back through its stream costs more than serving the bytes (about
// 3x for a 230 KB document under load). An adapter that can write bytes directly asks here
// first; any other runtime just reads the body as usual.
const knownBodies = new WeakMap<Response, Uint8Array>();

export function knownBody(response: Response): Uint8Array | undefined {
  return knownBodies.get(response);
}

/** A body over the stored bytes without copying them (a Uint8Array body is copied by Response). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

function toResponse(answer: DocumentAnswer): Response {
  const response = new Response(answer.body === null ? null : streamOf(answer.body), { status: answer.status, headers: answer.headers });
  if (answer.body !== null) knownBodies.set(response, answer.body);
  return response;
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
}

const READ_METHODS: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];
/** Header variants kept per stored document before they are dropped and built again. */
const MAX_PREPARED_FORMS = 32;
const STORED: Answer = { by: 'document' };

/** Which variant of a stored document's headers an answer needs. */
interface DocumentForm {
  canonical: string | null;
  /** Set for a negotiated route: the stored path that was chosen. */
  negotiated: string | undefined;
}

/**
 * Which stored document answers: the path's own, or for a page with a JSON form (the
 * reference) that form when the client prefers JSON; and the header variant that goes with it.
 */
function negotiate(route: Route | undefined, path: string, canonical: string | null, accept: string | null): { served: string; form: DocumentForm } {
  if (route?.jsonForm === undefined) return { served: path, form: { canonical, negotiated: undefined } };
  const served = prefersJson(accept) ? routeOf(route.jsonForm).path : path;
  return { served, form: { canonical, negotiated: served } };
}

/** What the dispatcher needs of a request once its path is resolved. */
interface Asked {
  request: Request;
  url: URL;
  /** The stored path (an alias resolved). */
  path: string;
  /** The canonical address to name in the Link header, null when the request used it. */
  canonical: string | null;
  cursor: number;
  headers: Record<string, string>;
  /** The site as this client reached it: base_url is the origin it used (http/origin.ts). */
  here: SiteSettings;
}

function documentResponse(document: StoredDocument, request: Request, headers: Record<string, string>, options?: { dated: boolean }): Response {
  return toResponse(new PreparedDocument(document, headers, options).answer(conditionalHeadersOf(request)));
}

function mcpServer(path: string): McpServerSpec {
  const server = MCP_SERVERS.find((s) => s.path === path);
  if (server === undefined) throw new Error(`the route table names MCP server ${path}, which MCP_SERVERS lacks`);
  return server;
}
const CORS = CORS_HEADERS;

const LOG_PATH = href('changes_log');

// Parsed once per published log: the ETag names the bytes, so a rebuild is picked up.
let parsedLog: { etag: string; log: PublishedLog } | null = null;

function publishedLogFrom(document: StoredDocument | null): PublishedLog | null {
  if (!document) return null;
  if (parsedLog?.etag !== document.etag) parsedLog = { etag: document.etag, log: JSON.parse(new TextDecoder().decode(document.bytes)) as PublishedLog };
  return parsedLog.log;
}

/** The other forms of the same content, for the Link header (docs/API.md §5.5). */
function siblingOf(path: string): { path: string; type: string } {
  const swaps: Record<string, string[]> = { '.json': ['.html', '.csv', '.txt'], '.html': ['.json'], '.md': ['.json'], '.csv': ['.json'], '.txt': ['.json'] };
  const extension = /\.[a-z]+$/.exec(path)?.[0] ?? '';
  for (const other of swaps[extension] ?? []) {
    const candidate = path.slice(0, -extension.length) + other;
    if (findRoute(candidate)) return { path: candidate, type: contentTypeOf(candidate) };
  }
  return { path: href('documents'), type: 'application/json' };
}

/**
 * The address to name in `Link: rel=canonical`, or null when the request used it: the
 * unprefixed path for a request under /api/v1, the published address of a document reached by
 * one of its other names (/docs for /reference).
 */
function canonicalAddress(route: Route | undefined, requested: string, stored: string, prefixed: boolean): string | null {
  if (route?.canonical !== undefined) return requested === route.canonical && !prefixed ? null : route.canonical;
  return prefixed ? stored : null;
}

function linkHeader(base: string, path: string, canonical: string | null, cursor: number): string {
  const sibling = siblingOf(path);
  const links = [
    // "What changed after the state this answer reflects": the feed from the current head.
    `<${base}${href('changes')}?since=${cursor}>; rel="related"; type="application/json"`,
    `<${base}${sibling.path}>; rel="alternate"; type="${sibling.type}"`,
    `<${base}${href('openapi')}>; rel="service-desc"; type="application/openapi+json"`,
    // RFC 9727 3: the catalogue of the publisher's APIs, named from every answer (HEAD included).
    `<${base}${href('api_catalog')}>; rel="api-catalog"; type="application/linkset+json"`,
  ];
  if (canonical !== null) links.unshift(`<${base}${canonical}>; rel="canonical"`);
  return links.join(', ');
}

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

const internalError = () =>
  errorResponse(500, { code: 'internal_error', message: 'The server failed to answer this request; it has been logged. Try again, or report the URL.' }, CORS);

export function createApp(options: HandlerOptions): App {
  const { store, site } = options;
  const originPolicy = options.origin ?? DIRECT;
  const originOf = (headers: OriginHeaders, fallback: string) => publicOrigin(originPolicy, headers, fallback);
  const runner = options.tools ?? inProcessRunner(() => toolDataFrom(store));
  const visits: Visits = options.visits ?? { log: NO_LOG, hashAddress: () => '', exportKey: null };
  const views = logViews(visits);
  const livePage = livePages(views, async (slug) => (await toolDataFrom(store))?.bySlug.get(slug)?.name ?? null);
  // Pages carry the log's counters unless the server runs without a log (--no-log).
  const live = (document: StoredDocument) => carriesLiveCounters(document.type) && visits.log.health().state !== 'off';

  // Headers of a stored document depend on its bytes, the address it was asked by (its Link
  // rel=canonical), whether it was negotiated, and the feed's head; they are computed once per
  // document object (one per snapshot), head and form (a handful per route), not per request.
  const prepared = new WeakMap<StoredDocument, { cursor: number; forms: Map<string, PreparedDocument> }>();
  function preparedFor(document: StoredDocument, path: string, form: DocumentForm, cursor: number, origin: string): PreparedDocument {
    let entry = prepared.get(document);
    if (entry?.cursor !== cursor) {
      entry = { cursor, forms: new Map() };
      prepared.set(document, entry);
    }
    const key = `${origin} ${form.canonical ?? ''} ${form.negotiated ?? ''}`;
    let answer = entry.forms.get(key);
    if (answer === undefined) {
      // Host is the client's to choose: past a handful of origins per document, start over rather than grow.
      if (entry.forms.size >= MAX_PREPARED_FORMS) entry.forms.clear();
      const negotiation =
        form.negotiated === undefined ? {} : { vary: 'Accept, Accept-Encoding', ...(form.negotiated === path ? {} : { 'content-location': form.negotiated }) };
      answer = new PreparedDocument(document, { ...CORS, link: linkHeader(origin, path, form.canonical, cursor), ...negotiation });
      entry.forms.set(key, answer);
    }
    return answer;
  }

  const cursorFrom = (log: StoredDocument | null) => publishedLogFrom(log)?.head ?? 0;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const resolved = resolvePath(url.pathname);
    const base = { ...CORS };
    const here: SiteSettings = { ...site, base_url: originOf(originHeadersOf(request.headers), url.origin) };
    const cursor = cursorFrom(await store.get(LOG_PATH));
    if (!resolved.ok) {
      return notFoundForBrowser(
        request,
        errorResponse(
          404,
          { code: 'not_found', message: `No document at this path (${resolved.reason}). Paths are listed at ${here.base_url}${API_PREFIX}.` },
          { ...base, link: linkHeader(here.base_url, href('home'), null, cursor) },
        ),
      );
    }
    const path = canonicalPath(resolved.path);
    const route = findRoute(path);
    const canonical = canonicalAddress(route, resolved.path, path, resolved.prefixed);
    const headers: Record<string, string> = { ...base, link: linkHeader(here.base_url, path, canonical, cursor) };
    const allow = allowedMethods(route);

    if (request.method === 'OPTIONS') {
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
    if (!allow.includes(request.method as Method)) return methodNotAllowed(request.method, allow, headers);
    // A stored file outside the table (the style sheet) is answered like any document.
    const answered = await answer(route?.answer ?? STORED, route, { request, url, path, canonical, cursor, headers, here });
    return answered.status === 404 ? notFoundForBrowser(request, answered) : answered;
  }

  /**
   * A browser that followed a broken link reads a page with the way back, as on a static host
   * (which serves /404.html); programs keep the JSON error naming the paths that exist.
   */
  async function notFoundForBrowser(request: Request, error: Response): Promise<Response> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !prefersHtml(request.headers.get('accept'))) return error;
    const stored = await store.get(href('not_found_html'));
    if (!stored) return error;
    const headers = new Headers(error.headers);
    headers.set('content-type', 'text/html; charset=utf-8');
    headers.set('vary', 'Accept');
    return new Response(request.method === 'HEAD' ? null : stored.bytes, { status: 404, headers });
  }

  /** The dispatcher: one case per way the route table says a path is answered. */
  async function answer(how: Answer, route: Route | undefined, asked: Asked): Promise<Response> {
    const { request, url, path, headers, here } = asked;
    switch (how.by) {
      case 'document': {
        const choice = negotiate(route, path, asked.canonical, request.headers.get('accept'));
        const stored = await store.get(choice.served);
        if (!stored) return notFound(here, path, route, headers);
        const document = live(stored) ? await livePage.build(stored) : stored;
        return toResponse(preparedFor(document, path, choice.form, asked.cursor, here.base_url).answer(conditionalHeadersOf(request)));
      }
      case 'api-root': {
        const generatedAt = await store.generatedAt();
        return documentResponse(await jsonDocument(API_PREFIX, apiRootDocument(here, generatedAt), generatedAt), request, headers);
      }
      case 'changes': {
        const parsed = parseChangesQuery(url.searchParams);
        if (!parsed.ok)
          return errorResponse(400, { code: 'invalid_parameter', message: parsed.message, field: parsed.field, accepted: parsed.accepted }, headers);
        const log = publishedLogFrom(await store.get(LOG_PATH));
        if (!log) return notFound(here, path, route, headers);
        const result = changesPage(log, parsed.query, here.base_url);
        if (!result.ok)
          return errorResponse(400, { code: 'invalid_parameter', message: result.message, field: result.field, accepted: result.accepted }, headers);
        // The events name documents by the address the tree was built for; the page names this server's.
        const builtFor = (await toolDataFrom(store))?.baseUrl ?? site.base_url;
        const page = new TextEncoder().encode(relocate(canonicalJson(result.page), builtFor, here.base_url)) as Uint8Array<ArrayBuffer>;
        return documentResponse(await jsonBytesDocument(href('changes'), page, result.lastModified), request, {
          ...headers,
          'x-cursor': String(result.page.cursor),
        });
      }
      case 'stats':
        return documentResponse((await views.read()).stats, request, { ...headers, 'cache-control': 'max-age=60' });
      case 'hits':
        return hitsResponse(visits, request, url, here.base_url, headers);
      case 'agent-card': {
        // Stored for static hosts; here it names this server's own /a2a, so an A2A client stays on it.
        const lastModified = (await store.get(path))?.lastModified ?? (await store.generatedAt());
        return documentResponse(await jsonDocument(path, agentCard(here), lastModified), request, headers);
      }
      case 'health':
        return healthResponse(healthDocument(await store.generatedAt()), headers);
      case 'tool':
      case 'mcp':
      case 'a2a': {
        const data = await toolDataFrom(store);
        if (!data) return errorResponse(503, { code: 'not_ready', message: 'The published tree lacks the documents the tools read; rebuild dist/.' }, headers);
        const address = options.addressOf?.(request) ?? null;
        // The log is asked only where a tool that reads the answer can be called: a round trip
        // to its thread for every robots.txt audit would be work for nothing.
        const history = toolsAt(how).some((name) => toolByName(name)?.readsCallerHistory) ? await historyOf(visits, address) : undefined;
        const signatureHeaders = {
          signature: request.headers.get('signature'),
          signatureInput: request.headers.get('signature-input'),
          signatureAgent: request.headers.get('signature-agent'),
        };
        const caller = { userAgent: request.headers.get('user-agent'), address, signatureHeaders, ...(history === undefined ? {} : { history }) };
        const context = { data, caller, runner, origin: here.base_url };
        const relocated = (response: Response) => withRelocatedBody(response, data.baseUrl, here.base_url);
        if (how.by === 'mcp') {
          // Loaded on the first MCP request: the SDK and its schema library are a fifth of a cold start.
          const { handleMcp } = await import('./mcp.ts');
          return withBodyEtag(await relocated(withMissingHeaders(await handleMcp(request, mcpServer(how.server), context), headers)));
        }
        if (how.by === 'a2a') return withBodyEtag(await relocated(withMissingHeaders(await handleA2a(request, context, here), headers)));
        const tool = toolByName(how.tool)!;
        // An answer about the caller is theirs alone: no shared cache keeps it, and it has no date
        // another caller's If-Modified-Since could match; its ETag covers bytes that name the caller (docs/API.md §5.2).
        const forCaller = tool.answersForCaller === true;
        const answerHeaders = { ...headers, 'cache-control': forCaller ? 'private, no-cache' : 'no-cache', vary: 'Accept, Accept-Encoding' };
        const dated = { dated: !forCaller };
        const result = await callTool({ tool, request, url, ...context, generatedAt: await store.generatedAt(), headers, origin: here.base_url });
        if ('response' in result) {
          // A browser that submitted a form and was refused reads why, with the way back to the form.
          const refused = result.response;
          if (refused.status === 400 && /json/.test(refused.headers.get('content-type') ?? '') && prefersHtml(request.headers.get('accept'))) {
            const detail = ((await refused.json()) as { error: { message: string; field?: string; accepted?: string } }).error;
            const page = toolErrorReport(here, toolHref(tool, 'form'), detail);
            return new Response(page, {
              status: 400,
              headers: { ...answerHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
            });
          }
          return refused;
        }
        // A browser that submitted a form gets the answer as a readable report; programs keep the JSON.
        if (result.answered && prefersHtml(request.headers.get('accept'))) {
          const output = JSON.parse(new TextDecoder().decode(result.document.bytes)) as unknown;
          const page = toolReport(here, tool, toolHref(tool, 'form'), output);
          const bytes = new TextEncoder().encode(page);
          // The report lays the answer out in tables: the answer limit holds for the page as sent too.
          const tooLarge = answerTooLarge(bytes.length);
          if (tooLarge !== null) {
            const refusal = toolErrorReport(here, toolHref(tool, 'form'), { message: tooLarge, accepted: ANSWER_FORM });
            return new Response(refusal, {
              status: 400,
              headers: { ...answerHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
            });
          }
          const report = {
            path: result.document.path,
            bytes,
            type: 'text/html; charset=utf-8',
            etag: await etagOfWeb(bytes),
            lastModified: result.document.lastModified,
          };
          return documentResponse(report, request, answerHeaders, dated);
        }
        return documentResponse(result.document, request, answerHeaders, dated);
      }
    }
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
      const rawPath = query === -1 ? pathAndQuery : pathAndQuery.slice(0, query);
      // Only paths that name a document exactly; anything to decode or refuse takes fetch().
      if (rawPath.includes('%')) return null;
      const resolved = resolvePath(rawPath);
      if (!resolved.ok) return null;
      const path = canonicalPath(resolved.path);
      const route = findRoute(path);
      // A stored path answered by code (dist/changes.json is the static hosts' first page; this
      // server pages it). Decided from the route, never remembered per path: clients choose paths.
      if (route !== undefined && isDynamicRoute(route)) return null;
      const choice = negotiate(route, path, canonicalAddress(route, resolved.path, path, resolved.prefixed), request.accept);
      const stored = store.peek?.(choice.served);
      if (!stored) return null;
      // A page's counters are written once per reading of the log; until then, fetch() builds it.
      const document = live(stored) ? livePage.peek(stored) : stored;
      if (!document) return null;
      const cursor = cursorFrom(store.peek?.(LOG_PATH) ?? null);
      return preparedFor(document, path, choice.form, cursor, originOf(request.origin, request.fallbackOrigin)).answer(request);
    },

    refuseMethod(method, pathAndQuery) {
      const resolved = resolvePath(pathAndQuery.split('?', 1)[0] ?? '/');
      const path = resolved.ok ? canonicalPath(resolved.path) : href('home');
      return withSecurityHeaders(methodNotAllowed(method, allowedMethods(findRoute(path)), { ...CORS }));
    },
  };
}

/**
 * SPEC 7: every answer with a body carries an ETag. A JSON-RPC answer is computed per call,
 * so its tag is taken over the bytes it sends (it still tells a client whether two answers are
 * the same); a stream (an SSE answer) or an empty body keeps none.
 */
async function withBodyEtag(response: Response): Promise<Response> {
  if (response.headers.has('etag') || !response.headers.get('content-type')?.startsWith('application/json') || response.body === null) return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set('etag', `"${await etagOfWeb(bytes)}"`);
  return new Response(bytes, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A JSON-RPC answer (or its event stream) with the build's base URL replaced by the client's
 * origin, as a tool's HTTP answer is (http/origin.ts); bounded by the JSON-RPC answer limit.
 */
async function withRelocatedBody(response: Response, from: string, to: string): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (from === to || response.body === null || !/^(application\/json|text\/event-stream)/.test(type)) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(relocate(text, from, to), { status: response.status, statusText: response.statusText, headers });
}

/** The tools a dynamic route can call: its own, an MCP server's, or (A2A) every one. */
function toolsAt(how: Extract<Answer, { by: 'tool' | 'mcp' | 'a2a' }>): readonly string[] {
  if (how.by === 'tool') return [how.tool];
  if (how.by === 'mcp') return mcpServer(how.server).tools;
  return TOOLS.map((tool) => tool.name);
}

/** What the log knows of an address before this request (which is recorded once answered). */
async function historyOf(visits: Visits, address: string | null): Promise<CallerHistory> {
  const health = visits.log.health();
  if (health.state !== 'ok' || address === null) return { log: health.state, reason: health.reason, visitor: null };
  const now = visits.now?.() ?? Date.now();
  try {
    return { log: 'ok', reason: null, visitor: await visits.log.visitor(visits.hashAddress(address, now)) };
  } catch (error) {
    if (!(error instanceof LogBusy)) throw error;
    return { log: 'unavailable', reason: error.message, visitor: null };
  }
}

function notFound(here: SiteSettings, path: string, route: Route | undefined, headers: Record<string, string>): Response {
  if (route?.parameter) {
    const value = matchRoute(route, path) ?? '';
    return errorResponse(
      404,
      {
        code: 'not_found',
        message: `No ${route.parameter.name} ${quote(value)} at ${route.path}. Valid values are listed in ${route.parameter.values_from}.`,
        field: route.parameter.name,
        accepted: route.parameter.values_from,
      },
      headers,
    );
  }
  return errorResponse(404, { code: 'not_found', message: `No document at ${quote(path)}. Every path is listed at ${here.base_url}${API_PREFIX}.` }, headers);
}
