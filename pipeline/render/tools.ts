import type { Model } from '../model/model.ts';
import { html } from '../site/html.ts';
import { page } from '../site/layout.ts';
import { TOOLS } from '../tools/registry/index.ts';
import { httpDescription, toolIndex, toolSpec } from '../contract/tool-spec.ts';
import type { ToolDefinition } from '../tools/registry/types.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href, toolHref, TOOLS_FOLDER } from '../paths.ts';
import { ATTRIBUTION_PARAM } from '../tools/registry/input.ts';

/**
 * The forms are answered by the server, which a static copy of the site (GitHub Pages, any
 * static host) does not have: the page says so before a visitor fills it in, rather than
 * leaving them with a 404. The same pages are served by the server, so it is said as a condition.
 */
export const NEEDS_SERVER = html`<p class="needs-server"><strong>Needs the server.</strong> This form is answered by the Crawler Index server (<code>npm start</code>, a container or Cloudflare Workers). A static copy of this site, such as one on GitHub Pages, serves every document but no tool: there this form cannot be sent. The robots.txt, User-Agent and address checks also run offline: <code>npx crawler-index --help</code>.</p>`;

/** A form that calls the tool with no script: robots.txt tools POST (so a large file fits, or is uploaded), the others GET; the browser shows the JSON answer. */
function toolForm(model: Model, tool: ToolDefinition & { path: string }): string {
  const { site } = model;
  const spec = toolSpec(site.base_url, tool);
  const fields = tool.params.map((p) => {
    const id = `f-${p.name}`;
    const big = p.name === 'robots_txt' || p.name === 'ip' || p.name === 'lines' || p.name === 'request' || p.name === 'directory';
    // Only a default is filled in (it is what an empty field means anyway); an example is a
    // placeholder, so what a person submits is their own input: a pre-filled example file
    // beside an uploaded one was refused, and an example header was audited as theirs.
    const initial = typeof p.default === 'string' ? p.default : '';
    const hint = p.example === undefined ? '' : html` placeholder="${p.example}"`;
    const required = p.required && p.name !== tool.postBody ? html` required` : '';
    const control = p.values
      ? html`<select id="${id}" name="${p.name}"${required} aria-describedby="${id}-help">${
          p.required && p.default === undefined ? html`<option value="">choose one</option>` : ''
        }${p.values.map((v) => html`<option${v === initial ? html` selected` : ''}>${v}</option>`)}</select>`
      : big
        ? html`<textarea id="${id}" name="${p.name}" rows="10"${hint}${required} aria-describedby="${id}-help"></textarea>`
        : html`<input type="text" id="${id}" name="${p.name}" value="${initial}"${hint}${required} aria-describedby="${id}-help">`;
    return html`<p><label for="${id}"><strong>${p.name}</strong>${p.required ? ' (required)' : ''}</label><br>
${control}
<br><span id="${id}-help" class="muted">${httpDescription(p)} Accepted: ${p.accepted}</span></p>
`;
  });
  // The form comes first, on a phone's first screen too: the title asks the question it answers,
  // each field says what it takes, and what the tool does in detail follows the form.
  const body = html`<h1>${tool.title}</h1>
${
  tool.postBody
    ? html`<form data-needs-server method="post" enctype="multipart/form-data" action="${site.base_url}${toolHref(tool, 'endpoint')}">
${fields}<p><label for="f-upload"><strong>or upload the file</strong></label><br><input type="file" id="f-upload" name="${tool.postBody}_file" accept=".txt,text/plain"></p>
`
    : html`<form data-needs-server method="get" action="${site.base_url}${toolHref(tool, 'endpoint')}">
${fields}`
}${tool.params.length === 0 ? html`<input type="hidden" name="${ATTRIBUTION_PARAM.name}" value="form">` : ''}<p><button type="submit">Run</button></p>
</form>
${NEEDS_SERVER}
<h2>What it does</h2>
<p>${tool.description}</p>
${tool.postBody ? html`<p>Large files: <code data-built-for="${site.base_url}">curl --data-binary @${tool.postBody === 'robots_txt' ? 'robots.txt' : `${tool.postBody}.txt`} '${site.base_url}${toolHref(tool, 'endpoint')}'</code> sends the file as the raw body.</p>` : ''}
<p>Specification: <a href="${site.base_url}${toolHref(tool, 'spec')}">${tool.path}.json</a>. Also on MCP: ${spec.mcp.map((u, i) => html`${i > 0 ? ', ' : ''}<code data-built-for="${site.base_url}">${u}</code>`)}. All tools: <a href="${site.base_url}${TOOLS_FOLDER}">${TOOLS_FOLDER}</a>.</p>`;
  return page({
    path: toolHref(tool, 'form'),
    title: tool.title,
    description: tool.description,
    canonical: `${site.base_url}${toolHref(tool, 'form')}`,
    body,
    siteName: site.name,
    baseUrl: site.base_url,
    repository: site.repository,
  });
}

export function renderTools(model: Model): RenderedFile[] {
  const base = model.site.base_url;
  const withPath = TOOLS.filter((t): t is ToolDefinition & { path: string } => t.path !== null);
  return [
    { path: href('tools'), kind: 'tool-index', body: canonicalJson(toolIndex(base)) },
    ...withPath.flatMap((tool): RenderedFile[] => [
      { path: toolHref(tool, 'spec'), kind: 'tool-spec', body: canonicalJson(toolSpec(base, tool)) },
      { path: toolHref(tool, 'form'), kind: 'tool-form', body: toolForm(model, tool) },
    ]),
  ];
}
