// Which crawler records a signer is: a record's web-bot-auth verification entry names its
// agent's key directory, and a Signature-Agent names the agent's origin (older drafts) or the
// directory itself (current drafts), so the two meet on their origin.
import type { CrawlerView } from '../../model/model.ts';

export interface SignerCrawler {
  slug: string;
  name: string;
  operator: string;
  status: CrawlerView['status'];
  directory: string;
}

/** The records whose key directory is on the agent's origin; active records first. */
export function crawlersForAgent(crawlers: readonly CrawlerView[], agentUrl: string): SignerCrawler[] {
  const origin = originOf(agentUrl);
  if (origin === null) return [];
  const found: SignerCrawler[] = [];
  for (const crawler of crawlers)
    for (const entry of crawler.verification)
      if (entry.method === 'web-bot-auth' && entry.directory !== null && originOf(entry.directory) === origin)
        found.push({ slug: crawler.slug, name: crawler.name, operator: crawler.operator, status: crawler.status, directory: entry.directory });
  return found.sort((a, b) => Number(a.status !== 'active') - Number(b.status !== 'active'));
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    // A value that is no URL names no record.
    return null;
  }
}
