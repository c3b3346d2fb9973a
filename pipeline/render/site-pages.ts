import type { CrawlerView, Model, PolicyView } from '../model/model.ts';
import { url } from '../model/model.ts';
import { href, toolHref } from '../paths.ts';
import { html, type Markup, prose } from '../site/html.ts';
import { page } from '../site/layout.ts';
import { MCP_SERVERS, TOOLS } from '../tools/registry/index.ts';
import type { RenderedFile } from './output.ts';
import { DIALECTS } from './server/dialects.ts';

// The pages for people that the JSON documents had no counterpart for: one per policy,
// operator and category, the policies side by side, and the tools. Every link a reader
// follows from a page leads to another page; the JSON form is linked beside it.

/** links: 'root' for a page served at addresses other than its own (the 404 page), whose relative links would break there. */
type Page = { path: string; title: string; description: string; body: Markup; json?: string; links?: 'root' };

function render(model: Model, p: Page): string {
  const { site } = model;
  return page({
    path: p.path,
    title: p.title,
    description: p.description,
    canonical: url(site, p.path),
    alternates: p.json === undefined ? [] : [{ type: 'application/json', href: url(site, p.json) }],
    body: p.body,
    siteName: site.name,
    baseUrl: site.base_url,
    repository: site.repository,
    ...(p.links === undefined ? {} : { links: p.links }),
  });
}

const wide = (table: Markup) => html`<div class="wide" tabindex="0">${table}</div>`;

/** The crawler table every group page shows: each name, operator and category leads to its page. */
function crawlerTable(model: Model, crawlers: readonly CrawlerView[], caption: string): Markup {
  const link = (path: string) => url(model.site, path);
  if (crawlers.length === 0) return html`<p class="muted">None.</p>`;
  return wide(html`<table class="stack">
<caption>${caption}</caption>
<thead><tr><th scope="col">Crawler</th><th scope="col">Operator</th><th scope="col">Category</th><th scope="col">robots.txt token</th><th scope="col">Obeys robots.txt</th></tr></thead>
<tbody>
${crawlers.map(
  (c) =>
    html`<tr><td><a href="${c.html_url}">${c.name}</a></td><td data-label="Operator"><a href="${link(href('operator_html', c.operator_slug))}">${c.operator}</a></td><td data-label="Category"><a href="${link(href('category_html', c.category))}">${c.category_label}</a></td><td data-label="robots.txt token">${c.robots_token === null ? html`<span class="muted">none</span>` : html`<code>${c.robots_token}</code>`}</td><td data-label="Obeys robots.txt">${c.respects_robots_txt_label}</td></tr>
`,
)}</tbody>
</table>`);
}

/** The categories a policy selects, or all of them for one that names none. */
const selected = (policy: PolicyView) => new Set(policy.select?.categories ?? []);

/**
 * What a policy leaves out, said where a reader looks for it: the AI categories it does not
 * select, their crawlers, and the policies that do name them (why Block AI model training
 * lets CCBot in: it builds an open dataset, which block-datasets covers).
 */
function leftOut(model: Model, policy: PolicyView): Markup {
  if (policy.directive !== 'disallow') return html``;
  const chosen = selected(policy);
  const others = model.categories.filter((c) => c.ai && !chosen.has(c.id));
  if (others.length === 0) return html``;
  const link = (path: string) => url(model.site, path);
  return html`<h2>What it leaves out</h2>
<p>This policy names crawlers by category. These AI-related categories are not among its choices, so their crawlers keep the access your other rules give them:</p>
<ul>
${others.map((category) => {
  const members = model.crawlers.filter((c) => c.category === category.id && c.status !== 'retired');
  const coveredBy = model.policies.filter((p) => p.directive === 'disallow' && selected(p).has(category.id));
  return html`<li><a href="${link(href('category_html', category.id))}">${category.label}</a> (${members.length}): ${category.definition} ${
    members.length > 0 ? html`For example ${members.slice(0, 4).map((c, i) => html`${i > 0 ? ', ' : ''}<a href="${c.html_url}">${c.name}</a>`)}. ` : ''
  }${
    coveredBy.length > 0
      ? html`Named by ${coveredBy.map((p, i) => html`${i > 0 ? ', ' : ''}<a href="${link(href('policy_html', p.id))}">${p.title}</a>`)}.`
      : ''
  }</li>
`;
})}</ul>`;
}

function policyPage(model: Model, policy: PolicyView): Page {
  const link = (path: string) => url(model.site, path);
  const chosen = [...selected(policy)];
  const effectText =
    policy.directive === 'none'
      ? 'It names no crawler.'
      : `It gives each named crawler a group with ${policy.directive === 'allow' ? '"Allow: /"' : '"Disallow: /"'}.`;
  const body = html`<h1>${policy.title}</h1>
<p>${prose(policy.rationale)}</p>
<p>${effectText} ${
    chosen.length > 0
      ? html`It names every crawler in ${chosen.map((id, i) => html`${i > 0 ? ', ' : ''}<a href="${link(href('category_html', id))}">${model.categories.find((c) => c.id === id)?.label ?? id}</a>`)}${policy.select?.stances ? ` whose robots.txt stance is ${policy.select.stances.join(' or ')}` : ''}: ${policy.crawlers.length} today. A crawler added to the index later joins it by the same rule.`
      : ''
  }</p>
<p><a href="${link(href('robots', policy.id))}">The robots.txt fragment</a> to append · <a href="${link(href('policy', policy.id))}">as JSON</a> · <a href="${link(href('policies_html'))}">all policies side by side</a></p>
<p>Enforced at your server, by User-Agent: ${DIALECTS.map((dialect, i) => html`${i === 0 ? '' : ' · '}<a href="${link(href(dialect.route, policy.id))}">${dialect.label}</a>`)}. Each file says what it blocks and which tokens only robots.txt can carry; <a href="${link(href('policy_accuracy'))}">how accurate each one is</a>, measured against real browser and crawler headers.</p>
<h2>Before you use it</h2>
<ul>
${policy.caveats.map((c) => html`<li>${prose(c)}</li>\n`)}</ul>
${leftOut(model, policy)}
<h2>Crawlers it names</h2>
${crawlerTable(model, policy.directive === 'none' ? [] : policy.crawlers, `Crawlers named by ${policy.title}`)}`;
  return { path: href('policy_html', policy.id), title: policy.title, description: policy.rationale, body, json: href('policy', policy.id) };
}

/** Policies side by side: which categories each names, how many crawlers, and its first caveat (what it costs). */
function policiesPage(model: Model): Page {
  const link = (path: string) => url(model.site, path);
  const disallowing = model.policies.filter((p) => p.directive !== 'none');
  const body = html`<h1>Choose a robots.txt policy</h1>
<p>Each policy is a rule over categories (one also over what operators say about robots.txt), so it names today's crawlers and tomorrow's alike. "block ✓" or "allow ✓" means the policy names crawlers of that category, with that directive: all of them, or for the stance-based policy those whose stance it selects. The last rows say how many crawlers that makes and what you give up.</p>
${wide(html`<table>
<caption>Which categories each policy names</caption>
<thead><tr><th scope="col">Category</th>${disallowing.map((p) => html`<th scope="col"><a href="${link(href('policy_html', p.id))}">${p.title}</a></th>`)}</tr></thead>
<tbody>
${model.categories.map(
  (category) =>
    html`<tr><th scope="row"><a href="${link(href('category_html', category.id))}">${category.label}</a></th>${disallowing.map((p) => {
      const named = p.crawlers.some((c) => c.category === category.id) || selected(p).has(category.id);
      return html`<td>${named ? (p.directive === 'allow' ? 'allow ✓' : 'block ✓') : html`<span class="muted">–</span>`}</td>`;
    })}</tr>
`,
)}<tr><th scope="row">Crawlers named</th>${disallowing.map((p) => html`<td>${p.crawlers.length}</td>`)}</tr>
<tr><th scope="row">What it costs</th>${disallowing.map((p) => html`<td>${prose(p.caveats[0] ?? '')}</td>`)}</tr>
</tbody>
</table>`)}
<p>Not shown: <a href="${link(href('policy_html', 'allow-all'))}">Allow every crawler</a>, which names none. Why does blocking AI model training leave CCBot in? It builds an open dataset (Common Crawl) rather than training a model itself; <a href="${link(href('policy_html', 'block-datasets'))}">Block open dataset builders</a> names it, and so does <a href="${link(href('policy_html', 'block-all-ai'))}">Block all AI crawlers and fetchers</a>.</p>`;
  return {
    path: href('policies_html'),
    title: 'Choose a robots.txt policy',
    description: 'The eight robots.txt policies side by side: which categories each names and what it costs.',
    body,
  };
}

/** A mirrored list in words: its prefix counts, or that there is no copy to count yet. */
function mirrorState(mirror: Model['sources'][number]['mirror']): string {
  if (mirror.state === 'never-fetched') return 'not fetched yet';
  const counts = `${mirror.ipv4.length} IPv4, ${mirror.ipv6.length} IPv6 prefixes`;
  return mirror.state === 'ok' ? counts : `${counts}, stale: the last fetch failed`;
}

function operatorPage(model: Model, operator: Model['operators'][number]): Page {
  const link = (path: string) => url(model.site, path);
  const crawlers = model.crawlers.filter((c) => c.operator_slug === operator.slug);
  const sources = model.sources.filter((s) => s.operator === operator.slug);
  const body = html`<h1>${operator.name}</h1>
${operator.about ? html`<p>${operator.about}</p>` : ''}
<p>${operator.homepage ? html`<a href="${operator.homepage}">Website</a>` : ''}${operator.homepage && operator.docs_url ? ' · ' : ''}${
    operator.docs_url ? html`<a href="${operator.docs_url}">Crawler documentation</a>` : ''
  }${operator.homepage || operator.docs_url ? ' · ' : ''}<a href="${link(href('operator', operator.slug))}">as JSON</a></p>
${
  sources.length > 0
    ? html`<h2>Published IP ranges</h2>
<ul>
${sources.map((s) => html`<li><a href="${link(s.endpoint.replace(model.site.base_url, ''))}">${s.title}</a> (${mirrorState(s.mirror)})</li>\n`)}</ul>`
    : ''
}
<h2>Crawlers</h2>
${crawlerTable(model, crawlers, `Crawlers operated by ${operator.name}`)}`;
  return {
    path: href('operator_html', operator.slug),
    title: operator.name,
    description: `${operator.name}: its crawlers, their robots.txt tokens and how to verify them.`,
    body,
    json: href('operator', operator.slug),
  };
}

function categoryPage(model: Model, category: Model['categories'][number]): Page {
  const link = (path: string) => url(model.site, path);
  const crawlers = model.crawlers.filter((c) => c.category === category.id);
  const policies = model.policies.filter((p) => selected(p).has(category.id));
  const body = html`<h1>${category.label}</h1>
<p>${category.definition}</p>
<p>${
    policies.length > 0
      ? html`Named by ${policies.map((p, i) => html`${i > 0 ? ', ' : ''}<a href="${link(href('policy_html', p.id))}">${p.title}</a>`)}.`
      : 'No ready-made policy names this category.'
  } <a href="${link(href('category', category.id))}">As JSON</a>.</p>
${crawlerTable(model, crawlers, `Crawlers in ${category.label}`)}`;
  return { path: href('category_html', category.id), title: category.label, description: category.definition, body, json: href('category', category.id) };
}

/** A tool's description up to its first full stop, ending with exactly one. */
const firstSentence = (description: string) => `${description.split('. ')[0]!.replace(/\.+$/, '')}.`;

function toolsPage(model: Model): Page {
  const link = (path: string) => url(model.site, path);
  const body = html`<h1>Keyless tools</h1>
<p>Each tool answers over HTTP without a key, and on MCP and A2A. Each has a form that runs it from the browser and answers with a readable report (the robots.txt checks take the file pasted or uploaded). The forms need the Crawler Index server; a static copy of this site cannot answer them.</p>
<ul>
${TOOLS.filter((t) => t.path !== null).map(
  (t) =>
    html`<li><a href="${link(toolHref(t, 'form'))}"><strong>${t.title}</strong></a>: ${firstSentence(t.description)} <span class="muted"><a href="${link(toolHref(t, 'spec'))}">specification</a></span></li>\n`,
)}</ul>
<h2>On MCP only</h2>
<ul>
${TOOLS.filter((t) => t.path === null).map((t) => html`<li><strong>${t.title}</strong> (<code>${t.name}</code>): ${firstSentence(t.description)}</li>\n`)}</ul>
<h2>MCP servers</h2>
<p>Point an MCP client at <code data-built-for="${model.site.base_url}">${url(model.site, '/mcp')}</code> for every tool, or at one of the focused servers:</p>
<ul>
${MCP_SERVERS.filter((s) => s.path !== '/mcp').map((s) => html`<li><code data-built-for="${model.site.base_url}">${url(model.site, s.path)}</code>: ${s.description}</li>\n`)}</ul>
<p>The whole API, every parameter and error: <a href="${link(href('reference'))}">the reference</a>.</p>`;
  return {
    path: href('tools_html'),
    title: 'Keyless tools',
    description: 'Tools that classify user agents, verify crawler addresses and audit robots.txt files, without a key.',
    body,
    json: href('tools'),
  };
}

/** For a browser at a path that does not exist; static hosts (GitHub Pages, Netlify, Cloudflare) serve /404.html there too. */
function notFoundPage(model: Model): Page {
  const link = (path: string) => url(model.site, path);
  const body = html`<h1>No page at this address</h1>
<p>The address may be mistyped, or the page may have moved. A crawler's page is at <code>/crawler/<var>slug</var>.html</code>, where the slug is its name in lower case (<a href="${link('/crawler/gptbot.html')}">/crawler/gptbot.html</a>).</p>
<ul>
<li><a href="${link(href('home'))}">Every crawler</a>, searchable by name, operator and category</li>
<li><a href="${link(href('policies_html'))}">The robots.txt policies</a> side by side</li>
<li><a href="${link(href('tools_html'))}">The tools</a>: check a robots.txt, a User-Agent or an address</li>
<li><a href="${link(href('reference'))}">The API reference</a>: every path a program can ask for</li>
</ul>
<p>Programs asking for a path that does not exist get a JSON error naming the paths that do.</p>`;
  return {
    path: href('not_found_html'),
    title: 'No page at this address',
    description: 'The page at this address does not exist.',
    body,
    links: 'root',
  };
}

export function renderSitePages(model: Model): RenderedFile[] {
  const pages = [
    ...model.policies.map((p) => policyPage(model, p)),
    policiesPage(model),
    ...model.operators.map((o) => operatorPage(model, o)),
    ...model.categories.map((c) => categoryPage(model, c)),
    toolsPage(model),
    notFoundPage(model),
  ];
  return pages.map((p) => ({ path: p.path, kind: 'page', body: render(model, p) }));
}
