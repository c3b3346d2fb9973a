// The links of an HTML page, as a browser or a link checker would follow them: every
// href, src and srcset candidate, and the action of a form (with its method, since only a
// GET form is a link a static host can answer). The pages are our own generated HTML, so a
// tag scanner is enough; linkAttributeCount lets a test prove the scanner missed nothing.

export interface PageLink {
  tag: string;
  attribute: 'href' | 'src' | 'srcset' | 'action';
  value: string;
  /** A form's method, lower case; `get` when the form names none (HTML's default). */
  method?: string;
  /** A link element's or anchor's rel, lower case. */
  rel?: string;
}

const TAG = /<([a-zA-Z][a-zA-Z0-9-]*)(\s[^>]*)?>/g;
const ATTRIBUTE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const COUNTED = new Set(['href', 'src', 'action']);

/** The text of <script> and <style> elements and of comments: no links live there. */
const OPAQUE = /<!--[\s\S]*?-->|<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos|#39);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? `&${entity};`;
  });
}

function attributesOf(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase();
    if (!found.has(name)) found.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return found;
}

/** The URLs of a srcset: each candidate is a URL and an optional width or density. */
function srcsetUrls(value: string): string[] {
  return value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '');
}

/** Strips what holds no links, keeping the opening tags of script elements (their src is a link). */
function linkBearing(html: string): string {
  return html.replace(OPAQUE, (whole, element: string | undefined) => (element ? (/^<[^>]*>/.exec(whole)?.[0] ?? '') : ''));
}

export function pageLinks(html: string): PageLink[] {
  const links: PageLink[] = [];
  for (const match of linkBearing(html).matchAll(TAG)) {
    const tag = match[1]!.toLowerCase();
    const attributes = attributesOf(match[2] ?? '');
    for (const attribute of ['href', 'src', 'srcset', 'action'] as const) {
      const value = attributes.get(attribute);
      if (value === undefined) continue;
      if (attribute === 'srcset') for (const url of srcsetUrls(value)) links.push({ tag, attribute, value: url });
      else if (attribute === 'action') links.push({ tag, attribute, value, method: (attributes.get('method') ?? 'get').toLowerCase() });
      else links.push({ tag, attribute, value, ...(attributes.has('rel') ? { rel: attributes.get('rel')!.toLowerCase() } : {}) });
    }
  }
  return links;
}

/**
 * How many href, src and action attributes the page's tags carry, counted by a second, cruder
 * route (every ` name=` inside a tag): equal to the scanner's count of those when the scanner
 * read every one. srcset is left out, since one attribute holds several links.
 */
export function linkAttributeCount(html: string): number {
  let count = 0;
  for (const match of linkBearing(html).matchAll(TAG))
    for (const name of (match[2] ?? '').matchAll(/\s([a-zA-Z-]+)\s*=/g)) if (COUNTED.has(name[1]!.toLowerCase())) count += 1;
  return count;
}
