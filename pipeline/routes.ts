import { contentTypeOf, matchTemplate, PATHS, type PathKey, TOOLS_FOLDER, toolHref } from './paths.ts';
import { MCP_SERVERS, TOOLS } from './tools/registry/index.ts';

// The route table: what each published path (paths.ts) is and how it is answered. The server
// dispatches on it, and the endpoint map in /data/agents.json, the /api/v1 root, the home
// page's list, OpenAPI, the static hosts' rules and the 405 Allow header are generated from it.
// It lists the tools' routes, so it sits above the tool registry: only the handler, the
// documentation renderers and the build import it; everything else writes URLs with href()
// from paths.ts (test/layers.test.ts holds both to that).

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
  /**
   * The address to name in `Link: rel=canonical` when the document is reached by any other of
   * its paths (the reference is stored as /reference.html and published as /reference).
   */
  canonical?: string;
  /** The route whose JSON form answers a request that prefers application/json (`Accept`). */
  jsonForm?: string;
  /**
   * For a path the build writes into dist/: the module under pipeline/ whose renderer writes it
   * (`render/crawlers.ts`), so any URL leads to its code in one step. test/outputs.test.ts
   * checks it against what the build renders. Computed answers are in the module that owns
   * their `answer.by` (http/handler.ts lists them).
   */
  writtenBy?: string;
  /** Which part of the reference, llms.txt and the home page lists the path under. */
  group: RouteGroup;
  /** Query parameters of a dynamic path (tools describe theirs in the tool registry). */
  query?: readonly { name: string; description: string; schema: Record<string, unknown> }[];
  /** The output schema (schemas/outputs/<name>.schema.json) every JSON answer of this path satisfies. */
  schema?: string;
}

/**
 * How a route is answered: `document`, the stored bytes of dist/ (a static host serves these
 * alone); the others by the server. http/handler.ts maps each kind to its answerer.
 */
export type Answer =
  | { by: 'document' }
  | { by: 'changes' }
  | { by: 'api-root' }
  | { by: 'stats' }
  | { by: 'hits' }
  | { by: 'health' }
  | { by: 'tool'; tool: string }
  | { by: 'mcp'; server: string }
  | { by: 'a2a' }
  | { by: 'agent-card' };

export const ROUTE_GROUPS = {
  data: 'Crawler data',
  policies: 'robots.txt policies',
  'ip-ranges': 'IP ranges',
  'signature-agents': 'Signature keys (Web Bot Auth)',
  freshness: 'Freshness, changes and the request log',
  tools: 'Keyless tools',
  protocols: 'MCP and A2A',
  docs: 'Documentation and discovery',
} as const;
export type RouteGroup = keyof typeof ROUTE_GROUPS;

export function isDynamic(route: Route): boolean {
  return route.answer.by !== 'document';
}

const READ: readonly Method[] = ['GET', 'HEAD', 'OPTIONS'];

type Ungrouped = Omit<Route, 'group'>;

const stored = (
  key: string,
  path: string,
  writtenBy: string,
  returns: string,
  parameter?: PathParameter,
  schema?: string,
  more: Partial<Ungrouped> = {},
): Ungrouped => ({
  key,
  path,
  writtenBy,
  returns,
  parameter,
  schema,
  type: contentTypeOf(path),
  methods: READ,
  statuses: parameter ? [200, 304, 404] : [200, 304],
  answer: { by: 'document' },
  ...more,
});

/** A stored document at one of the published paths (paths.ts). */
const doc = (key: PathKey, writtenBy: string, returns: string, parameter?: PathParameter, schema?: string, more: Partial<Ungrouped> = {}): Ungrouped =>
  stored(key, PATHS[key], writtenBy, returns, parameter, schema, more);

const inGroup = (group: RouteGroup, list: readonly Ungrouped[]): Route[] => list.map((route) => ({ ...route, group }));

const CRAWLER: PathParameter = { name: 'slug', values_from: `${PATHS.agents}: crawlers[].slug` };
const OPERATOR: PathParameter = { name: 'slug', values_from: `${PATHS.agents}: crawlers[].operator_slug` };
const CATEGORY: PathParameter = { name: 'slug', values_from: `${PATHS.agents}: categories[].id` };
const POLICY: PathParameter = { name: 'policy', values_from: `${PATHS.agents}: policies[].id` };
const SOURCE: PathParameter = { name: 'source', values_from: `${PATHS.ip_sources}: sources[].id` };
const DIRECTORY: PathParameter = { name: 'source', values_from: `${PATHS.signature_agents}: agents[].id` };

/** Every public path and how it is answered. */
const ROUTES: readonly Route[] = [
  ...inGroup('docs', [doc('home', 'render/home.ts', 'Home page: what the index is and how to use it', undefined, undefined, { aliases: ['/'] })]),
  ...inGroup('data', [
    doc('agents', 'render/data.ts', 'Crawler list: every crawler record, categories, policies, endpoint map', undefined, 'agents'),
    doc('agents_csv', 'render/data.ts', 'Crawler table as CSV (RFC 4180, header row)'),
    doc('ua_regex', 'render/data.ts', 'Pre-escaped user-agent regex alternations: all, ai_only, by_category', undefined, 'ua-regex'),
    doc('crawler', 'render/crawlers.ts', 'One crawler record', CRAWLER, 'crawler'),
    doc('crawler_html', 'render/crawlers.ts', 'One crawler record as a page for people', CRAWLER),
    doc('crawler_markdown', 'render/crawlers.ts', 'One crawler record as Markdown for models', CRAWLER),
    doc('operator', 'render/groups.ts', 'An operator and its crawlers', OPERATOR, 'operator'),
    doc('operator_html', 'render/site-pages.ts', 'An operator and its crawlers as a page', OPERATOR),
    doc('category', 'render/groups.ts', 'A category and its crawlers', CATEGORY, 'category'),
    doc('category_html', 'render/site-pages.ts', 'A category, its crawlers and the policies that name it, as a page', CATEGORY),
  ]),
  ...inGroup('policies', [
    doc('policy', 'render/policies.ts', 'A robots.txt policy: rule, rationale, caveats, crawlers it names', POLICY, 'policy'),
    doc('policy_html', 'render/site-pages.ts', 'A robots.txt policy as a page: what it names, what it leaves out and why, what it costs', POLICY),
    doc('policies_html', 'render/site-pages.ts', 'The policies side by side: which categories each one names, how many crawlers, what it costs'),
    doc('robots', 'render/policies.ts', 'A robots.txt fragment ready to append', POLICY),
    doc(
      'policy_nginx',
      'render/server/configs.ts',
      'The policy enforced by nginx: a map on the User-Agent to include in http { }, and the one line that answers 403',
      POLICY,
    ),
    doc('policy_apache', 'render/server/configs.ts', 'The policy enforced by Apache: mod_rewrite lines for an .htaccess file or a server block', POLICY),
    doc('policy_caddy', 'render/server/configs.ts', 'The policy enforced by Caddy: a header_regexp matcher and its 403, for a site block', POLICY),
    doc(
      'policy_haproxy',
      'render/server/configs.ts',
      'The policy enforced by HAProxy: ACL lines on the whole User-Agent and the deny rule, for a frontend',
      POLICY,
    ),
    doc(
      'policy_accuracy',
      'render/server/accuracy.ts',
      'Measured accuracy of every server config: crawlers matched and missed, real browser headers matched, peer crawler headers matched',
      undefined,
      'policy-accuracy',
    ),
  ]),
  ...inGroup('ip-ranges', [
    doc('ip_sources', 'render/ip-ranges.ts', 'Which operators publish IP prefix lists, where, and the state of our mirror of each', undefined, 'ip-sources'),
    doc('ip_ranges_all', 'render/ip-ranges.ts', 'Every mirrored prefix, grouped by source, with stale sources named', undefined, 'ip-ranges-all'),
    doc('ip_ranges_text', 'render/ip-ranges.ts', 'Every mirrored prefix, one CIDR per line, # comment lines between sources'),
    doc('ip_ranges', 'render/ip-ranges.ts', 'One operator list: ipv4, ipv6, counts, provenance, state', SOURCE, 'ip-ranges'),
    doc(
      'ip_ranges_nginx',
      'render/server/allow-lists.ts',
      'One operator list as an nginx geo block, with a map that flags a request claiming one of its crawlers from any other address',
      SOURCE,
    ),
    doc('ip_ranges_haproxy', 'render/server/allow-lists.ts', 'One operator list as an HAProxy ACL file (src -f), with the lines that refuse impostors', SOURCE),
  ]),
  ...inGroup('signature-agents', [
    doc(
      'signature_agents',
      'render/signature-agents.ts',
      'Every mirrored Web Bot Auth key directory: its signer, state, key thumbprints and validity, the crawlers that sign with it',
      undefined,
      'signature-agents',
    ),
    doc(
      'signature_agent',
      'render/signature-agents.ts',
      "One key directory: its public keys (JWK, thumbprint, validity), the response as served with the directory's own signature, state",
      DIRECTORY,
      'signature-agent',
    ),
  ]),
  ...inGroup('freshness', [
    doc('status', 'render/ip-ranges.ts', 'Upstream status: per-source state, last attempt, last success, last change, error', undefined, 'status'),
    {
      key: 'changes',
      path: PATHS.changes,
      // Its first page is stored too, for static hosts; the server pages the stored log itself.
      writtenBy: 'render/changes.ts',
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
    doc('changes_log', 'render/changes.ts', 'Every retained change event (what /changes.json pages through)', undefined, 'changes-log'),
    doc('feed_json', 'render/feeds.ts', 'JSON Feed 1.1 of the newest changes', undefined, 'feed'),
    doc('feed_rss', 'render/feeds.ts', 'RSS 2.0 feed of the newest changes'),
  ]),
  ...inGroup('data', [
    doc(
      'clients',
      'render/clients.ts',
      'HTTP clients that are not crawlers (monitors, libraries, tools) that classify-ua names when no crawler matches',
      undefined,
      'clients',
    ),
  ]),
  ...inGroup('freshness', [
    {
      key: 'stats',
      path: PATHS.stats,
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
      path: PATHS.hits,
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
      statuses: [200, 400, 401, 503],
      answer: { by: 'hits' },
    },
    {
      key: 'healthz',
      path: PATHS.healthz,
      schema: 'health',
      type: 'application/json',
      returns: 'Liveness: 200 while the server runs with a build of dist/ loaded (a container HEALTHCHECK asks for it); never cached. Not on a static host',
      methods: READ,
      statuses: [200],
      answer: { by: 'health' },
    },
  ]),
  ...inGroup('data', [
    doc('coverage', 'render/coverage.ts', 'Counts per category, robots.txt stance and verification method; crawlers named per policy', undefined, 'coverage'),
    doc(
      'crosswalk',
      'render/crosswalk.ts',
      "Every name of the peer datasets (ai.robots.txt, crawler-user-agents, device-detector's bots) mapped to the crawler records that cover it, or to why none does",
      undefined,
      'crosswalk',
    ),
  ]),
  ...inGroup('tools', [
    doc('tools', 'render/tools.ts', 'Index of the keyless tools and MCP servers', undefined, 'tool-index'),
    doc(
      'tools_html',
      'render/site-pages.ts',
      'The tools as a page, with their forms (also at /tools/; JSON with Accept: application/json)',
      undefined,
      undefined,
      {
        aliases: [TOOLS_FOLDER.slice(0, -1), TOOLS_FOLDER],
        jsonForm: 'tools',
      },
    ),
    ...TOOLS.flatMap((tool): Ungrouped[] =>
      tool.path === null
        ? []
        : [
            {
              key: toolRouteKey(tool.name, 'endpoint'),
              path: toolHref(tool, 'endpoint'),
              type: 'application/json',
              returns: `${tool.title} (tool ${tool.name}); no parameters: its specification`,
              methods: tool.postBody ? ['GET', 'HEAD', 'POST', 'OPTIONS'] : READ,
              statuses: tool.postBody ? [200, 304, 400, 405, 413, 503] : [200, 304, 400, 405, 503],
              answer: { by: 'tool', tool: tool.name },
            },
            stored(toolRouteKey(tool.name, 'spec'), toolHref(tool, 'spec'), 'render/tools.ts', `Machine specification of ${tool.name}`, undefined, 'tool-spec'),
            stored(toolRouteKey(tool.name, 'form'), toolHref(tool, 'form'), 'render/tools.ts', `A form page for ${tool.name}`),
          ],
    ),
  ]),
  ...inGroup('protocols', [
    ...MCP_SERVERS.map(
      (server): Ungrouped => ({
        // Keys from the server's id, so they stayed the same when the paths moved to end in /mcp.
        key: server.id === 'all' ? 'mcp' : `mcp_${server.id}`,
        path: server.path,
        type: 'application/json',
        returns: `MCP server (JSON-RPC 2.0, Streamable HTTP): ${server.id === 'all' ? 'every tool' : server.tools.join(', ')}`,
        methods: ['POST'],
        statuses: [200, 400, 405, 406, 413, 415],
        answer: { by: 'mcp', server: server.path },
        ...(server.legacyPath === null ? {} : { aliases: [server.legacyPath], canonical: server.path }),
      }),
    ),
    {
      key: 'a2a',
      path: PATHS.a2a,
      type: 'application/json',
      returns: 'Agent-to-agent endpoint (JSON-RPC 2.0): SendMessage (A2A 1.0) and message/send (A2A 0.3)',
      methods: ['POST'],
      statuses: [200, 405, 413],
      answer: { by: 'a2a' },
    },
    doc('agent_card', 'render/agent-card.ts', 'A2A agent card (1.0, with the 0.3 fields) describing /a2a and its skills', undefined, 'agent-card', {
      // The name A2A used before 0.3; older clients still ask for it.
      aliases: ['/.well-known/agent.json'],
      canonical: PATHS.agent_card,
      // Stored for static hosts; the server names its own origin in it, so a client stays there.
      answer: { by: 'agent-card' },
    }),
  ]),
  ...inGroup('docs', [
    doc('openapi', 'render/openapi.ts', 'OpenAPI 3.1 description of every path, generated from this table', undefined, 'openapi'),
    doc('documents', 'ledger/ledger.ts', 'Document ledger: path, bytes, ETag and Last-Modified of every document', undefined, 'documents'),
    doc('documents_txt', 'ledger/ledger.ts', 'Document ledger as tab-separated text'),
    {
      key: 'api_root',
      path: PATHS.api_root,
      type: 'application/json',
      returns: 'Root document of the v1 API: access, license, endpoints',
      methods: READ,
      statuses: [200, 304],
      answer: { by: 'api-root' },
    },
    doc(
      'reference',
      'render/reference.ts',
      'The API reference for people: every path, tool, MCP server and document, generated from this table (JSON with Accept: application/json)',
      undefined,
      undefined,
      { aliases: ['/reference', '/docs', '/documentation', '/api', '/api/docs', '/api.html'], canonical: '/reference', jsonForm: 'reference_json' },
    ),
    doc('reference_json', 'render/reference.ts', 'The same reference as JSON (also at /api.json)', undefined, 'reference', {
      aliases: ['/api.json'],
      canonical: '/reference.json',
    }),
    doc('reference_markdown', 'render/reference.ts', 'The same reference as Markdown'),
    doc('openapi_yaml', 'render/openapi.ts', 'The OpenAPI 3.1 description as YAML: the same object as /openapi.json'),
    doc(
      'swagger',
      'render/openapi.ts',
      'Swagger 2.0 conversion of the OpenAPI description; published only while the conversion keeps every path, parameter, status and schema keyword',
      undefined,
      'swagger',
    ),
    doc(
      'api_versions',
      'render/discovery.ts',
      'The API versions: v1 is the only one; an incompatible change would be announced here first',
      undefined,
      'api-versions',
    ),
    doc('llms', 'render/discovery.ts', 'An llms.txt index (llmstxt.org): what the service is and the documents a model should read'),
    doc('llms_full', 'render/discovery.ts', 'The llms.txt index with the whole API reference inline'),
    doc('apis_json', 'render/discovery.ts', 'APIs.json (apisjson.org 0.19) description of the service', undefined, 'apis-json'),
    doc('apis_yaml', 'render/discovery.ts', 'The same APIs.json description as YAML', undefined, undefined, {
      aliases: ['/apis.yaml', '/.well-known/apis.yaml'],
    }),
    doc('api_catalog', 'render/discovery.ts', 'API catalog (RFC 9727): a linkset naming the API and its descriptions', undefined, 'api-catalog'),
    doc('host_meta', 'render/discovery.ts', 'Host metadata (RFC 6415) as XRD: links to the API, its description and documentation'),
    doc('host_meta_json', 'render/discovery.ts', 'The same host metadata as JRD', undefined, 'host-meta'),
    doc('api_onboarding', 'render/service-terms.ts', 'How to start using the API: no key, no account; the first calls to make', undefined, 'api-onboarding'),
    doc('sitemap', 'render/discovery.ts', 'Sitemap (sitemaps.org 0.9) of every page and document'),
    doc('not_found_html', 'render/site-pages.ts', 'The page a browser is shown for a path that does not exist (static hosts serve it for theirs)'),
    doc('own_robots', 'render/discovery.ts', "This service's own robots.txt: documents and pages for everyone, tool calls with input not to be crawled"),
    doc('site_index', 'render/discovery.ts', 'The home page as JSON: what the index holds and where each part is', undefined, 'site-index'),
    doc('security_txt', 'render/service-terms.ts', 'Security contact (RFC 9116), renewed by every build before it expires'),
    doc('security', 'render/service-terms.ts', 'Security policy: how to report a vulnerability, what the service stores and exposes', undefined, 'security'),
    doc('terms', 'render/service-terms.ts', 'Terms of use: the data is CC0, there is no key, no rate limit and no warranty', undefined, 'terms'),
    doc('privacy', 'render/service-terms.ts', 'What the request log keeps, for how long, and who can read it', undefined, 'privacy'),
    doc('register', 'render/service-terms.ts', 'There is nothing to register: no key, no account, no sign-up', undefined, 'register'),
  ]),
];

export function routes(): readonly Route[] {
  return ROUTES;
}

const BY_KEY = new Map(ROUTES.map((route) => [route.key, route]));
const BY_ALIAS = new Map(ROUTES.flatMap((route) => (route.aliases ?? []).map((alias) => [alias, route] as const)));

/** The route with this key; an unknown key is a programming error and throws. */
export function routeOf(key: string): Route {
  const route = BY_KEY.get(key);
  if (route === undefined) throw new Error(`no route has the key "${key}"`);
  return route;
}

/** The key of each of a tool's three routes. */
export function toolRouteKey(tool: string, form: 'endpoint' | 'spec' | 'form'): string {
  return form === 'endpoint' ? `tool_${tool}` : `tool_${tool}_${form}`;
}

/** The stored path an alias stands for (`/` → `/index.html`), or the path itself. */
export function canonicalPath(path: string): string {
  return BY_ALIAS.get(path)?.path ?? path;
}

/** The route a concrete path belongs to, if any. */
export function findRoute(path: string): Route | undefined {
  return ROUTES.find((route) => matchTemplate(route.path, path) !== undefined);
}
