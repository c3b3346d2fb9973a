import type { CrawlerView, Model } from '../model/model.ts';
import { url } from '../model/model.ts';
import { html, type Markup, prose } from '../site/html.ts';
import { page } from '../site/layout.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href, toolHref } from '../paths.ts';
import { verifySignatureTool } from '../tools/definitions/verify-signature.ts';

function crawlerHtml(model: Model, crawler: CrawlerView): string {
  const { site } = model;
  const verification = crawler.verification.map((entry, i) => html`${i > 0 ? html`<br>` : ''}${verificationHtml(model, crawler, entry)}`);
  const body = html`<h1>${crawler.name}</h1>
${retiredNotice(model, crawler)}<p class="muted"><a href="${url(site, href('category_html', crawler.category))}">${crawler.category_label}</a> · operated by <a href="${url(site, href('operator_html', crawler.operator_slug))}">${crawler.operator}</a> · <span class="evidence evidence-${crawler.evidence}">${crawler.evidence_label}</span></p>
<p>${prose(crawler.what_it_is)}</p>
<dl>
<dt>robots.txt token</dt><dd>${crawler.robots_token === null ? html`<span class="muted">none documented</span>` : html`<code>${crawler.robots_token}</code>`}${crawler.robots_token_note ? html` <br><span class="muted">${prose(crawler.robots_token_note)}</span>` : ''}</dd>
<dt>User-agent substring</dt><dd>${crawler.user_agent_substring === null ? html`<span class="muted">none: ${noSubstring(crawler)}</span>` : html`<code>${crawler.user_agent_substring}</code>`}${
    crawler.user_agent_full_forms.length === 0
      ? ''
      : html`<br><span class="muted">only in a whole header of the form</span> ${crawler.user_agent_full_forms.map((form, i) => html`${i > 0 ? ' or ' : ''}<code>${form}</code>`)}`
  }</dd>
${
  crawler.user_agent_example === null
    ? ''
    : html`<dt>Example User-Agent</dt><dd><code>${crawler.user_agent_example}</code></dd>
`
}${
  crawler.variants.length === 0
    ? ''
    : html`<dt>Also sends</dt><dd>${crawler.variants.map(
        (v, i) =>
          html`${i > 0 ? html`<br>` : ''}<code>${v.user_agent_example}</code> (substring <code>${v.user_agent_substring}</code>)${v.note === null ? '' : html`: ${prose(v.note)}`} <span class="muted">(${evidenceLabel(v.citation.kind)}: <a href="${v.citation.url}">${v.citation.publisher}</a>, ${v.citation.retrieved})</span>`,
      )}</dd>
`
}<dt>Obeys robots.txt</dt><dd>${crawler.respects_robots_txt_label}${crawler.robots_txt_note ? html`. ${prose(crawler.robots_txt_note)}` : ''}${crawler.robots_txt_evidence ? html` (<a href="${crawler.robots_txt_evidence}">report</a>)` : ''}</dd>
${
  crawler.honoured_tokens.length === 0
    ? ''
    : html`<dt>Also obeys groups for</dt><dd>${crawler.honoured_tokens.map(
        (h, i) =>
          html`${i > 0 ? html`<br>` : ''}<code>${h.token}</code>: ${prose(h.note)} <span class="muted">(${evidenceLabel(h.citation.kind)}: <a href="${h.citation.url}">${h.citation.publisher}</a>, ${h.citation.retrieved})</span>`,
      )}</dd>
`
}<dt>Verification</dt><dd>${verification}</dd>
<dt>Cost of blocking</dt><dd>${prose(crawler.cost_of_blocking)}</dd>
<dt>Evidence</dt><dd>${crawler.citations.map(
    (c, i) =>
      html`${i > 0 ? html`<br>` : ''}<a href="${c.url}">${c.publisher}</a> <span class="muted">(${evidenceLabel(c.kind)}, retrieved ${c.retrieved}; shows ${c.supports.map((f) => FIELD_WORDS[f]).join(', ')})</span>${c.note === null ? '' : html`: ${prose(c.note)}`}`,
  )}<br><span class="muted">Record reviewed ${crawler.last_reviewed}.</span></dd>
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
    `- robots.txt token: ${crawler.robots_token === null ? 'none documented' : `\`${crawler.robots_token}\``}${crawler.robots_token_note ? ` (${crawler.robots_token_note})` : ''}`,
    `- User-agent substring: ${crawler.user_agent_substring === null ? `none (${noSubstring(crawler)})` : `\`${crawler.user_agent_substring}\``}${crawler.user_agent_full_forms.length === 0 ? '' : `, only in a whole header of the form ${crawler.user_agent_full_forms.map((form) => `\`${form}\``).join(' or ')}`}`,
    ...(crawler.user_agent_example === null ? [] : [`- Example User-Agent: \`${crawler.user_agent_example}\``]),
    ...crawler.variants.map(
      (v) =>
        `- Also sends: \`${v.user_agent_example}\` (substring \`${v.user_agent_substring}\`)${v.note === null ? '' : `: ${v.note}`} (${evidenceLabel(v.citation.kind)}: ${v.citation.publisher}, ${v.citation.url}, ${v.citation.retrieved})`,
    ),
    `- Obeys robots.txt: ${crawler.respects_robots_txt_label} (\`${crawler.respects_robots_txt}\`)${crawler.robots_txt_note ? `. ${crawler.robots_txt_note}` : ''}${crawler.robots_txt_evidence ? ` Report: ${crawler.robots_txt_evidence}` : ''}`,
    ...crawler.honoured_tokens.map(
      (h) =>
        `- Also obeys groups for \`${h.token}\`: ${h.note} (${evidenceLabel(h.citation.kind)}: ${h.citation.publisher}, ${h.citation.url}, ${h.citation.retrieved})`,
    ),
    `- Evidence: ${crawler.evidence_label} (\`${crawler.evidence}\`)`,
    ...crawler.verification.map((entry) => `- Verification: ${entry.label} (\`${entry.method}\`)${verificationDetail(crawler, entry)}`),
    `- Cost of blocking: ${crawler.cost_of_blocking}`,
    `- Operator documentation: ${crawler.operator_docs ?? 'none; the operator publishes no page about this crawler'}`,
    ...crawler.citations.map(
      (c) =>
        `- Source: ${c.publisher}, ${c.url} (${evidenceLabel(c.kind)}, retrieved ${c.retrieved}; shows ${c.supports.map((f) => FIELD_WORDS[f]).join(', ')})${c.note === null ? '' : `: ${c.note}`}`,
    ),
    `- Reviewed: ${crawler.last_reviewed}`,
    `- JSON: ${crawler.json_url}`,
    '',
  ];
  return lines.join('\n');
}

/** Why no header identifies the crawler: a control token sends none; another crawler's record says why. */
function noSubstring(crawler: CrawlerView): string {
  return crawler.robots_only ? 'this is a robots.txt control token with no crawler of its own' : (crawler.user_agent_note ?? 'no header identifies it');
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

const FIELD_WORDS: Record<CrawlerView['citations'][number]['supports'][number], string> = {
  robots_token: 'the robots.txt token',
  user_agent_example: 'the User-Agent',
  respects_robots_txt: 'the robots.txt stance',
  verification: 'verification',
  what_it_is: 'what it is',
};

type Entry = CrawlerView['verification'][number];

function verificationHtml(model: Model, crawler: CrawlerView, entry: Entry): Markup {
  const mirrors = (ids: readonly string[]) => ids.map((id, i) => html`${i > 0 ? ', ' : ''}<a href="${url(model.site, href('ip_ranges', id))}">${id}</a>`);
  switch (entry.method) {
    case 'published-ranges':
      return html`${entry.label}: our mirror ${mirrors(entry.sources)} (${crawler.ipv4_prefix_count} IPv4, ${crawler.ipv6_prefix_count} IPv6 prefixes) of <a href="${crawler.published_ip_ranges_url}">the operator's list</a>.`;
    case 'fixed-ips':
      return html`${entry.label}: ${entry.addresses.map((a, i) => html`${i > 0 ? ', ' : ''}<code>${a}</code>`)}.`;
    case 'reverse-dns':
      return html`${entry.label}: the host name must end in ${entry.hostnames.map((h, i) => html`${i > 0 ? ', ' : ''}<code>${h}</code>`)} and resolve back to the same address.`;
    case 'asn':
      return html`${entry.label}: ${entry.asns.map((n, i) => html`${i > 0 ? ', ' : ''}AS${n}`)}${entry.sources.length > 0 ? html` (our copy of its prefixes: ${mirrors(entry.sources)})` : ''}. An address there is ${crawler.operator}'s, not proof of this crawler.`;
    case 'web-bot-auth': {
      const mirrored = model.directories.find((d) => d.url === entry.directory);
      return html`${entry.label}: ${entry.signature_agent === null ? '' : html`requests carry <code>Signature-Agent: "${entry.signature_agent}"</code>; `}keys in <a href="${entry.directory ?? ''}">the signature directory</a>${mirrored === undefined ? '' : html` (our mirror: <a href="${mirrored.endpoint}">${mirrored.id}</a>, ${mirrored.keys.length} key${mirrored.keys.length === 1 ? '' : 's'}, ${mirrored.mirror.state})`}. Check a request with <a href="${url(model.site, toolHref(verifySignatureTool, 'form'))}">verify-signature</a>.`;
    }
    case 'none':
      return html`${entry.label}. A request claiming to be ${crawler.name} cannot be confirmed.`;
  }
}

function verificationDetail(crawler: CrawlerView, entry: Entry): string {
  switch (entry.method) {
    case 'published-ranges':
      return `; ${crawler.ipv4_prefix_count} IPv4 and ${crawler.ipv6_prefix_count} IPv6 prefixes mirrored at ${crawler.ip_ranges_endpoint}`;
    case 'fixed-ips':
      return `; addresses ${entry.addresses.join(', ')}`;
    case 'reverse-dns':
      return `; host names end in ${entry.hostnames.join(', ')}`;
    case 'asn':
      return `; ${entry.asns.map((n) => `AS${n}`).join(', ')}${entry.sources.length > 0 ? `, prefixes mirrored as ${entry.sources.join(', ')}` : ''}`;
    case 'web-bot-auth':
      return `${entry.signature_agent === null ? '' : `; Signature-Agent "${entry.signature_agent}"`}; key directory ${entry.directory}`;
    case 'none':
      return '';
  }
}

export function renderCrawlers(model: Model): RenderedFile[] {
  return model.crawlers.flatMap((crawler) => [
    { path: href('crawler', crawler.slug), kind: 'crawler', body: canonicalJson(crawler) },
    { path: href('crawler_html', crawler.slug), kind: 'crawler-page', body: crawlerHtml(model, crawler) },
    { path: href('crawler_markdown', crawler.slug), kind: 'crawler-markdown', body: crawlerMarkdown(crawler) },
  ]);
}
