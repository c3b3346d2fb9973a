import { stringify } from 'yaml';
import { type Model, url } from '../model/model.ts';
import type { SiteSettings } from '../records/types.ts';
import { contentTypeOf, href, type PathKey, API_PREFIX } from '../paths.ts';
import { ROUTE_GROUPS, type Route, type RouteGroup, routes } from '../routes.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { escapeHtml } from '../site/html.ts';
import type { RenderedFile } from './output.ts';
import { LEDGER_JSON, LEDGER_TXT } from '../ledger/ledger.ts';
import { apiReference, REFERENCE_PATH, referenceMarkdown } from './reference.ts';

// The documents by which programs find the API (docs/API.md §4.3): catalogues, host metadata, the
// sitemap, llms.txt. Each is generated from the route table, so a path added there appears in
// every one of them.

/** The address a route is published at: its canonical form where it has one. */
const publicPath = (route: Route) => route.canonical ?? route.path;

/** GET paths with no parameter that answer 200 to anyone: what catalogues and the sitemap may list. */
function openDocuments(answered: readonly Route[]): Route[] {
  return answered.filter((r) => r.methods.includes('GET') && !r.parameter && !r.statuses.includes(401));
}

/** The links every host-level description carries (host-meta, its JSON form, the API catalogue). */
function serviceLinks(site: SiteSettings) {
  return [
    { rel: 'api-catalog', type: 'application/linkset+json', href: url(site, href('api_catalog')) },
    { rel: 'service-desc', type: 'application/openapi+json', href: url(site, href('openapi')) },
    { rel: 'service-desc', type: 'application/openapi+yaml', href: url(site, href('openapi_yaml')) },
    { rel: 'service-doc', type: 'text/html', href: url(site, REFERENCE_PATH) },
    { rel: 'service-meta', type: 'application/json', href: url(site, href('apis_json')) },
    { rel: 'status', type: 'application/json', href: url(site, href('status')) },
    { rel: 'describedby', type: 'text/plain', href: url(site, href('llms')) },
  ];
}

/** RFC 9727: one linkset entry anchored at the API's root, with its descriptions, documentation and status. */
function apiCatalog(site: SiteSettings) {
  const byRel = (rel: string) =>
    serviceLinks(site)
      .filter((l) => l.rel === rel)
      .map(({ href: target, type }) => ({ href: target, type }));
  return {
    linkset: [
      {
        anchor: url(site, API_PREFIX),
        'service-desc': byRel('service-desc'),
        'service-doc': byRel('service-doc'),
        'service-meta': byRel('service-meta'),
        status: byRel('status'),
      },
    ],
  };
}

/** RFC 6415 host metadata: the XRD document and its JRD twin carry the same links. */
function hostMetaXrd(site: SiteSettings): string {
  const links = serviceLinks(site).map((l) => `  <Link rel="${escapeHtml(l.rel)}" type="${escapeHtml(l.type)}" href="${escapeHtml(l.href)}"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
    `  <Subject>${escapeHtml(site.base_url)}</Subject>`,
    ...links,
    '</XRD>',
    '',
  ].join('\n');
}

function hostMetaJrd(site: SiteSettings) {
  return { subject: site.base_url, links: serviceLinks(site) };
}

/** APIs.json 0.19 (apisjson.org): the service, its one API and where it is described. */
function apisJson(site: SiteSettings, stamp: string) {
  return {
    aid: new URL(site.base_url).host,
    name: site.name,
    description: apiReference(site).summary,
    url: url(site, href('apis_json')),
    specificationVersion: '0.19',
    modified: stamp.slice(0, 10),
    tags: ['web crawlers', 'robots.txt', 'bot verification', 'ip ranges', 'open data'],
    apis: [
      {
        aid: `${new URL(site.base_url).host}:v1`,
        name: `${site.name} API`,
        description: 'Keyless read-only documents and tools; every path is also served under /api/v1.',
        humanURL: url(site, REFERENCE_PATH),
        baseURL: url(site, API_PREFIX),
        tags: ['keyless', 'read-only', 'cc0'],
        properties: [
          { type: 'OpenAPI', url: url(site, href('openapi')) },
          { type: 'OpenAPI', url: url(site, href('openapi_yaml')) },
          { type: 'Documentation', url: url(site, REFERENCE_PATH) },
          { type: 'x-llms-txt', url: url(site, href('llms')) },
          { type: 'x-agent-card', url: url(site, href('agent_card')) },
          { type: 'x-change-feed', url: url(site, href('changes')) },
          { type: 'TermsOfService', url: url(site, href('terms')) },
          { type: 'x-privacy', url: url(site, href('privacy')) },
        ],
        contact: [{ FN: site.name, url: site.contact }],
      },
    ],
    maintainers: [{ FN: site.name, url: site.repository }],
  };
}

/** llms.txt (llmstxt.org): a title, a one-line summary, then one section of links per route group. */
function llmsText(site: SiteSettings, answered: readonly Route[]): string {
  const out = [
    `# ${site.name}`,
    '',
    `> ${apiReference(site).summary}`,
    '',
    'No key, account or sign-up; CORS is open; every document has a strong ETag. Data is CC0-1.0. Each crawler has a page, a JSON record and a Markdown record.',
  ];
  for (const group of Object.keys(ROUTE_GROUPS) as RouteGroup[]) {
    const members = answered.filter((r) => r.group === group && r.methods.includes('GET'));
    if (members.length === 0) continue;
    out.push('', `## ${ROUTE_GROUPS[group]}`, '');
    // A template is not an address: it is named, not linked.
    for (const route of members)
      out.push(
        route.parameter
          ? `- \`${url(site, route.path)}\`: ${route.returns}; {${route.parameter.name}} from ${route.parameter.values_from}`
          : `- [${publicPath(route)}](${url(site, publicPath(route))}): ${route.returns}`,
      );
  }
  out.push('', '## Optional', '', `- [The whole reference inline](${url(site, href('llms_full'))}): this index with every path, tool parameter and error code`);
  return `${out.join('\n')}\n`;
}

function llmsFullText(site: SiteSettings, answered: readonly Route[]): string {
  return `${llmsText(site, answered)}\n---\n\n${referenceMarkdown(apiReference(site))}`;
}

/** The home page's content for programs: counts and where every part is. */
function siteIndex(model: Model, answered: readonly Route[]) {
  const { site } = model;
  return {
    name: site.name,
    description: apiReference(site).summary,
    home: url(site, '/'),
    reference: url(site, REFERENCE_PATH),
    license: site.license,
    repository: site.repository,
    counts: { crawlers: model.crawlers.length, operators: model.operators.length, policies: model.policies.length, ip_sources: model.sources.length },
    policies: model.policies.map((p) => ({
      id: p.id,
      title: p.title,
      robots_txt: url(site, href('robots', p.id)),
      json: url(site, href('policy', p.id)),
    })),
    documents: openDocuments(answered).map((r) => ({ key: r.key, url: url(site, publicPath(r)), type: r.type, returns: r.returns })),
    templates: answered
      .filter((r) => r.parameter && r.methods.includes('GET'))
      .map((r) => ({ key: r.key, url: url(site, r.path), values_from: r.parameter!.values_from })),
  };
}

function apiVersions(site: SiteSettings) {
  return {
    current: 'v1',
    versions: [
      {
        version: 'v1',
        status: 'current',
        root: url(site, API_PREFIX),
        base_url: url(site, API_PREFIX),
        unprefixed_base_url: site.base_url,
        openapi: url(site, href('openapi')),
        sunset: null,
      },
    ],
    planned: [],
    policy:
      'v1 names the shape of the API and is the only version. Data changes every six hours without a new version; fields may be added. A v2 would exist only for an incompatible change, and would be listed here, with dates, before anything in v1 changed.',
  };
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/**
 * sitemaps.org 0.9: every page the build rendered and every open document, each at the
 * address it is published at. Nothing that needs a key or a POST.
 */
function sitemap(site: SiteSettings, rendered: readonly RenderedFile[], answered: readonly Route[]): string {
  const pages = rendered.filter((f) => contentTypeOf(f.path).startsWith('text/html')).map((f) => (f.path === href('reference') ? REFERENCE_PATH : f.path));
  // The 404 page is what a missing address shows, not a page of its own to index.
  const paths = [...new Set([...openDocuments(answered).map(publicPath), ...pages])]
    .filter((p) => p !== href('not_found_html'))
    .map((p) => (p === href('home') ? '/' : p))
    .sort();
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...[...new Set(paths)].map((p) => `  <url><loc>${xml(url(site, p))}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n');
}

/**
 * The service's own robots.txt. Documents and pages are there to be read; a tool called with
 * input is computed per request and its examples link to endless variations, so it is the one
 * thing crawlers are asked to leave alone (the closed /hits.json too).
 */
function ownRobotsTxt(site: SiteSettings): string {
  return [
    `# robots.txt of ${site.name} itself. The index of crawlers is ${url(site, href('agents'))};`,
    `# Ready-made policies for your own site: ${url(site, href('robots', 'block-ai-training'))} and the others listed at ${url(site, REFERENCE_PATH)}.`,
    'User-agent: *',
    'Allow: /',
    `Disallow: /tools/*?`,
    `Disallow: ${href('hits')}`,
    '',
    `Sitemap: ${url(site, href('sitemap'))}`,
    '',
  ].join('\n');
}

type Body = RenderedFile['body'];

/** Every discovery document; the sitemap is given the files the other renderers made. */
export function renderDiscovery(model: Model, { rendered }: { rendered: readonly RenderedFile[] }): RenderedFile[] {
  const { site } = model;
  // Each document by route key; those that list addresses are given the routes that answer.
  const documents: readonly [key: PathKey, body: (answered: readonly Route[]) => Body][] = [
    ['llms', (answered) => llmsText(site, answered)],
    ['llms_full', (answered) => llmsFullText(site, answered)],
    ['apis_json', () => (stamp: string) => canonicalJson(apisJson(site, stamp))],
    ['apis_yaml', () => (stamp: string) => stringify(apisJson(site, stamp), { lineWidth: 0 })],
    ['api_catalog', () => canonicalJson(apiCatalog(site))],
    ['host_meta', () => hostMetaXrd(site)],
    ['host_meta_json', () => canonicalJson(hostMetaJrd(site))],
    ['site_index', (answered) => canonicalJson(siteIndex(model, answered))],
    ['api_versions', () => canonicalJson(apiVersions(site))],
    ['sitemap', (answered) => sitemap(site, rendered, answered)],
    ['own_robots', () => ownRobotsTxt(site)],
  ];
  // The routes a client gets an answer from: a stored document only if this build makes it
  // (/swagger.json is left out while its conversion would lose something): the other
  // renderers' files, these, and the ledger the build writes last.
  const made = new Set([...rendered.map((f) => f.path), ...documents.map(([key]) => href(key)), LEDGER_JSON, LEDGER_TXT]);
  const answered = routes().filter((r) => r.answer.by !== 'document' || r.parameter !== undefined || made.has(r.path));
  return documents.map(([key, body]) => ({ path: href(key), kind: 'discovery', body: body(answered) }));
}
