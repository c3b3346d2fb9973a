import type { CrawlerView, Model } from '../model/model.ts';
import { url } from '../model/model.ts';
import { html, type Markup } from '../site/html.ts';
import { page } from '../site/layout.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../routes.ts';

function crawlerHtml(model: Model, crawler: CrawlerView): string {
  const { site } = model;
  const verification =
    crawler.verification_method === 'published-ranges'
      ? html`${crawler.verification_label}: <a href="${crawler.ip_ranges_endpoint}">our mirror</a> (${crawler.ipv4_prefix_count} IPv4, ${crawler.ipv6_prefix_count} IPv6 prefixes) of <a href="${crawler.published_ip_ranges_url}">the operator's list</a>.`
      : crawler.verification_method === 'reverse-dns'
        ? html`${crawler.verification_label}: the host name must end in ${crawler.reverse_dns_hostnames.map((h, i) => html`${i > 0 ? ', ' : ''}<code>${h}</code>`)} and resolve back to the same address.`
        : html`${crawler.verification_label}. A request claiming to be ${crawler.name} cannot be confirmed.`;
  const body = html`<h1>${crawler.name}</h1>
${retiredNotice(model, crawler)}<p class="muted">${crawler.category_label} · operated by <a href="${url(site, href('operator', crawler.operator_slug))}">${crawler.operator}</a></p>
<p>${crawler.what_it_is}</p>
<dl>
<dt>robots.txt token</dt><dd>${crawler.robots_token === null ? html`<span class="muted">none: robots.txt does not apply</span>` : html`<code>${crawler.robots_token}</code>`}${crawler.robots_token_note ? html` <br><span class="muted">${crawler.robots_token_note}</span>` : ''}</dd>
<dt>User-agent substring</dt><dd>${crawler.user_agent_substring === null ? html`<span class="muted">none: this is a robots.txt control token with no crawler of its own</span>` : html`<code>${crawler.user_agent_substring}</code>`}</dd>
${
  crawler.user_agent_example === null
    ? ''
    : html`<dt>Example User-Agent</dt><dd><code>${crawler.user_agent_example}</code></dd>
`
}<dt>Obeys robots.txt</dt><dd>${crawler.respects_robots_txt_label}${crawler.robots_txt_note ? html`. ${crawler.robots_txt_note}` : ''}${crawler.robots_txt_evidence ? html` (<a href="${crawler.robots_txt_evidence}">report</a>)` : ''}</dd>
${
  crawler.honoured_tokens.length === 0
    ? ''
    : html`<dt>Also obeys groups for</dt><dd>${crawler.honoured_tokens.map(
        (h, i) =>
          html`${i > 0 ? html`<br>` : ''}<code>${h.token}</code>: ${h.note} <span class="muted">(${evidenceLabel(h.citation.kind)}: <a href="${h.citation.url}">${h.citation.publisher}</a>, ${h.citation.retrieved})</span>`,
      )}</dd>
`
}<dt>Verification</dt><dd>${verification}</dd>
<dt>Cost of blocking</dt><dd>${crawler.cost_of_blocking}</dd>
<dt>Source</dt><dd><a href="${crawler.operator_docs}">${crawler.operator}'s documentation</a>, reviewed ${crawler.last_reviewed}</dd>
</dl>
${
  crawler.status === 'retired' || crawler.robots_token === null
    ? ''
    : html`<h2>Block it</h2>
<pre><code>User-agent: ${crawler.robots_token}
Disallow: /</code></pre>
`
}<p>Also as <a href="${crawler.json_url}">JSON</a> and <a href="${crawler.markdown_url}">Markdown</a>.</p>`;
  return page({
    path: href('crawler_html', crawler.slug),
    title: `${crawler.name} (${crawler.operator})`,
    description: `${crawler.name}: robots.txt token, user agent, verification and cost of blocking.`,
    canonical: crawler.html_url,
    alternates: [
      { type: 'application/json', href: crawler.json_url },
      { type: 'text/markdown', href: crawler.markdown_url },
    ],
    body,
    siteName: site.name,
    baseUrl: site.base_url,
    repository: site.repository,
  });
}

/** Markdown for models: the same facts as the page, as a flat list a model can quote. */
export function crawlerMarkdown(crawler: CrawlerView): string {
  const lines = [
    `# ${crawler.name}`,
    '',
    `${crawler.what_it_is}`,
    '',
    ...(crawler.status === 'retired'
      ? [
          `- Status: retired${crawler.retired_since === null ? '' : ` since ${crawler.retired_since}`}. ${crawler.retirement_note ?? ''}${crawler.successor === null ? '' : ` Successor: \`${crawler.successor}\`.`}${crawler.retirement_citation === null ? '' : ` (${evidenceLabel(crawler.retirement_citation.kind)}: ${crawler.retirement_citation.publisher}, ${crawler.retirement_citation.url})`}`,
        ]
      : []),
    `- Operator: ${crawler.operator} (\`${crawler.operator_slug}\`)`,
    `- Category: ${crawler.category_label} (\`${crawler.category}\`)`,
    `- robots.txt token: ${crawler.robots_token === null ? 'none (robots.txt does not apply)' : `\`${crawler.robots_token}\``}${crawler.robots_token_note ? ` (${crawler.robots_token_note})` : ''}`,
    `- User-agent substring: ${crawler.user_agent_substring === null ? 'none (robots.txt control token with no crawler of its own)' : `\`${crawler.user_agent_substring}\``}`,
    ...(crawler.user_agent_example === null ? [] : [`- Example User-Agent: \`${crawler.user_agent_example}\``]),
    `- Obeys robots.txt: ${crawler.respects_robots_txt_label} (\`${crawler.respects_robots_txt}\`)${crawler.robots_txt_note ? `. ${crawler.robots_txt_note}` : ''}${crawler.robots_txt_evidence ? ` Report: ${crawler.robots_txt_evidence}` : ''}`,
    ...crawler.honoured_tokens.map(
      (h) =>
        `- Also obeys groups for \`${h.token}\`: ${h.note} (${evidenceLabel(h.citation.kind)}: ${h.citation.publisher}, ${h.citation.url}, ${h.citation.retrieved})`,
    ),
    `- Verification: ${crawler.verification_label} (\`${crawler.verification_method}\`)${verificationDetail(crawler)}`,
    `- Cost of blocking: ${crawler.cost_of_blocking}`,
    `- Operator documentation: ${crawler.operator_docs} (reviewed ${crawler.last_reviewed})`,
    `- JSON: ${crawler.json_url}`,
    '',
  ];
  return lines.join('\n');
}

/** A retired crawler's page says so first: a reader who found the token in a robots.txt learns what to do. */
function retiredNotice(model: Model, crawler: CrawlerView): Markup | '' {
  if (crawler.status !== 'retired') return '';
  const successor = model.crawlers.find((c) => c.slug === crawler.successor);
  const citation = crawler.retirement_citation;
  return html`<p><strong>Retired${crawler.retired_since === null ? '' : html` since ${crawler.retired_since}`}.</strong> ${crawler.retirement_note ?? ''}${successor === undefined ? '' : html` Name <a href="${successor.html_url}">${successor.robots_token ?? successor.name}</a> instead.`}${citation === null ? '' : html` <span class="muted">(${evidenceLabel(citation.kind)}: <a href="${citation.url}">${citation.publisher}</a>, ${citation.retrieved})</span>`}</p>
`;
}

/** How far a cited statement is from the operator itself, in words a reader can weigh. */
function evidenceLabel(kind: CrawlerView['honoured_tokens'][number]['citation']['kind']): string {
  return { operator: "the operator's own page", 'third-party': 'third-party source', observed: 'observed in traffic' }[kind];
}

function verificationDetail(crawler: CrawlerView): string {
  if (crawler.verification_method === 'published-ranges')
    return `; ${crawler.ipv4_prefix_count} IPv4 and ${crawler.ipv6_prefix_count} IPv6 prefixes mirrored at ${crawler.ip_ranges_endpoint}`;
  if (crawler.verification_method === 'reverse-dns') return `; host names end in ${crawler.reverse_dns_hostnames.join(', ')}`;
  return '';
}

export function renderCrawlers(model: Model): RenderedFile[] {
  return model.crawlers.flatMap((crawler) => [
    { path: href('crawler', crawler.slug), kind: 'crawler', body: canonicalJson(crawler) },
    { path: href('crawler_html', crawler.slug), kind: 'crawler-page', body: crawlerHtml(model, crawler) },
    { path: href('crawler_markdown', crawler.slug), kind: 'crawler-markdown', body: crawlerMarkdown(crawler) },
  ]);
}
