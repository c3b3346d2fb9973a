import { canonicalJson } from '../render/output.ts';
import type { SiteSettings } from '../records/types.ts';
import { contentTypeOf, findRoute, matchRoute, type Method, type Route } from '../routes.ts';
import { apiRootDocument } from './api-root.ts';
import { httpDate, notModified } from './conditional.ts';
import { errorResponse, type ErrorDetail } from './errors.ts';
import { changesPage, parseChangesQuery, type PublishedLog } from '../changes/page.ts';
import { API_PREFIX, resolvePath } from './paths.ts';
import { MCP_SERVERS, toolByName } from '../tools/registry/index.ts';
import { callTool } from './tools-http.ts';
import { toolDataFrom } from './tool-data.ts';
import { handleMcp } from './mcp.ts';
import { handleA2a } from './a2a.ts';
import { sha256Hex32, type DocumentStore, type StoredDocument } from './store.ts';

export type Handler = (request: Request) => Promise<Response>;

// Reading a Response body back through its stream costs more than serving the bytes (about
// 3x for a 230 KB document under load). An adapter that can write bytes directly asks here
// first; any other runtime just reads the body as usual.
const knownBodies = new WeakMap<Response, Uint8Array>();

function withKnownBody(response: Response, bytes: Uint8Array): Response {
  knownBodies.set(response, bytes);
  return response;
}

export function knownBody(response: Response): Uint8Array | undefined {
  return knownBodies.get(response);
}

/** A body over the stored bytes without copying them (a Uint8Array body is copied by Response). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({ start(controller) { controller.enqueue(bytes); controller.close(); } });
}

export interface HandlerOptions {
  store: DocumentStore;
  site: SiteSettings;
  /** The client's address as the transport saw it (never from a request header a client can set). */
  addressOf?: (request: Request) => string | null;
}

/** Paths that name another document: the tool index is a folder URL. */
const ALIASES: Readonly<Record<string, string>> = { '/': '/index.html', '/tools': '/tools/index.json', '/tools/': '/tools/index.json' };

const READ_METHODS: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'ETag, Last-Modified, Link, X-Cursor' };

/** A dynamic answer: a document (with extra headers) or an error that names the bad field. */
type DynamicResult = { document: StoredDocument | null; headers?: Record<string, string> } | { error: { status: number } & ErrorDetail };
type Dynamic = (context: { site: SiteSettings; store: DocumentStore; url: URL }) => Promise<DynamicResult>;

const DYNAMIC: Readonly<Record<string, Dynamic>> = {
  api_root: async ({ site, store }) => ({ document: await json('/api/v1', apiRootDocument(site, await store.generatedAt()), await store.generatedAt()) }),
  changes: async ({ site, store, url }) => {
    const parsed = parseChangesQuery(url.searchParams);
    if (!parsed.ok) return { error: { status: 400, code: 'invalid_parameter', message: parsed.message, field: parsed.field, accepted: parsed.accepted } };
    const log = await publishedLogFrom(store);
    if (!log) return { document: null };
    const result = changesPage(log, parsed.query, site.base_url);
    if (!result.ok) return { error: { status: 400, code: 'invalid_parameter', message: result.message, field: result.field, accepted: result.accepted } };
    return { document: await json('/changes.json', result.page, result.lastModified), headers: { 'x-cursor': String(result.page.cursor) } };
  },
};

// Parsed once per published log: the ETag names the bytes, so a rebuild is picked up.
let parsedLog: { etag: string; log: PublishedLog } | null = null;

async function publishedLogFrom(store: DocumentStore): Promise<PublishedLog | null> {
  const document = await store.get('/changes/log.json');
  if (!document) return null;
  if (parsedLog?.etag !== document.etag) parsedLog = { etag: document.etag, log: JSON.parse(new TextDecoder().decode(document.bytes)) as PublishedLog };
  return parsedLog.log;
}

async function json(path: string, value: unknown, lastModified: string): Promise<StoredDocument> {
  const bytes = new TextEncoder().encode(canonicalJson(value));
  return { path, bytes, type: 'application/json', etag: await sha256Hex32(bytes), lastModified };
}

/** CORS on answers built elsewhere (MCP, A2A), without touching their own headers. */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) if (!headers.has(name)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}


/** The other forms of the same content, for the Link header (SPEC 4.4 rule 5). */
function siblingOf(path: string): { path: string; type: string } {
  const swaps: Record<string, string[]> = { '.json': ['.html', '.csv', '.txt'], '.html': ['.json'], '.md': ['.json'], '.csv': ['.json'], '.txt': ['.json'] };
  const extension = /\.[a-z]+$/.exec(path)?.[0] ?? '';
  for (const other of swaps[extension] ?? []) {
    const candidate = path.slice(0, -extension.length) + other;
    if (findRoute(candidate)) return { path: candidate, type: contentTypeOf(candidate) };
  }
  return { path: '/documents.json', type: 'application/json' };
}

function linkHeader(site: SiteSettings, path: string, prefixed: boolean, cursor: number): string {
  const sibling = siblingOf(path);
  const links = [
    // "What changed after the state this answer reflects": the feed from the current head.
    `<${site.base_url}/changes.json?since=${cursor}>; rel="related"; type="application/json"`,
    `<${site.base_url}${sibling.path}>; rel="alternate"; type="${sibling.type}"`,
    `<${site.base_url}/openapi.json>; rel="service-desc"; type="application/openapi+json"`,
  ];
  if (prefixed) links.unshift(`<${site.base_url}${path}>; rel="canonical"`);
  return links.join(', ');
}

export function createHandler(options: HandlerOptions): Handler {
  const { store, site } = options;
  return async (request) => {
    const url = new URL(request.url);
    const resolved = resolvePath(url.pathname);
    const base = { ...CORS };
    const cursor = (await publishedLogFrom(store))?.head ?? 0;
    if (!resolved.ok) {
      return errorResponse(404, { code: 'not_found', message: `No document at this path (${resolved.reason}). Paths are listed at ${site.base_url}/api/v1.` }, { ...base, link: linkHeader(site, '/index.html', false, cursor) });
    }
    const path = ALIASES[resolved.path] ?? resolved.path;
    const route = findRoute(path);
    const headers: Record<string, string> = { ...base, link: linkHeader(site, path, resolved.prefixed, cursor) };
    const allow = (route?.methods ?? READ_METHODS).join(', ');

    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: { ...headers, allow, 'access-control-allow-methods': allow, 'access-control-allow-headers': 'If-None-Match, If-Modified-Since, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, A2A-Version', 'access-control-max-age': '86400' },
      });
    }
    if (!(route?.methods ?? READ_METHODS).includes(request.method as Method)) {
      return errorResponse(405, { code: 'method_not_allowed', message: `${request.method} is not accepted here; use ${allow}.`, allow: allow.split(', ') }, { ...headers, allow });
    }

    const dynamic = route && route.source === 'dynamic' ? DYNAMIC[route.key] : undefined;
    let document: StoredDocument | null;
    if (route?.dispatch) {
      const data = await toolDataFrom(store);
      if (!data) return errorResponse(503, { code: 'not_ready', message: 'The published tree lacks the documents the tools read; rebuild dist/.' }, headers);
      const caller = { userAgent: request.headers.get('user-agent'), address: options.addressOf?.(request) ?? null };
      const { kind, name } = route.dispatch;
      if (kind === 'mcp') {
        const server = MCP_SERVERS.find((s) => s.path === name)!;
        return withHeaders(await handleMcp(request, server, { data, caller }), headers);
      }
      if (kind === 'a2a') return withHeaders(await handleA2a(request, { data, caller }, site), headers);
      const tool = toolByName(name)!;
      const result = await callTool({ tool, request, url, data, caller, generatedAt: await store.generatedAt(), headers });
      if ('response' in result) return result.response;
      document = result.document;
      headers['cache-control'] = 'no-cache';
    } else if (dynamic) {
      const result = await dynamic({ site, store, url });
      if ('error' in result) {
        const { status, ...detail } = result.error;
        return errorResponse(status, detail, headers);
      }
      document = result.document;
      Object.assign(headers, result.headers ?? {});
    } else {
      document = await store.get(path);
    }
    if (!document) return notFound(site, path, route, headers);

    Object.assign(headers, {
      'content-type': document.type,
      etag: `"${document.etag}"`,
      'last-modified': httpDate(document.lastModified),
      'cache-control': headers['cache-control'] ?? 'public, max-age=300, must-revalidate',
    });
    if (request.method !== 'POST' && notModified(request, document.etag, document.lastModified)) return new Response(null, { status: 304, headers });
    headers['content-length'] = String(document.bytes.length);
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    return withKnownBody(new Response(streamOf(document.bytes), { status: 200, headers }), document.bytes);
  };
}

function notFound(site: SiteSettings, path: string, route: Route | undefined, headers: Record<string, string>): Response {
  if (route?.parameter) {
    const value = matchRoute(route, path) ?? '';
    return errorResponse(404, {
      code: 'not_found',
      message: `No ${route.parameter.name} "${value}" at ${route.path}. Valid values are listed in ${route.parameter.values_from}.`,
      field: route.parameter.name,
      accepted: route.parameter.values_from,
    }, headers);
  }
  return errorResponse(404, { code: 'not_found', message: `No document at ${path}. Every path is listed at ${site.base_url}${API_PREFIX}.` }, headers);
}
