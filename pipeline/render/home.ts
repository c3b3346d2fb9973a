import type { Model } from '../model/model.ts';
import { url } from '../model/model.ts';
import { href, STYLE_SHEET, FAVICON_PATH, SITE_SCRIPT, toolHref } from '../paths.ts';
import { routes } from '../routes.ts';
import { html } from '../site/html.ts';
import { FAVICON, page, STYLE } from '../site/layout.ts';
import { FILTER_SCRIPT } from '../site/filter-script.ts';
import { categoryCounts } from './data.ts';
import { coverage } from './coverage.ts';
import { crosswalk } from './crosswalk.ts';
import { EVIDENCE_LABELS, STANCE_LABELS, VERIFICATION_LABELS } from '../model/labels.ts';
import type { RenderedFile } from './output.ts';
import { classifyTool } from '../tools/definitions/classify-user-agent.ts';

function homeHtml(model: Model): string {
  const { site } = model;
  const counts = categoryCounts(model);
  const link = (path: string) => url(site, path);
  // Finding a crawler is what most visitors come for: the search box comes first, on the first
  // screen of a phone too, with the table it filters right below it; the rest is one link away.
  const body = html`<h1>${site.name}</h1>
<p class="lede">An open, keyless index of ${model.crawlers.length} web crawlers from ${model.operators.length} operators: the robots.txt token of each, the user-agent text that identifies it, whether it obeys robots.txt, how to verify it, and ready-made policies.</p>
<form class="find" role="search" action="${link(href('home'))}#crawlers" method="get">
<label for="crawler-search">Find a crawler</label>
<div class="find-row"><input id="crawler-search" name="q" type="search" placeholder="GPTBot, Googlebot, a token or an operator" autocomplete="off" spellcheck="false"><button type="submit">Search</button></div>
<p class="muted">Searches names, operators, categories and robots.txt tokens. A whole User-Agent string goes to <a href="${link(toolHref(classifyTool, 'form'))}">the classifier</a>.</p>
</form>
<nav class="jump" aria-label="On this page"><a href="#crawlers">All crawlers</a> · <a href="#use">Use it</a> · <a href="#policies">Policies</a> · <a href="#categories">Categories</a> · <a href="#coverage">Coverage</a> · <a href="#endpoints">Endpoints</a></nav>
<h2 id="crawlers">Crawlers</h2>
<div class="wide" tabindex="0"><table class="stack" data-filterable>
<thead><tr><th scope="col">Crawler</th><th scope="col">Operator</th><th scope="col">Category</th><th scope="col">robots.txt token</th><th scope="col">Obeys robots.txt</th></tr></thead>
<tbody>
${model.crawlers.map(
  (
    c,
  ) => html`<tr data-category="${c.category_label}" data-operator="${c.operator}" data-stance="${c.respects_robots_txt_label}" data-verification="${c.verification_label}"><td><a href="${c.html_url}">${c.name}</a></td><td data-label="Operator"><a href="${link(href('operator_html', c.operator_slug))}">${c.operator}</a></td><td data-label="Category">${c.category_label}</td><td data-label="robots.txt token">${c.robots_token === null ? html`<span class="muted">none</span>` : html`<code>${c.robots_token}</code>`}</td><td data-label="Obeys robots.txt">${c.respects_robots_txt_label}</td></tr>
`,
)}</tbody>
</table></div>
<h2 id="use">Use it</h2>
<ul>
<li><strong>Write robots.txt:</strong> <a href="${link(href('policies_html'))}">choose a ready-made policy</a> (they are compared side by side) and append it, or copy a crawler's token from its page.</li>
<li><strong>Check a robots.txt, a User-Agent or an address:</strong> the <a href="${link(href('tools_html'))}">keyless tools</a> (also on MCP and A2A).</li>
<li><strong>Match traffic:</strong> <a href="${link(href('ua_regex'))}">pre-escaped user-agent regexes</a> (all, AI only, per category).</li>
<li><strong>Take the data:</strong> <a href="${link(href('agents'))}">JSON</a> or <a href="${link(href('agents_csv'))}">CSV</a>, CC0-1.0, no key.</li>
<li><strong>Stay current cheaply:</strong> every document has a strong ETag; the <a href="${link(href('documents'))}">ledger</a> lists them all.</li>
</ul>
<h2 id="policies">Policies</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th scope="col">Policy</th><th scope="col">Crawlers named</th><th scope="col">Files</th></tr></thead>
<tbody>
${model.policies.map(
  (
    p,
  ) => html`<tr><td><a href="${link(href('policy_html', p.id))}">${p.title}</a></td><td>${p.crawlers.length}</td><td><a href="${link(href('robots', p.id))}">robots.txt</a> · <a href="${link(href('policy', p.id))}">JSON</a></td></tr>
`,
)}</tbody>
</table></div>
<h2 id="categories">Categories</h2>
<div class="wide" tabindex="0"><table>
<thead><tr><th scope="col">Category</th><th scope="col">Crawlers</th><th scope="col">What it means</th></tr></thead>
<tbody>
${model.categories.map(
  (c) => html`<tr><td><a href="${link(href('category_html', c.id))}">${c.label}</a></td><td>${counts.get(c.id) ?? 0}</td><td>${c.definition}</td></tr>
`,
)}</tbody>
</table></div>
<h2 id="coverage">Coverage</h2>
<p>Every fact except category and cost of blocking cites its source: the operator's own documentation first and, where the operator publishes nothing, public third-party evidence, labelled on each crawler's page.</p>
${coverageSection(model)}
<h2 id="endpoints">Endpoints</h2>
<p>Every path with its parameters and errors: <a href="${link(href('reference'))}">the API reference</a>.</p>
<div class="wide" tabindex="0"><table>
<thead><tr><th scope="col">Path</th><th scope="col">Returns</th></tr></thead>
<tbody>
${routes().map(
  (r) => html`<tr><td><code>${r.path}</code></td><td>${r.returns}</td></tr>
`,
)}</tbody>
</table></div>
<p>Every path is also served under <code>/api/v1/</code>. Source and issues: <a href="${site.repository}">${site.repository}</a>.</p>`;
  return page({
    path: href('home'),
    title: 'Index of web crawlers',
    description: `Open index of ${model.crawlers.length} web crawlers: robots.txt tokens, user agents, verification, ready-made robots.txt policies.`,
    canonical: link(href('home')),
    alternates: [{ type: 'application/json', href: link(href('agents')) }],
    body,
    siteName: site.name,
    baseUrl: site.base_url,
    repository: site.repository,
  });
}

function coverageSection(model: Model) {
  const report = coverage(model);
  return html`<p>${report.crawlers} crawlers (${report.robots_only_tokens} of them robots.txt control tokens with no crawler of their own) from ${report.operators} operators; ${report.ip_sources.ok} of ${report.ip_sources.total} operator IP lists mirrored (${report.ip_sources.failed} stale, ${report.ip_sources.never_fetched} not fetched yet). As JSON: <a href="${url(model.site, href('coverage'))}">coverage.json</a>.</p>
<div class="wide" tabindex="0"><table>
<caption>How sure each record is</caption>
<thead><tr><th scope="col">Evidence</th><th scope="col">Crawlers</th></tr></thead>
<tbody>
${Object.entries(report.by_evidence).map(
  ([level, n]) => html`<tr><td>${EVIDENCE_LABELS[level as keyof typeof EVIDENCE_LABELS]} (<code>${level}</code>)</td><td>${n}</td></tr>
`,
)}</tbody>
</table></div>
<div class="wide" tabindex="0"><table>
<caption>What operators say about robots.txt</caption>
<thead><tr><th scope="col">robots.txt stance</th><th scope="col">Crawlers</th></tr></thead>
<tbody>
${Object.entries(report.by_stance).map(
  ([stance, n]) => html`<tr><td>${STANCE_LABELS[stance as keyof typeof STANCE_LABELS]} (<code>${stance}</code>)</td><td>${n}</td></tr>
`,
)}</tbody>
</table></div>
<div class="wide" tabindex="0"><table>
<caption>How their crawlers can be verified (the strongest method each offers)</caption>
<thead><tr><th scope="col">Verification</th><th scope="col">Crawlers</th></tr></thead>
<tbody>
${Object.entries(report.by_verification).map(
  ([method, n]) => html`<tr><td>${VERIFICATION_LABELS[method as keyof typeof VERIFICATION_LABELS]} (<code>${method}</code>)</td><td>${n}</td></tr>
`,
)}</tbody>
</table></div>
<div class="wide" tabindex="0"><table>
<caption>Other projects' lists, name by name (<a href="${url(model.site, href('crosswalk'))}">crosswalk.json</a>)</caption>
<thead><tr><th scope="col">Peer dataset</th><th scope="col">Names</th><th scope="col">On a record</th><th scope="col">Named clients</th><th scope="col">Left out, with a reason</th><th scope="col">Heuristics</th><th scope="col">Not placed</th></tr></thead>
<tbody>
${crosswalk(model).peers.map(
  (peer) =>
    html`<tr><td>${peer.title}</td><td>${peer.counts.names}</td><td>${peer.counts.placed}</td><td>${peer.counts.clients}</td><td>${peer.counts.excluded}</td><td>${peer.counts.generic}</td><td>${peer.counts.unplaced}</td></tr>
`,
)}</tbody>
</table></div>`;
}

export function renderHome(model: Model): RenderedFile[] {
  return [
    { path: href('home'), kind: 'page', body: homeHtml(model) },
    { path: STYLE_SHEET, kind: 'asset', body: STYLE.trimStart() },
    { path: FAVICON_PATH, kind: 'asset', body: FAVICON },
    { path: SITE_SCRIPT, kind: 'asset', body: FILTER_SCRIPT },
  ];
}
