import { MCP_SERVERS, TOOLS } from './tools/registry/index.ts';

// The one table of public paths. The server dispatches on it (each route says how it is
// answered), renderers and the model build every URL with href(), and the endpoint map in
// /data/agents.json, the /api/v1 root, the home page's list, OpenAPI and the 405 Allow
// header are generated from it. A path is written here once.

export type Method = 'GET' | 'HEAD' | 'OPTIONS' | 'POST';

interface PathParameter {
  name: string;
  /** Where a client finds the allowed values. */
  values_from: string;
}

export interface Route {
  /** Path relative to the base URL; `{name}` marks a parameter. */
  path: string;
  /** Key in the endpoint map of /data/agents.json. */
  key: string;
  type: string;
  returns: string;
  methods: readonly Method[];
  statuses: readonly number[];
  parameter?: PathParameter;
  /** How the server answers the path; every kind but `document` is computed per request. */
  answer: Answer;
  /** Other paths answered the same way (a folder URL for its index, `/` for the home page). */
  aliases?: readonly string[];
  /** Query parameters of a dynamic path (tools describe theirs in the tool registry). */
  query?: readonly { name: string; description: string; schema: Record<string, unknown> }[];
  /** The output schema (schemas/outputs/<name>.schema.json) every JSON answer of this path satisfies. */
  schema?: string;
}

/**
 * How a route is answered: `document`, the stored bytes of dist/ (a static host serves these
 * alone); the others by the server. http/handler.ts has one case per kind.
 */
export type Answer =
  | { by: 'document' }
  | { by: 'changes' }
  | { by: 'api-root' }
  | { by: 'stats' }
  | { by: 'hits' }
  | { by: 'tool'; tool: string }
  | { by: 'mcp'; server: string }
  | { by: 'a2a' };

export function isDynamic(route: Route): boolean {
  return route.answer.by !== 'document';
}

const READ: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.css': 'text/css; charset=utf-8',
};

// Documents whose media type is more specific than their extension's.
const PATH_TYPES: Readonly<Record<string, string>> = {
  '/feed.json': 'application/feed+json',
  '/feed.xml': 'application/rss+xml',
};

export function contentTypeOf(path: string): string {
  const exact = PATH_TYPES[path];
  if (exact) return exact;
  const extension = /\.[a-z]+$/.exec(path)?.[0] ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

const doc = (key: string, path: string, returns: string, parameter?: PathParameter, schema?: string, aliases?: readonly string[]): Route => ({
  key,
  path,
  returns,
  parameter,
  schema,
  type: contentTypeOf(path),
  methods: READ,
  statuses: parameter ? [200, 304, 404] : [200, 304],
  answer: { by: 'document' },
  ...(aliases ? { aliases } : {}),
});

const CRAWLER: PathParameter = { name: 'slug', values_from: '/data/agents.json: crawlers[].slug' };
const OPERATOR: PathParameter = { name: 'slug', values_from: '/data/agents.json: crawlers[].operator_slug' };
const CATEGORY: PathParameter = { name: 'slug', values_from: '/data/agents.json: categories[].id' };
const POLICY: PathParameter = { name: 'policy', values_from: '/data/agents.json: policies[].id' };
const SOURCE: PathParameter = { name: 'source', values_from: '/data/ip-sources.json: sources[].id' };

/**
 * Built on first use, not at import: the table lists the tools' routes, and the tools'
 * modules import renderers that import this one, so the registry may not be loaded yet when
 * this module is.
 */
export function routes(): readonly Route[] {
  return (table ??= buildRoutes());
}

let table: readonly Route[] | null = null;

const buildRoutes = (): readonly Route[] => [
  doc('home', '/index.html', 'Home page: what the index is and how to use it', undefined, undefined, ['/']),
  doc('agents', '/data/agents.json', 'Crawler list: every crawler record, categories, policies, endpoint map', undefined, 'agents'),
  doc('agents_csv', '/data/agents.csv', 'Crawler table as CSV (RFC 4180, header row)'),
  doc('ua_regex', '/data/ua-regex.json', 'Pre-escaped user-agent regex alternations: all, ai_only, by_category', undefined, 'ua-regex'),
  doc('crawler', '/crawler/{slug}.json', 'One crawler record', CRAWLER, 'crawler'),
  doc('crawler_html', '/crawler/{slug}.html', 'One crawler record as a page for people', CRAWLER),
  doc('crawler_markdown', '/crawler/{slug}.md', 'One crawler record as Markdown for models', CRAWLER),
  doc('operator', '/operator/{slug}.json', 'An operator and its crawlers', OPERATOR, 'operator'),
  doc('category', '/category/{slug}.json', 'A category and its crawlers', CATEGORY, 'category'),
  doc('policy', '/policy/{policy}.json', 'A robots.txt policy: rule, rationale, caveats, crawlers it names', POLICY, 'policy'),
  doc('robots', '/robots/{policy}.txt', 'A robots.txt fragment ready to append', POLICY),
  doc('ip_sources', '/data/ip-sources.json', 'Which operators publish IP prefix lists, where, and the state of our mirror of each', undefined, 'ip-sources'),
  doc('ip_ranges_all', '/ip-ranges/all.json', 'Every mirrored prefix, grouped by source, with stale sources named', undefined, 'ip-ranges-all'),
  doc('ip_ranges_text', '/ip-ranges/all.txt', 'Every mirrored prefix, one CIDR per line, # comment lines between sources'),
  doc('ip_ranges', '/ip-ranges/{source}.json', 'One operator list: ipv4, ipv6, counts, provenance, state', SOURCE, 'ip-ranges'),
  doc('status', '/status.json', 'Upstream status: per-source state, last attempt, last success, last change, error', undefined, 'status'),
  {
    key: 'changes',
    path: '/changes.json',
    schema: 'changes',
    query: [
      {
        name: 'since',
        description:
          'A cursor from an earlier response, or an ISO 8601 timestamp with a time zone (or a date). Omitted: from the oldest retained event. Anything else is a 400.',
        schema: { type: 'string', examples: ['42', '2026-11-22T06:00:00Z'] },
      },
      { name: 'limit', description: 'Events per page.', schema: { type: 'integer', minimum: 1, maximum: 400, default: 100 } },
    ],
    type: 'application/json',
    returns: 'Change feed page: events after a cursor or time, oldest first (since, limit)',
    methods: READ,
    statuses: [200, 304, 400],
    answer: { by: 'changes' },
  },
  doc('changes_log', '/changes/log.json', 'Every retained change event (what /changes.json pages through)', undefined, 'changes-log'),
  doc('feed_json', '/feed.json', 'JSON Feed 1.1 of the newest changes', undefined, 'feed'),
  doc('feed_rss', '/feed.xml', 'RSS 2.0 feed of the newest changes'),
  doc(
    'clients',
    '/data/clients.json',
    'HTTP clients that are not crawlers (monitors, libraries, tools) that classify-ua names when no crawler matches',
    undefined,
    'clients',
  ),
  {
    key: 'stats',
    path: '/stats.json',
    schema: 'stats',
    type: 'application/json',
    returns:
      "Public aggregate of the service's own request log: by day, route, status, crawler and category, and what the addresses of requests naming a crawler showed",
    methods: READ,
    statuses: [200, 304],
    answer: { by: 'stats' },
  },
  {
    key: 'hits',
    path: '/hits.json',
    schema: 'hits',
    query: [
      { name: 'key', description: 'The export key (EXPORT_KEY of the server); or send it as Authorization: Bearer <key>.', schema: { type: 'string' } },
      {
        name: 'cursor',
        description: 'The id after which to read; the next_cursor of the previous page. Omitted: from the oldest row.',
        schema: { type: 'integer', minimum: 0, default: 0 },
      },
      { name: 'limit', description: 'Rows per page.', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
    ],
    type: 'application/json',
    returns: "The raw request log, oldest first, paged by cursor; needs the export key (the service's only 401)",
    methods: READ,
    statuses: [200, 400, 401],
    answer: { by: 'hits' },
  },
  doc('coverage', '/data/coverage.json', 'Counts per category, robots.txt stance and verification method; crawlers named per policy', undefined, 'coverage'),
  doc('tools', '/tools/index.json', 'Index of the keyless tools and MCP servers (also at /tools/)', undefined, 'tool-index', ['/tools', '/tools/']),
  ...TOOLS.flatMap((tool): Route[] =>
    tool.path === null
      ? []
      : [
          {
            key: toolRouteKey(tool.name, 'endpoint'),
            path: `/tools/${tool.path}`,
            type: 'application/json',
            returns: `${tool.title} (tool ${tool.name}); no parameters: its specification`,
            methods: tool.postBody ? ['GET', 'HEAD', 'POST', 'OPTIONS'] : READ,
            statuses: tool.postBody ? [200, 304, 400, 405, 413, 503] : [200, 304, 400, 405, 503],
            answer: { by: 'tool', tool: tool.name },
          },
          doc(toolRouteKey(tool.name, 'spec'), `/tools/${tool.path}.json`, `Machine specification of ${tool.name}`, undefined, 'tool-spec'),
          doc(toolRouteKey(tool.name, 'form'), `/tools/${tool.path}.html`, `A form page for ${tool.name}`),
        ],
  ),
  ...MCP_SERVERS.map(
    (server): Route => ({
      key: server.path.slice(1).replace(/\//g, '_'),
      path: server.path,
      type: 'application/json',
      returns: `MCP server (JSON-RPC 2.0, Streamable HTTP): ${server.tools.join(', ')}`,
      methods: ['POST'],
      statuses: [200, 400, 405, 413],
      answer: { by: 'mcp', server: server.path },
    }),
  ),
  {
    key: 'a2a',
    path: '/a2a',
    type: 'application/json',
    returns: 'Agent-to-agent endpoint (JSON-RPC 2.0, message/send)',
    methods: ['POST'],
    statuses: [200, 405, 413],
    answer: { by: 'a2a' },
  },
  doc('agent_card', '/.well-known/agent-card.json', 'A2A agent card describing /a2a and its skills', undefined, 'agent-card'),
  doc('openapi', '/openapi.json', 'OpenAPI 3.1 description of every path, generated from this table', undefined, 'openapi'),
  doc('documents', '/documents.json', 'Document ledger: path, bytes, ETag and Last-Modified of every document', undefined, 'documents'),
  doc('documents_txt', '/documents.txt', 'Document ledger as tab-separated text'),
  {
    key: 'api_root',
    path: '/api/v1',
    type: 'application/json',
    returns: 'Root document of the v1 API: access, license, endpoints',
    methods: READ,
    statuses: [200, 304],
    answer: { by: 'api-root' },
  },
];

let indexes: { byKey: Map<string, Route>; byAlias: Map<string, Route> } | null = null;
function lookups() {
  return (indexes ??= {
    byKey: new Map(routes().map((route) => [route.key, route])),
    byAlias: new Map(routes().flatMap((route) => (route.aliases ?? []).map((alias) => [alias, route] as const))),
  });
}

/**
 * The path of a route, relative to the base URL, with its parameter filled in: every URL the
 * renderers, the model and the tools' specifications write comes from here. An unknown key or a
 * missing parameter is a programming error and throws.
 */
export function href(key: string, value?: string): string {
  const route = routeOf(key);
  if (route.parameter === undefined) return route.path;
  if (value === undefined || value === '' || value.includes('/'))
    throw new Error(`href: ${key} needs one path segment for {${route.parameter.name}}, got ${JSON.stringify(value)}`);
  return route.path.replace(`{${route.parameter.name}}`, value);
}

/** The route with this key; an unknown key is a programming error and throws. */
export function routeOf(key: string): Route {
  const route = lookups().byKey.get(key);
  if (route === undefined) throw new Error(`no route has the key "${key}"`);
  return route;
}

/** The key of each of a tool's three routes. */
export function toolRouteKey(tool: string, form: 'endpoint' | 'spec' | 'form'): string {
  return form === 'endpoint' ? `tool_${tool}` : `tool_${tool}_${form}`;
}

/** The stored path an alias stands for (`/` → `/index.html`), or the path itself. */
export function canonicalPath(path: string): string {
  return lookups().byAlias.get(path)?.path ?? path;
}

/** The route a concrete path belongs to, if any. */
export function findRoute(path: string): Route | undefined {
  return routes().find((route) => matchRoute(route, path) !== undefined);
}

/** Matches a concrete path against a route's pattern; returns the parameter value or null. */
export function matchRoute(route: Route, path: string): string | null | undefined {
  if (!route.parameter) return route.path === path ? null : undefined;
  const [before, after] = route.path.split(`{${route.parameter.name}}`) as [string, string];
  if (!path.startsWith(before) || !path.endsWith(after) || path.length <= before.length + after.length) return undefined;
  const value = path.slice(before.length, path.length - after.length);
  return value.includes('/') ? undefined : value;
}
