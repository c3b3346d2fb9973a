// A page that a crawler's own header links is usually the operator's best word on it: a record
// that does not cite it was probably written without reading it. Every link in the headers a
// record gives (its example, its variants' examples, its full forms) must be covered: a citation
// on the same host (or a subdomain either way), the operator's home page when the link is a bare
// host, or `header_links_note` naming the host and saying why it is not cited
// (records/AUTHORING.md, "Links in the header").

import type { CrawlerRecord, OperatorRecord, Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

// A link as headers write it: a scheme, or a bare www. host; it ends where the header's
// punctuation starts (`;`, `)`, a space, a quote or a comma).
const LINK = /(?:https?:\/\/|\bwww\.)[^\s;()<>"',]+/gi;

export interface HeaderLink {
  link: string;
  host: string;
  /** A link to a site's root only ("https://example.com/"), not to a page on it. */
  bare: boolean;
}

/** The host of a link or URL in lower case without a leading www., or null when it has none. */
function hostOf(text: string): string | null {
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `http://${text}`);
    return url.hostname.toLowerCase().replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/** Whether two hosts are the same site: equal, or one a subdomain of the other. */
export function sameSite(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

/** Every link in the headers a record gives for its crawler. */
export function headerLinks(record: CrawlerRecord): HeaderLink[] {
  const headers = [record.user_agent_example, ...(record.variants ?? []).map((v) => v.user_agent_example), ...(record.user_agent_full_forms ?? [])];
  const links: HeaderLink[] = [];
  for (const header of headers) {
    if (header === null || header === undefined) continue;
    for (const [raw] of header.matchAll(LINK)) {
      const link = raw.replace(/[.+]+$/, '');
      const host = hostOf(link);
      if (host === null) continue;
      const path = link.replace(/^https?:\/\//i, '').replace(/^[^/?#]*/, '');
      links.push({ link, host, bare: path === '' || path === '/' });
    }
  }
  return links;
}

/** The links of a record that nothing covers (see the rule above). */
function uncoveredLinks(record: CrawlerRecord, operator: OperatorRecord | undefined): HeaderLink[] {
  const citedHosts = [...record.citations.map((c) => c.url), ...(record.variants ?? []).map((v) => v.citation.url)]
    .map(hostOf)
    .filter((host): host is string => host !== null);
  const home = operator === undefined ? null : hostOf(operator.homepage);
  const note = (record.header_links_note ?? '').toLowerCase();
  return headerLinks(record).filter(
    ({ host, bare }) => !citedHosts.some((cited) => sameSite(cited, host)) && !(bare && home !== null && sameSite(home, host)) && !note.includes(host),
  );
}

export function checkHeaderLinks(records: RecordSet): Problem[] {
  const operators = new Map(records.operators.map((o) => [o.slug, o]));
  const problems: Problem[] = [];
  for (const record of records.crawlers) {
    const seen = new Set<string>();
    for (const { link, host } of uncoveredLinks(record, operators.get(record.operator))) {
      if (seen.has(host)) continue;
      seen.add(host);
      problems.push({
        file: crawlerFile(record.slug),
        path: '/citations',
        message: `the header links ${link}, which no citation covers: cite that page (kind operator when it is the operator's), or name ${host} in header_links_note and say why it is not cited (gone, needs a login, no copy could be read)`,
      });
    }
  }
  return problems;
}
