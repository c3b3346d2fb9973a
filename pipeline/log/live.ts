// The live counters written into every page (docs/API.md §2.5, §4.3a), computed from the same daily rows as
// /stats.json. Pure: the server caches the result with the statistics and substitutes it.

import type { DailyRow } from './types.ts';

interface CrawlerCount {
  requests: number;
  /** Requests from the crawler's own published or listed addresses. */
  genuine: number;
}

export interface LiveCounts {
  days: number;
  today: number;
  requests: number;
  claimed: number;
  genuine: number;
  byCrawler: ReadonlyMap<string, CrawlerCount>;
}

export function liveCounts(rows: readonly DailyRow[], today: string, days: number): LiveCounts {
  const byCrawler = new Map<string, CrawlerCount>();
  let todayCount = 0;
  let requests = 0;
  let claimed = 0;
  let genuine = 0;
  for (const row of rows) {
    requests += row.requests;
    if (row.day === today) todayCount += row.requests;
    if (row.crawler === null) continue;
    const isGenuine = row.verdict === 'genuine' ? row.requests : 0;
    claimed += row.requests;
    genuine += isGenuine;
    const count = byCrawler.get(row.crawler) ?? { requests: 0, genuine: 0 };
    byCrawler.set(row.crawler, { requests: count.requests + row.requests, genuine: count.genuine + isGenuine });
  }
  return { days, today: todayCount, requests, claimed, genuine, byCrawler };
}

/** 12345 → "12,345": fixed, so the page's bytes do not depend on the runtime's locale data. */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const times = (n: number, one: string, many: string) => `${grouped(n)} ${n === 1 ? one : many}`;

/** The counters as one sentence or two; a crawler's page also says how often that crawler came. */
export function liveText(counts: LiveCounts, crawler: { slug: string; name: string } | null): string {
  const span = `the last ${counts.days} days`;
  const site = `This server, today (UTC): ${times(counts.today, 'request', 'requests')}. In ${span}: ${times(counts.requests, 'request', 'requests')}, ${grouped(counts.claimed)} naming a crawler, ${grouped(counts.genuine)} of them from addresses verified as that crawler's own.`;
  if (crawler === null) return site;
  const own = counts.byCrawler.get(crawler.slug) ?? { requests: 0, genuine: 0 };
  return `${crawler.name} called on this index ${times(own.requests, 'time', 'times')} in ${span} (${grouped(own.genuine)} from addresses verified as its own). ${site}`;
}
