// Which crawler records a signer is. A record's web-bot-auth verification entry names the
// Signature-Agent its operator documents (signature_agent) and the agent's key directory. A
// signer is matched by that documented value first; a record that documents none is matched by
// its directory's origin, since a Signature-Agent names the agent's origin (older drafts) or the
// directory itself (current drafts), and the answer says which rule matched.
import type { CrawlerView } from '../../model/model.ts';
import { crawlerFields } from '../../model/crawler-fields.ts';

export interface SignerCrawler {
  slug: string;
  name: string;
  operator: string;
  status: CrawlerView['status'];
  directory: string;
  /** signature-agent: the record documents this Signature-Agent; directory-origin: its key directory is on the signer's origin. */
  matched_by: 'signature-agent' | 'directory-origin';
}

/** The records the agent URL names: documented Signature-Agent matches first, then active before retired. */
export function crawlersForAgent(crawlers: readonly CrawlerView[], agentUrl: string): SignerCrawler[] {
  const origin = originOf(agentUrl);
  if (origin === null) return [];
  const found: SignerCrawler[] = [];
  for (const crawler of crawlers)
    for (const entry of crawler.verification) {
      if (entry.method !== 'web-bot-auth' || entry.directory === null) continue;
      // A tree published before signature_agent existed lacks the key.
      const documented = entry.signature_agent ?? null;
      const matchedBy =
        documented !== null && sameAgent(documented, agentUrl) ? 'signature-agent' : originOf(entry.directory) === origin ? 'directory-origin' : null;
      if (matchedBy !== null)
        found.push({
          ...crawlerFields(crawler, ['slug', 'name', 'operator', 'status']),
          directory: entry.directory,
          matched_by: matchedBy,
        });
    }
  const rank = (c: SignerCrawler) => (c.matched_by === 'signature-agent' ? 0 : 2) + (c.status === 'active' ? 0 : 1);
  return found.sort((a, b) => rank(a) - rank(b));
}

/** The same agent: equal URLs once parsed (so https://chatgpt.com and https://chatgpt.com/ agree). */
function sameAgent(documented: string, sent: string): boolean {
  try {
    return new URL(documented).href === new URL(sent).href;
  } catch {
    // A value that is no URL names no record.
    return false;
  }
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    // A value that is no URL names no record.
    return null;
  }
}
