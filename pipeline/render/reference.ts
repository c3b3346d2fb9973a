import { type Model, url } from '../model/model.ts';
import type { SiteSettings } from '../records/types.ts';
import { href, toolHref, API_PREFIX } from '../paths.ts';
import { ROUTE_GROUPS, type Route, type RouteGroup, routeOf, routes } from '../routes.ts';
import { ERROR_CODES, STATUSES } from '../contract/error-catalog.ts';
import { ACCESS } from '../contract/access.ts';
import { httpDescription } from '../contract/tool-spec.ts';
import { MCP_SERVERS, TOOLS } from '../tools/registry/index.ts';
import { ATTRIBUTION_PARAM } from '../tools/registry/input.ts';
import { html, type Markup } from '../site/html.ts';
import { page } from '../site/layout.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';

// The API reference (docs/API.md §4.3): one object generated from the route table, the tool registry
// and the error catalogue, published as JSON (/reference.json), as a page (/reference) and as
// Markdown (/api.md, also inlined in /llms-full.txt). Nothing in it is written by hand twice.

/** The reference's published address (its route's canonical, /reference), which answers the page, and the JSON with Accept: application/json. */
export const REFERENCE_PATH = routeOf('reference').canonical ?? href('reference');

const CONVENTIONS: readonly string[] = [
  `Every path answers GET and HEAD without a key, an account or a sign-up; no request rate is imposed. The only closed path is ${href('hits')} (the raw request log), which needs the export key of the server it runs on.`,
  `Every path is also served under ${API_PREFIX}/ with the same bytes and validators, and a Link: rel=canonical header naming the unprefixed address.`,
  'Every answer carries a strong ETag (the first 32 hex characters of the sha-256 of its bytes) and Last-Modified (when those bytes last changed); If-None-Match and If-Modified-Since give 304.',
  'CORS is open: Access-Control-Allow-Origin: * on every answer.',
  'JSON is UTF-8 with a fixed key order and two-space indentation; a missing value is null, never an absent key; times are ISO 8601 in UTC.',
  'Identifiers (slugs, category, policy and source ids, enum values) are stable once published; labels may be reworded.',
  `Operator IP lists are fetched again and the tree rebuilt every six hours; poll ${href('changes')} (with since) or the feeds no more often than that.`,
  'An error is JSON: {"error": {"code", "message", "status", "field"?, "accepted"?, "allow"?, "documentation"?}}, with the field at fault and its accepted form where there is one. MCP and A2A answer with JSON-RPC 2.0 error objects instead.',
];

function endpointEntry(site: SiteSettings, route: Route) {
  return {
    key: route.key,
    path: route.path,
    url: url(site, route.canonical ?? route.path),
    methods: route.methods,
    type: route.type,
    returns: route.returns,
    statuses: route.statuses,
    parameter: route.parameter ? { name: route.parameter.name, values_from: route.parameter.values_from } : null,
    query: (route.query ?? []).map((q) => ({ name: q.name, description: q.description })),
    aliases: route.aliases ?? [],
    tool: route.answer.by === 'tool' ? route.answer.tool : null,
    served_by: route.answer.by === 'document' ? 'document' : 'server',
  };
}

function toolEntry(site: SiteSettings, tool: (typeof TOOLS)[number]) {
  const at = (form: 'endpoint' | 'spec' | 'form') => (tool.path === null ? null : url(site, toolHref(tool, form)));
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    endpoint: at('endpoint'),
    spec: at('spec'),
    form: at('form'),
    post_body: tool.postBody ?? null,
    parameters: tool.params.map((p) => ({
      name: p.name,
      required: p.required,
      repeatable: p.kind === 'list',
      description: httpDescription(p),
      accepted: p.accepted,
    })),
    mcp: MCP_SERVERS.filter((s) => s.tools.includes(tool.name)).map((s) => url(site, s.path)),
  };
}

/** The reference as data: what /reference.json publishes and the page and Markdown show. */
export function apiReference(site: SiteSettings) {
  const all = routes();
  return {
    title: `${site.name} API reference`,
    api: site.name,
    version: 'v1',
    base_url: site.base_url,
    prefixed_base_url: site.base_url + API_PREFIX,
    summary:
      'A read-only, keyless index of web crawlers: robots.txt tokens, user-agent patterns, operator-published IP ranges and how to verify a visit, ready-made robots.txt policies, and tools that answer questions about them over HTTP, MCP and A2A.',
    formats: {
      html: url(site, REFERENCE_PATH),
      json: url(site, href('reference_json')),
      markdown: url(site, href('reference_markdown')),
      openapi: url(site, href('openapi')),
      openapi_yaml: url(site, href('openapi_yaml')),
      llms_txt: url(site, href('llms')),
    },
    access: {
      ...ACCESS,
      closed_paths: [{ path: href('hits'), needs: 'the export key of the server (EXPORT_KEY), as ?key= or Authorization: Bearer; nobody can request one' }],
    },
    conventions: CONVENTIONS,
    groups: (Object.keys(ROUTE_GROUPS) as RouteGroup[]).map((group) => ({
      id: group,
      title: ROUTE_GROUPS[group],
      endpoints: all.filter((route) => route.group === group).map((route) => endpointEntry(site, route)),
    })),
    tools: TOOLS.map((tool) => toolEntry(site, tool)),
    attribution_parameter: { name: ATTRIBUTION_PARAM.name, description: ATTRIBUTION_PARAM.description },
    mcp_servers: MCP_SERVERS.map((s) => ({ url: url(site, s.path), name: s.name, description: s.description, tools: s.tools })),
    a2a: { endpoint: url(site, href('a2a')), agent_card: url(site, href('agent_card')) },
    statuses: STATUSES,
    error_codes: ERROR_CODES,
    endpoint_count: all.length,
  };
}

type Reference = ReturnType<typeof apiReference>;

const list = (items: readonly (string | number)[]) => items.join(', ');

/** A path that may wrap before each segment on a narrow screen, never inside one. */
const breakable = (path: string): Markup => html`${path.split('/').map((segment, i) => (i === 0 ? segment : html`<wbr>/${segment}`))}`;

function endpointRows(endpoints: Reference['groups'][number]['endpoints']): Markup[] {
  return endpoints.map(
    (e) => html`<tr><td><code>${breakable(e.path)}</code><br><span class="muted">${list(e.methods)}</span>${
      e.aliases.length > 0 ? html`<br><span class="muted">also ${list(e.aliases)}</span>` : ''
    }</td><td>${e.returns}${e.parameter ? html`<br><span class="muted">{${e.parameter.name}}: ${e.parameter.values_from}</span>` : ''}${e.query.map(
      (q) => html`<br><span class="muted"><code>${q.name}</code>: ${q.description}</span>`,
    )}</td><td>${list(e.statuses)}</td></tr>
`,
  );
}

function referenceHtml(site: SiteSettings, ref: Reference): string {
  const body = html`<h1>${ref.title}</h1>
<p>${ref.summary}</p>
<p>Also as <a href="${ref.formats.json}">JSON</a>, <a href="${ref.formats.markdown}">Markdown</a>, <a href="${ref.formats.openapi}">OpenAPI 3.1</a> (<a href="${ref.formats.openapi_yaml}">YAML</a>) and <a href="${ref.formats.llms_txt}">llms.txt</a>.</p>
<nav aria-label="Reference sections"><ul>
<li><a href="#access">Access and conventions</a></li>
${ref.groups.map((g) => html`<li><a href="#${g.id}">${g.title}</a></li>\n`)}<li><a href="#tool-parameters">Tool parameters</a></li>
<li><a href="#mcp">MCP servers</a></li>
<li><a href="#errors">Statuses and errors</a></li>
</ul></nav>
<h2 id="access">Access and conventions</h2>
<ul>
${ref.conventions.map((c) => html`<li>${c}</li>\n`)}</ul>
${ref.groups.map(
  (g) => html`<h2 id="${g.id}">${g.title}</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th scope="col">Path and methods</th><th scope="col">Returns</th><th scope="col">Statuses</th></tr></thead>
<tbody>
${endpointRows(g.endpoints)}</tbody>
</table></div>
`,
)}<h2 id="tool-parameters">Tool parameters</h2>
<p>Every tool answers GET with its parameters in the query string (a list parameter may repeat); the robots.txt tools also take the file as a raw POST body. Without parameters a tool returns its specification. The optional <code>${ref.attribution_parameter.name}</code> parameter: ${ref.attribution_parameter.description}</p>
${ref.tools.map(
  (t) => html`<h3 id="tool-${t.name}">${t.title} <code>${t.name}</code></h3>
<p>${t.description}</p>
<p>${t.endpoint ? html`HTTP: <code>${t.endpoint}</code> (<a href="${t.spec ?? ''}">specification</a>, <a href="${t.form ?? ''}">form</a>). ` : 'MCP only. '}MCP: ${list(t.mcp)}.${t.post_body ? ` POST body: ${t.post_body}.` : ''}</p>
${
  t.parameters.length === 0
    ? html`<p class="muted">No parameters.</p>`
    : html`<ul>
${t.parameters.map(
  (p) =>
    html`<li><code>${p.name}</code>${p.required ? ' (required)' : ''}${p.repeatable ? ' (repeatable)' : ''}: ${p.description} <span class="muted">Accepted: ${p.accepted}</span></li>\n`,
)}</ul>`
}
`,
)}<h2 id="mcp">MCP servers and A2A</h2>
<p>Each MCP server is a Streamable HTTP endpoint (POST, JSON-RPC 2.0). The A2A endpoint is <code>${ref.a2a.endpoint}</code>, described by its <a href="${ref.a2a.agent_card}">agent card</a>.</p>
<ul>
${ref.mcp_servers.map((s) => html`<li><code>${s.url}</code> (${s.name}): ${s.description} Tools: ${list(s.tools)}.</li>\n`)}</ul>
<h2 id="errors">Statuses and errors</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th scope="col">Status</th><th scope="col">Meaning</th></tr></thead>
<tbody>
${ref.statuses.map((s) => html`<tr><td>${s.status}</td><td>${s.meaning}</td></tr>\n`)}</tbody>
</table></div>
<div class="wide" tabindex="0"><table>
<thead><tr><th scope="col">Status</th><th scope="col">Code</th><th scope="col">When</th></tr></thead>
<tbody>
${ref.error_codes.map((e) => html`<tr><td>${e.status}</td><td><code>${e.code}</code></td><td>${e.when}</td></tr>\n`)}</tbody>
</table></div>`;
  return page({
    path: REFERENCE_PATH,
    title: 'API reference',
    description: `Every path, tool and error of the ${site.name} API.`,
    canonical: url(site, REFERENCE_PATH),
    alternates: [
      { type: 'application/json', href: ref.formats.json },
      { type: 'text/markdown', href: ref.formats.markdown },
    ],
    body,
    siteName: site.name,
    baseUrl: site.base_url,
    repository: site.repository,
    // Served at /reference, /docs and /api/docs alike: links must not depend on the folder.
    links: 'root',
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The reference as Markdown: /api.md, and the body of /llms-full.txt. */
export function referenceMarkdown(ref: Reference): string {
  const out: string[] = [
    `# ${ref.title}`,
    '',
    ref.summary,
    '',
    `Base URL: ${ref.base_url} (also ${ref.prefixed_base_url}).`,
    '',
    '## Access and conventions',
    '',
  ];
  for (const c of ref.conventions) out.push(`- ${c}`);
  for (const g of ref.groups) {
    out.push('', `## ${g.title}`, '', '| Path | Methods | Returns | Statuses |', '|---|---|---|---|');
    for (const e of g.endpoints) {
      const extra = [
        ...(e.aliases.length > 0 ? [`Also at ${list(e.aliases)}.`] : []),
        ...(e.parameter ? [`{${e.parameter.name}}: ${e.parameter.values_from}.`] : []),
        ...e.query.map((q) => `\`${q.name}\`: ${q.description}`),
      ];
      out.push(`| \`${e.path}\` | ${list(e.methods)} | ${cell([e.returns, ...extra].join(' '))} | ${list(e.statuses)} |`);
    }
  }
  out.push('', '## Tool parameters', '', `The optional \`${ref.attribution_parameter.name}\` parameter: ${ref.attribution_parameter.description}`);
  for (const t of ref.tools) {
    out.push('', `### ${t.title} (\`${t.name}\`)`, '', t.description, '');
    out.push(`${t.endpoint ? `HTTP: ${t.endpoint}. ` : 'MCP only. '}MCP: ${list(t.mcp)}.${t.post_body ? ` POST body: ${t.post_body}.` : ''}`);
    if (t.parameters.length > 0) out.push('');
    for (const p of t.parameters)
      out.push(`- \`${p.name}\`${p.required ? ' (required)' : ''}${p.repeatable ? ' (repeatable)' : ''}: ${p.description} Accepted: ${p.accepted}`);
  }
  out.push('', '## MCP servers and A2A', '');
  for (const s of ref.mcp_servers) out.push(`- ${s.url} (${s.name}): ${s.description} Tools: ${list(s.tools)}.`);
  out.push(`- A2A: ${ref.a2a.endpoint}, agent card ${ref.a2a.agent_card}.`);
  out.push('', '## Statuses and errors', '', '| Status | Meaning |', '|---|---|');
  for (const s of ref.statuses) out.push(`| ${s.status} | ${cell(s.meaning)} |`);
  out.push('', '| Status | Code | When |', '|---|---|---|');
  for (const e of ref.error_codes) out.push(`| ${e.status} | \`${e.code}\` | ${cell(e.when)} |`);
  return `${out.join('\n')}\n`;
}

export function renderReference(model: Model): RenderedFile[] {
  const ref = apiReference(model.site);
  return [
    { path: href('reference'), kind: 'reference', body: referenceHtml(model.site, ref) },
    { path: href('reference_json'), kind: 'reference', body: canonicalJson(ref) },
    { path: href('reference_markdown'), kind: 'reference', body: referenceMarkdown(ref) },
  ];
}
