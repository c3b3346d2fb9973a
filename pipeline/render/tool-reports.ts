import type { SiteSettings } from '../records/types.ts';
import { html, type Markup } from '../site/html.ts';
import { page } from '../site/layout.ts';
import type { auditAiAccess, lintAnswer } from '../tools/definitions/robots-answers.ts';
import type { allowedTool } from '../tools/definitions/check-path-allowed.ts';
import type { mergePolicyTool } from '../tools/definitions/merge-policy.ts';
import { verifyTool } from '../tools/definitions/verify-batch.ts';
import type { ToolDefinition } from '../tools/registry/index.ts';
import { preferenceText } from '../tools/definitions/preference-answers.ts';
import { STANCE_LABELS } from '../model/labels.ts';

// Readable answers for a browser that submitted a tool's form: the same answer as the JSON
// (rendered from it), laid out as a report. The robots.txt tools get tables of their own; the
// others their summary, the words MCP and A2A answer with, and the whole JSON folded below it.
// Programs keep the JSON: only a request that rates text/html above application/json gets this.

// The answers' own types, so a report cannot drift from what the tools return.
type Audit = ReturnType<typeof auditAiAccess>;
type Brief = Audit['blocked'][number];
type Lint = ReturnType<typeof lintAnswer>;
type Allowed = ReturnType<typeof allowedTool.run>;
type Merged = ReturnType<typeof mergePolicyTool.run>;
type Verified = ReturnType<typeof verifyTool.run>;
type Line = NonNullable<Brief['deciding_line']>;

const wide = (table: Markup) => html`<div class="wide" tabindex="0">${table}</div>`;
const lineCell = (line: Line | null) =>
  line === null ? html`<span class="muted">no rule: allowed by default</span>` : html`line ${line.line}: <code>${line.text}</code>`;

function crawlerRows(items: readonly Brief[], mayNotObey: ReadonlySet<string>): Markup {
  return wide(html`<table>
<thead><tr><th scope="col">Crawler</th><th scope="col">Operator</th><th scope="col">Category</th><th scope="col">Obeys robots.txt</th><th scope="col">Deciding line</th><th scope="col">Usage preferences</th><th scope="col">Notes</th></tr></thead>
<tbody>
${items.map(
  (b) =>
    html`<tr><td>${b.name}${b.robots_token ? html` <code>${b.robots_token}</code>` : ''}</td><td>${b.operator}</td><td>${b.category}</td><td>${STANCE_LABELS[b.respects_robots_txt]}</td><td>${lineCell(b.deciding_line)}</td><td>${preferenceText(b.preferences)}</td><td>${
      mayNotObey.has(b.slug) ? `May not obey robots.txt (${b.respects_robots_txt}). ` : ''
    }${b.parser_dependent?.note ?? ''}</td></tr>
`,
)}</tbody>
</table>`);
}

// What the file declares beyond Allow and Disallow: licences, the header, contradictions and
// where a Cloudflare-managed block meets the site's own groups. Nothing when it declares none.
function preferencesSection(p: Audit['usage_preferences']): Markup | string {
  if (!p.declared && p.managed_blocks.length === 0) return '';
  const items = [
    ...p.licenses.map((l) => html`<li>line ${l.line}: RSL licence at <code>${l.url}</code>, for every crawler</li>`),
    ...(p.content_usage_header === null
      ? []
      : [
          html`<li>Content-Usage header <code>${p.content_usage_header.value}</code>: ${p.content_usage_header.error ?? (p.content_usage_header.declared.join(', ') || 'no known label')}</li>`,
        ]),
    ...p.contradictions.map((c) => html`<li><strong>Contradiction</strong> (lines ${c.lines.join(', ')}): ${c.message}</li>`),
    ...p.managed_overrides.map((m) => html`<li>Cloudflare-managed block${m.decided_by === 'both' ? '' : html` <strong>overrides</strong>`}: ${m.message}</li>`),
    ...(p.own_group_without_preferences.length === 0
      ? []
      : [
          html`<li>The <code>*</code> group's preferences do not reach these crawlers, which have a group of their own: ${p.own_group_without_preferences.join(', ')}</li>`,
        ]),
  ];
  const categories = Object.entries(p.by_category);
  return html`<h2>Usage preferences</h2>
<p>Preferences say how content may be used once fetched; they never change what may be fetched, and apply only where a crawler may fetch.</p>
${
  items.length > 0
    ? html`<ul>
${items.map(
  (i) => html`${i}
`,
)}</ul>`
    : ''
}
${
  categories.length === 0
    ? ''
    : wide(html`<table>
<thead><tr><th scope="col">Category</th><th scope="col">Preference</th><th scope="col">Crawlers it applies to</th></tr></thead>
<tbody>
${categories.flatMap(([category, prefs]) =>
  Object.entries(prefs).map(
    ([pref, slugs]) => html`<tr><td>${category}</td><td><code>${pref}</code></td><td>${slugs.join(', ')}</td></tr>
`,
  ),
)}</tbody>
</table>`)
}`;
}

function auditReport(o: Audit): Markup {
  const mayNotObey = new Set(o.obedience.blocked_but_may_not_obey.map((m) => m.slug));
  return html`<h1>AI access for ${o.path}</h1>
${o.parsed.not_robots_txt ? html`<p><strong>${o.parsed.not_robots_txt}</strong></p>` : ''}
<p>${o.summary.blocked} of ${o.summary.ai_crawlers} AI crawlers are blocked and ${o.summary.allowed} allowed (the file has ${o.parsed.groups} groups).</p>
${preferencesSection(o.usage_preferences)}
<h2>Blocked (${o.blocked.length})</h2>
${o.blocked.length === 0 ? html`<p class="muted">None.</p>` : crawlerRows(o.blocked, mayNotObey)}
${
  o.unknown_tokens.length > 0
    ? html`<h2>Names that match no known crawler</h2>
<ul>
${o.unknown_tokens.map((u) => html`<li>line ${u.line}: <code>${u.token}</code>${u.did_you_mean ? html` (did you mean <code>${u.did_you_mean}</code>?)` : ''}</li>\n`)}</ul>`
    : ''
}
<h2>Allowed (${o.allowed.length})</h2>
${o.allowed.length === 0 ? html`<p class="muted">None.</p>` : crawlerRows(o.allowed, new Set())}`;
}

function lintReport(o: Lint): Markup {
  return html`<h1>robots.txt lint</h1>
<p>${o.counts.error} errors, ${o.counts.warning} warnings, ${o.counts.info} notes.</p>
${
  o.findings.length === 0
    ? html`<p>No findings.</p>`
    : wide(html`<table>
<thead><tr><th scope="col">Line</th><th scope="col">Severity</th><th scope="col">Finding</th><th scope="col">Fix</th></tr></thead>
<tbody>
${o.findings.map(
  (f) =>
    html`<tr><td>${f.line === null ? 'file' : html`${f.line}<br><code>${f.text ?? ''}</code>`}</td><td>${f.severity}</td><td>${f.message}</td><td>${f.fix}</td></tr>
`,
)}</tbody>
</table>`)
}`;
}

function allowedReport(o: Allowed): Markup {
  return html`<h1>Paths for ${o.token}</h1>
${o.not_robots_txt ? html`<p><strong>${o.not_robots_txt}</strong></p>` : ''}${o.ua_note ? html`<p>${o.ua_note}</p>` : ''}
${wide(html`<table>
<thead><tr><th scope="col">Path</th><th scope="col">Verdict</th><th scope="col">Why</th><th scope="col">Usage preferences</th></tr></thead>
<tbody>
${o.results.map(
  (r) =>
    html`<tr><td><code>${r.path}</code></td><td>${r.allowed ? 'allowed' : 'disallowed'}</td><td>${r.reason}${r.notes.map((n) => html`<br><span class="muted">${n}</span>`)}</td><td>${preferenceText(r.preferences)}${r.preference_contradictions.map((c) => html`<br><strong>Contradiction:</strong> ${c.message}`)}</td></tr>
`,
)}</tbody>
</table>`)}`;
}

function mergeReport(o: Merged): Markup {
  return html`<h1>Your robots.txt with ${o.policy}</h1>
<p>${o.added_groups.length} new group${o.added_groups.length === 1 ? '' : 's'} at the end, ${o.extended_groups.length} existing group${o.extended_groups.length === 1 ? '' : 's'} extended, ${o.unchanged.length} already as the policy asks.</p>
${o.extended_groups.length === 0 ? '' : html`<ul>${o.extended_groups.map((e) => html`<li>${e.note}</li>`)}</ul>`}
<pre><code>${o.robots_txt}</code></pre>`;
}

type Match = Extract<Verified['results'][number], { valid: true }>['matches'][number];

/** The published ranges an address is in: whose, which prefix, and from which list. */
const rangesCell = (matches: readonly Match[]) =>
  matches.length === 0
    ? html`<span class="muted">none</span>`
    : matches.map((m, i) => html`${i === 0 ? '' : html`<br>`}${m.operator_name}: <code>${m.prefix}</code> <span class="muted">(list ${m.source})</span>`);

// The summary (which leads with the addresses that could not be checked), then one row per
// address with its verdict before anything else about it, the ranges it is in, and why (which
// says how to confirm it where the lists cannot).
function verifyReport(o: Verified): Markup {
  const rows = o.results.map((r) =>
    r.valid
      ? html`<tr><td><code>${r.input}</code>${r.address === r.input ? '' : html`<br><span class="muted">${r.address}</span>`}</td><td>${
          r.verdict === 'unverifiable' ? html`<strong>unverifiable</strong>` : (r.verdict ?? 'no claim')
        }</td><td>${rangesCell(r.matches)}</td><td>${r.explanation}${r.caveat === null ? '' : html`<br><strong>Caveat:</strong> ${r.caveat}`}${r.note === null ? '' : html`<br><span class="muted">${r.note}</span>`}</td></tr>
`
      : html`<tr><td><code>${r.input}</code></td><td>invalid (${r.code})</td><td></td><td>${r.error}</td></tr>
`,
  );
  return summaryReport(
    verifyTool,
    o,
    wide(html`<table>
<thead><tr><th scope="col">Address</th><th scope="col">Verdict</th><th scope="col">Published range</th><th scope="col">Why</th></tr></thead>
<tbody>
${rows}</tbody>
</table>`),
  );
}

const REPORTS: Readonly<Record<string, (output: never) => Markup>> = {
  audit_ai_access: auditReport,
  lint_robots_txt: lintReport,
  check_path_allowed: allowedReport,
  merge_policy: mergeReport,
  verify_batch: verifyReport,
};

/** Any other tool: its summary as written (line breaks kept), what the tool adds, then the whole answer. */
function summaryReport(tool: ToolDefinition, output: unknown, detail: Markup | string = ''): Markup {
  return html`<h1>${tool.title}</h1>
<div class="summary">${tool.summarize(output)}</div>
${
  detail === ''
    ? ''
    : html`${detail}
`
}<details><summary>The whole answer as JSON</summary>
<pre><code>${JSON.stringify(output, null, 2)}</code></pre>
</details>`;
}

/** The report page for a tool's answer (the JSON the endpoint would send, parsed). */
export function toolReport(site: SiteSettings, tool: ToolDefinition, formPath: string, output: unknown): string {
  const render = REPORTS[tool.name];
  const again = tool.postBody === undefined ? 'Ask again' : 'Check another file';
  const body = html`${render === undefined ? summaryReport(tool, output) : render(output as never)}
<p><a href="${site.base_url}${formPath}">${again}</a>. Programs get the same answer as JSON: it is what the endpoint sends to any client that does not ask for HTML.</p>`;
  return reportPage(site, formPath, `${tool.title}: report`, 'The answer of a Crawler Index tool.', body);
}

/** A page answered at the tool's endpoint, not its own address: linked from the site's root. */
function reportPage(site: SiteSettings, formPath: string, title: string, description: string, body: Markup): string {
  return page({
    path: formPath,
    title,
    description,
    canonical: `${site.base_url}${formPath}`,
    body,
    siteName: site.name,
    baseUrl: site.base_url,
    repository: site.repository,
    links: 'root',
  });
}

/**
 * A refusal, for a browser that submitted a form: the error's own words and the way back to
 * the form, with the error's status kept. Programs keep the JSON error.
 */
export function toolErrorReport(site: SiteSettings, formPath: string, error: { message: string; field?: string; accepted?: string }): string {
  const body = html`<h1>The tool could not answer</h1>
<p>${error.message}</p>
${error.field === undefined ? '' : html`<p>Field: <code>${error.field}</code>${error.accepted === undefined ? '' : html`. Accepted: ${error.accepted}`}.</p>`}
<p><a href="${site.base_url}${formPath}">Back to the form</a>. Programs get the same answer as a JSON error.</p>`;
  return reportPage(site, formPath, 'The tool could not answer', 'A Crawler Index tool refused its input.', body);
}
