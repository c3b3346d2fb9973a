// The published paths: every public path the build writes or the server answers, named once
// by its key, with href() to write a URL from a key, and the media type each path is served
// with. It imports nothing, so any module (the model, a renderer, a tool, the server) may use
// it without depending on what the route table (routes.ts) knows of how a path is answered.

/** Every path the route table describes, by its key; `{name}` marks the one parameter. */
export const PATHS = {
  home: '/index.html',
  agents: '/data/agents.json',
  agents_csv: '/data/agents.csv',
  ua_regex: '/data/ua-regex.json',
  crawler: '/crawler/{slug}.json',
  crawler_html: '/crawler/{slug}.html',
  crawler_markdown: '/crawler/{slug}.md',
  operator: '/operator/{slug}.json',
  operator_html: '/operator/{slug}.html',
  category: '/category/{slug}.json',
  category_html: '/category/{slug}.html',
  policy: '/policy/{policy}.json',
  policy_html: '/policy/{policy}.html',
  policies_html: '/policies.html',
  robots: '/robots/{policy}.txt',
  policy_nginx: '/policy/{policy}.nginx.conf',
  policy_apache: '/policy/{policy}.apache.conf',
  policy_caddy: '/policy/{policy}.caddy.conf',
  policy_haproxy: '/policy/{policy}.haproxy.conf',
  policy_accuracy: '/data/policy-accuracy.json',
  ip_sources: '/data/ip-sources.json',
  ip_ranges_all: '/ip-ranges/all.json',
  ip_ranges_text: '/ip-ranges/all.txt',
  ip_ranges: '/ip-ranges/{source}.json',
  ip_ranges_nginx: '/ip-ranges/{source}.nginx.conf',
  ip_ranges_haproxy: '/ip-ranges/{source}.haproxy.list',
  signature_agents: '/signature-agents/index.json',
  signature_agent: '/signature-agents/{source}.json',
  status: '/status.json',
  changes: '/changes.json',
  changes_log: '/changes/log.json',
  feed_json: '/feed.json',
  feed_rss: '/feed.xml',
  clients: '/data/clients.json',
  stats: '/stats.json',
  hits: '/hits.json',
  healthz: '/healthz',
  coverage: '/data/coverage.json',
  crosswalk: '/data/crosswalk.json',
  tools: '/tools/index.json',
  tools_html: '/tools/index.html',
  a2a: '/a2a',
  agent_card: '/.well-known/agent-card.json',
  openapi: '/openapi.json',
  documents: '/documents.json',
  documents_txt: '/documents.txt',
  api_root: '/api/v1',
  reference: '/reference.html',
  reference_json: '/reference.json',
  reference_markdown: '/api.md',
  openapi_yaml: '/openapi.yaml',
  swagger: '/swagger.json',
  api_versions: '/api/versions',
  llms: '/llms.txt',
  llms_full: '/llms-full.txt',
  apis_json: '/apis.json',
  apis_yaml: '/apis.yml',
  api_catalog: '/.well-known/api-catalog',
  host_meta: '/.well-known/host-meta',
  host_meta_json: '/.well-known/host-meta.json',
  api_onboarding: '/.well-known/api-onboarding',
  sitemap: '/sitemap.xml',
  not_found_html: '/404.html',
  own_robots: '/robots.txt',
  site_index: '/index.json',
  security_txt: '/.well-known/security.txt',
  security: '/security.json',
  terms: '/terms.json',
  privacy: '/privacy.json',
  register: '/register',
} as const;

export type PathKey = keyof typeof PATHS;

/**
 * The path of a key, relative to the base URL, with its parameter filled in: every URL the
 * renderers, the model and the tools' specifications write comes from here. A missing
 * parameter, or one that is not a single path segment, is a programming error and throws.
 */
export function href(key: PathKey, value?: string): string {
  const template: string = PATHS[key];
  const parameter = parameterOf(template);
  if (parameter === null) return template;
  if (value === undefined || value === '' || value.includes('/'))
    throw new Error(`href: ${key} needs one path segment for {${parameter}}, got ${JSON.stringify(value)}`);
  return template.replace(`{${parameter}}`, value);
}

/** The name of a template's parameter (`slug` in `/crawler/{slug}.json`), or null. */
export function parameterOf(template: string): string | null {
  return /\{([a-z_]+)\}/.exec(template)?.[1] ?? null;
}

/**
 * A template split around its parameter, or null for one without. Kept per template: every
 * request is matched against the route table, and templates are the table's constants, so the
 * map holds one entry per template in the code.
 */
const SPLIT_TEMPLATES = new Map<string, { before: string; after: string } | null>();
function templateParts(template: string): { before: string; after: string } | null {
  let parts = SPLIT_TEMPLATES.get(template);
  if (parts === undefined) {
    const parameter = parameterOf(template);
    const [before, after] = parameter === null ? [] : template.split(`{${parameter}}`);
    parts = before === undefined || after === undefined ? null : { before, after };
    SPLIT_TEMPLATES.set(template, parts);
  }
  return parts;
}

/**
 * Matches a concrete path against a template: the parameter's value, null for a template
 * without one that is the path itself, undefined for no match.
 */
export function matchTemplate(template: string, path: string): string | null | undefined {
  const parts = templateParts(template);
  if (parts === null) return template === path ? null : undefined;
  const { before, after } = parts;
  if (!path.startsWith(before) || !path.endsWith(after) || path.length <= before.length + after.length) return undefined;
  const value = path.slice(before.length, path.length - after.length);
  return value.includes('/') ? undefined : value;
}

/** The prefix under which every path is answered too (`/api/v1/data/agents.json`); alone, it names the API's root document. */
export const API_PREFIX = PATHS.api_root;

/** The tools' folder, itself an address of their index page; a tool's three paths are its `path` under it (its endpoint, `.json` specification and `.html` form). */
export const TOOLS_FOLDER = '/tools/';

/** One of a tool's three paths, from the `path` of its definition; a tool without one (MCP and A2A only) is a programming error and throws. */
export function toolHref(tool: { name: string; path: string | null }, form: 'endpoint' | 'spec' | 'form'): string {
  if (tool.path === null) throw new Error(`toolHref: tool ${tool.name} has no HTTP path`);
  const endpoint = TOOLS_FOLDER + tool.path;
  return form === 'endpoint' ? endpoint : form === 'spec' ? `${endpoint}.json` : `${endpoint}.html`;
}

// Stored files with no route: what every page links to (style sheet, script, icon), and the
// settings a static host reads (Netlify's and Cloudflare's header and redirect rules,
// render/host-rules.ts).
export const STYLE_SHEET = '/site.css';
export const SITE_SCRIPT = '/site.js';
export const FAVICON_PATH = '/favicon.svg';
export const HEADERS_PATH = '/_headers';
export const REDIRECTS_PATH = '/_redirects';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.js': 'text/javascript; charset=utf-8',
  // Server config files: text to read before including. Both extensions are text/plain in the
  // common MIME tables, so a static host types them right without a rule.
  '.conf': 'text/plain; charset=utf-8',
  '.list': 'text/plain; charset=utf-8',
};

// Documents whose media type is more specific than their extension's.
const PATH_TYPES: Readonly<Record<string, string>> = {
  [PATHS.feed_json]: 'application/feed+json',
  [PATHS.feed_rss]: 'application/rss+xml',
  [PATHS.sitemap]: 'application/xml',
  [PATHS.api_catalog]: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  [PATHS.host_meta]: 'application/xrd+xml; charset=utf-8',
  [PATHS.api_onboarding]: 'application/json',
  [PATHS.register]: 'application/json',
  [PATHS.api_versions]: 'application/json',
  // The static hosts' rules (render/host-rules.ts): plain text, which is what they are.
  [HEADERS_PATH]: 'text/plain; charset=utf-8',
  [REDIRECTS_PATH]: 'text/plain; charset=utf-8',
};

/** The media type a stored path is served with. */
export function contentTypeOf(path: string): string {
  const exact = PATH_TYPES[path];
  if (exact) return exact;
  const extension = /\.[a-z]+$/.exec(path)?.[0] ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
