import { html, Markup } from './html.ts';
import { LIVE_MARKER } from './live.ts';
import { escapeRegex } from '../render/regex.ts';
import { href, STYLE_SHEET, SITE_SCRIPT, FAVICON_PATH, TOOLS_FOLDER } from '../paths.ts';

/** The one style sheet, served at /site.css so browsers fetch it once for every page. */
export const STYLE = `
:root{color-scheme:light dark;--fg:#1a1a1a;--bg:#fff;--muted:#555;--line:#ddd;--accent:#0b57d0;--code:#f4f4f4}
@media (prefers-color-scheme:dark){:root{--fg:#eee;--bg:#141414;--muted:#aaa;--line:#333;--accent:#8ab4f8;--code:#222}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.5rem}
header,main,footer{max-width:60rem;margin:0 auto;padding:1rem 1.25rem}
header{border-bottom:1px solid var(--line)}
header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
h1{font-size:1.8rem;line-height:1.2}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code);border-radius:4px}
code{padding:.05rem .3rem}
pre code{padding:0;background:none}
pre{padding:.75rem;overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600}
caption{text-align:left;font-weight:600;padding:.25rem 0}
dl{display:grid;grid-template-columns:minmax(10rem,max-content) 1fr;gap:.35rem 1rem}
dt{font-weight:600}dd{margin:0;min-width:0;overflow-wrap:anywhere}
@media (max-width:600px){dl{grid-template-columns:1fr;gap:.1rem}dd{margin-bottom:.5rem}}
@media (max-width:600px){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}table.stack,table.stack caption,table.stack tbody,table.stack tr,table.stack td{display:block}table.stack tr{border-bottom:1px solid var(--line);padding:.5rem 0}table.stack tr[hidden]{display:none}table.stack td{border:0;padding:.1rem 0}table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}
.muted{color:var(--muted)}
.wide{overflow-x:auto;max-width:100%}
.lede{font-size:1.1rem}
.find{margin:1.25rem 0;padding:1rem;border:1px solid var(--line);border-radius:6px}.find label{display:block;font-weight:600;font-size:1.2rem;margin-bottom:.4rem}.find-row{display:flex;gap:.5rem}.find input{flex:1 1 auto;min-width:0;font:inherit;font-size:1.1rem;padding:.45rem .6rem}.find button{font:inherit;padding:.45rem 1rem}.find p{margin:.5rem 0 0}
.jump{margin:.5rem 0 1rem}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end}.filters p{margin:0;flex:1 1 12rem;min-width:0}.filters label{display:block;font-weight:600}.filters select,.filters input{width:100%}
textarea,input[type=text]{width:100%;max-width:100%}
p code,li code,table.stack td code{overflow-wrap:anywhere}
.summary{white-space:pre-wrap;overflow-wrap:anywhere}
.evidence{border:1px solid currentColor;border-radius:3px;padding:0 .3em}.evidence-third-party,.evidence-observed{color:#8a4b00}
footer{border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
`;

/** The path of `to` as seen from the folder of `from` (both site paths starting with /). */
export function relativePath(from: string, to: string): string {
  const fromDirs = from.split('/').slice(1, -1);
  const toParts = to.split('/').slice(1);
  let shared = 0;
  while (shared < fromDirs.length && shared < toParts.length - 1 && fromDirs[shared] === toParts[shared]) shared++;
  const up = fromDirs.length - shared;
  return '../'.repeat(up) + toParts.slice(shared).join('/') || './';
}

/**
 * Links and form targets inside the site become relative, so the pages work wherever the tree
 * is served (the local server, a static host under a sub-path) while canonical and alternate
 * <link> elements stay absolute.
 */
export function relativizeLinks(page: string, baseUrl: string, pagePath: string): string {
  return page.replace(
    new RegExp(`(<(?:a|form)\\b[^>]*?\\s(?:href|action)=")${escapeRegex(baseUrl)}(/[^"]*)"`, 'g'),
    (_m, head: string, target: string) => `${head}${relativePath(pagePath, target)}"`,
  );
}

export interface PageOptions {
  /** The page's own path in the site, for relative links. */
  path: string;
  title: string;
  description: string;
  canonical: string;
  alternates?: { type: string; href: string }[];
  body: Markup;
  siteName: string;
  baseUrl: string;
  repository: string;
  /**
   * `relative` (the default) suits a page with one address; a page answered at several depths
   * (/reference, /api/docs) links from the site's root instead.
   */
  links?: 'relative' | 'root';
}

/** Search results cut titles near 70 characters: the site's name is dropped first, then the title is shortened. */
const TITLE_LIMIT = 70;
function pageTitle(title: string, siteName: string): string {
  const full = `${title} · ${siteName}`;
  if (full.length <= TITLE_LIMIT) return full;
  return title.length <= TITLE_LIMIT ? title : `${title.slice(0, TITLE_LIMIT - 1)}…`;
}

/** A site icon: the index's initials on the accent colour, as SVG so one small file serves every size. */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b57d0"/><text x="16" y="22" font-family="system-ui,sans-serif" font-size="15" font-weight="700" fill="#fff" text-anchor="middle">CI</text></svg>\n';

/**
 * Links inside the site written from the site's root (`/data/agents.json`, or
 * `/mirror/data/agents.json` for a site published under /mirror), canonical and alternate links
 * left absolute.
 */
function rootRelativeLinks(page: string, baseUrl: string): string {
  return page.replace(
    new RegExp(`(<(?:a|form)\\b[^>]*?\\s(?:href|action)=")${escapeRegex(baseUrl)}(/[^"]*)"`, 'g'),
    (_m, head: string, target: string) => `${head}${sitePath(baseUrl)}${target}"`,
  );
}

/** The path the site is published under: empty at a host's root. */
const sitePath = (baseUrl: string) => new URL(baseUrl).pathname.replace(/\/+$/, '');

export function page(options: PageOptions): string {
  const localise =
    options.links === 'root'
      ? (text: string) => rootRelativeLinks(text, options.baseUrl)
      : (text: string) => relativizeLinks(text, options.baseUrl, options.path);
  const siteFile = (path: string) => (options.links === 'root' ? `${sitePath(options.baseUrl)}${path}` : relativePath(options.path, path));
  return localise(
    html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${pageTitle(options.title, options.siteName)}</title>
<meta name="description" content="${options.description}">
<link rel="canonical" href="${options.canonical}">
${(options.alternates ?? []).map(
  (alt) => html`<link rel="alternate" type="${alt.type}" href="${alt.href}">
`,
)}<link rel="stylesheet" href="${siteFile(STYLE_SHEET)}">
<script src="${siteFile(SITE_SCRIPT)}" defer></script>
<link rel="icon" href="${siteFile(FAVICON_PATH)}" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Site"><a href="${options.baseUrl}${href('home')}"><strong>${options.siteName}</strong></a><a href="${options.baseUrl}${href('policies_html')}">Policies</a><a href="${options.baseUrl}${TOOLS_FOLDER}">Tools</a><a href="${options.baseUrl}${href('agents')}">Data</a><a href="${options.baseUrl}${href('documents')}">Ledger</a><a href="${options.baseUrl}${href('reference')}">API</a><a href="${options.repository}">Source</a></nav></header>
<main id="main">
${options.body}
</main>
<footer><p>${options.siteName} is an independent, non-commercial project, not affiliated with the operators it documents. Data is CC0-1.0. Categories and cost of blocking are our assessment; other facts cite their source: the operator's own documentation first, and a source labelled third-party where the operator says nothing.</p>
<p class="live">${new Markup(LIVE_MARKER)}</p></footer>
</body>
</html>
`.text,
  );
}
