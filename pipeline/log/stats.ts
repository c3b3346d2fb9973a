// /stats.json: the public aggregate of the request log (docs/API.md §5), computed from the
// daily rows alone so that every store answers the same way. Pure.

import { compareText } from '../util/compare.ts';
import { type DailyRow, type LogHealth, VERDICTS, type Verdict } from './types.ts';

/** Crawlers listed one by one; the rest are summed into `other_crawlers`. */
export const LISTED_CRAWLERS = 100;

const ADDRESS_NOTE =
  'Addresses are never stored: each is kept as a hash under a random salt that lives only in the server process and is replaced every UTC day and at every restart.';

type VerdictCounts = Record<Verdict, number>;

const noVerdicts = (): VerdictCounts => Object.fromEntries(VERDICTS.map((v) => [v, 0])) as VerdictCounts;

export function statsDocument(rows: readonly DailyRow[], health: LogHealth, from: string, generatedAt: string) {
  const byDay = new Map<string, { requests: number; bytes: number }>();
  const byRoute = new Map<string, number>();
  const byStatus = new Map<string, number>();
  const byCategory = new Map<string, number>();
  const byCrawler = new Map<string, { requests: number } & VerdictCounts>();
  const crawlerVisits = noVerdicts();
  let requests = 0;
  let bytes = 0;
  for (const row of rows) {
    requests += row.requests;
    bytes += row.bytes;
    const day = byDay.get(row.day) ?? { requests: 0, bytes: 0 };
    byDay.set(row.day, { requests: day.requests + row.requests, bytes: day.bytes + row.bytes });
    byRoute.set(row.route, (byRoute.get(row.route) ?? 0) + row.requests);
    byStatus.set(String(row.status), (byStatus.get(String(row.status)) ?? 0) + row.requests);
    if (row.crawler === null) continue;
    const crawler = byCrawler.get(row.crawler) ?? { requests: 0, ...noVerdicts() };
    crawler.requests += row.requests;
    if (row.verdict !== null) {
      crawler[row.verdict] += row.requests;
      crawlerVisits[row.verdict] += row.requests;
    }
    byCrawler.set(row.crawler, crawler);
    if (row.category !== null) byCategory.set(row.category, (byCategory.get(row.category) ?? 0) + row.requests);
  }
  const crawlers = [...byCrawler.entries()]
    .map(([slug, counts]) => ({ slug, ...counts }))
    .sort((a, b) => b.requests - a.requests || compareText(a.slug, b.slug));
  const listed = crawlers.slice(0, LISTED_CRAWLERS);
  const claimed = crawlers.reduce((n, c) => n + c.requests, 0);
  return {
    generated_at: generatedAt,
    log: { ...health, note: ADDRESS_NOTE },
    from,
    totals: { requests, bytes },
    by_day: [...byDay.entries()].sort(([a], [b]) => compareText(a, b)).map(([day, counts]) => ({ day, ...counts })),
    by_route: sortedObject(byRoute),
    by_status: sortedObject(byStatus),
    by_category: sortedObject(byCategory),
    crawler_visits: {
      // Requests whose User-Agent names a crawler, and what their addresses showed.
      claimed,
      ...crawlerVisits,
    },
    by_crawler: listed,
    other_crawlers: { crawlers: crawlers.length - listed.length, requests: crawlers.slice(LISTED_CRAWLERS).reduce((n, c) => n + c.requests, 0) },
  };
}

function sortedObject(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => compareText(a, b)));
}
