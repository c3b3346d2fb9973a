// How the log books a request: which crawler its User-Agent names and what its address shows.
// Runs after the answer is sent, on data the tools already hold (the classifier and the prefix
// index), so it costs a substring scan per User-Agent and a trie walk per crawler and address,
// each done once and remembered for the requests that repeat them.

import type { CrawlerView } from '../model/model.ts';
import { crawlerNamedBy } from './classify/index.ts';
import type { ToolData } from './registry/types.ts';
import { lookup } from './verify/index.ts';
import { everyListUsableUntil } from './verify/evidence.ts';
import type { Verdict } from '../log/types.ts';

export interface Booking {
  crawler: string | null;
  category: string | null;
  verdict: Verdict | null;
}

const NOBODY: Booking = { crawler: null, category: null, verdict: null };

// Methods that a request's address alone can settle; the others need DNS, a signature, or nothing can.
const ADDRESS_CHECKS = new Set<CrawlerView['verification_method']>(['published-ranges', 'fixed-ips', 'asn']);

/** `now` (milliseconds since the epoch) is when the lists' copies are judged current or too old (docs/API.md §6.4). */
export function bookRequest(data: ToolData | null, userAgent: string | null, address: string | null, now = Date.now()): Booking {
  if (data === null || userAgent === null) return NOBODY;
  const named = namedCrawler(data, userAgent);
  if (named === null) return NOBODY;
  const crawler = data.bySlug.get(named.slug);
  const verdict = crawler === undefined || address === null ? 'unverifiable' : verdictOf(data, crawler, address, now);
  return { crawler: named.slug, category: named.category, verdict };
}

function verdictOf(data: ToolData, crawler: CrawlerView, address: string, now: number): Verdict {
  return rememberedAddress(data, crawler, address) ?? (now <= notGenuineUntil(data, crawler) ? 'not-genuine' : 'unverifiable');
}

/** What an address shows for a crawler by its prefixes alone: in its lists, in its operator's network, or neither (null). */
type AddressShows = 'genuine' | 'operator-network' | null;

function addressShows(data: ToolData, crawler: CrawlerView, address: string): AddressShows {
  const found = lookup(data.prefixes, address);
  const matches = found.valid ? found.matches : [];
  if (matches.some((m) => m.scope !== 'network' && m.crawlers.includes(crawler.slug))) return 'genuine';
  if (matches.some((m) => m.scope === 'network' && m.operator === crawler.operator_slug)) return 'operator-network';
  return null;
}

/**
 * Until when (ms since the epoch) an address in none of a crawler's lists is not-genuine rather
 * than unverifiable: an address is ruled out only by lists this service holds current copies of
 * (verify-crawler's rule, docs/API.md §6.4), so a list never fetched, empty or too old leaves it
 * unverifiable. -Infinity when nothing can rule it out. The same for every address.
 */
function listsRuleOutUntil(data: ToolData, crawler: CrawlerView): number {
  const checks = crawler.verification.filter((v) => ADDRESS_CHECKS.has(v.method) && (v.method !== 'asn' || v.sources.length > 0));
  if (checks.length === 0 || checks.some((v) => v.method === 'published-ranges' && v.sources.length === 0)) return Number.NEGATIVE_INFINITY;
  const lists = checks.flatMap((v) => (v.method === 'fixed-ips' ? [] : v.sources));
  return everyListUsableUntil(data.prefixes, lists);
}

// The log books every request, and most come from few addresses and name few crawlers: what an
// address shows for a crawler, and until when a crawler's lists rule an address out, are worked
// out once per published tree and remembered (the addresses bounded like the User-Agents below);
// the time of each request still decides whether the lists are current.
const remembered = new WeakMap<ToolData, { addresses: number; byCrawler: Map<string, Map<string, AddressShows>>; until: Map<string, number> }>();

function memoOf(data: ToolData) {
  let memo = remembered.get(data);
  if (memo === undefined) {
    memo = { addresses: 0, byCrawler: new Map(), until: new Map() };
    remembered.set(data, memo);
  }
  return memo;
}

function notGenuineUntil(data: ToolData, crawler: CrawlerView): number {
  const { until } = memoOf(data);
  let moment = until.get(crawler.slug);
  if (moment === undefined) {
    moment = listsRuleOutUntil(data, crawler);
    until.set(crawler.slug, moment);
  }
  return moment;
}

function rememberedAddress(data: ToolData, crawler: CrawlerView, address: string): AddressShows {
  const memo = memoOf(data);
  let byAddress = memo.byCrawler.get(crawler.slug);
  let shows = byAddress?.get(address);
  if (shows === undefined) {
    shows = addressShows(data, crawler, address);
    if (memo.addresses >= REMEMBERED) {
      memo.byCrawler.clear();
      memo.addresses = 0;
      byAddress = undefined;
    }
    if (byAddress === undefined) {
      byAddress = new Map();
      memo.byCrawler.set(crawler.slug, byAddress);
    }
    byAddress.set(address, shows);
    memo.addresses++;
  }
  return shows;
}

// The same few User-Agents arrive again and again: each is classified once per published tree
// (bounded, so that a flood of distinct headers costs no more memory than this).
const REMEMBERED = 10_000;
const named = new WeakMap<ToolData, Map<string, ReturnType<typeof crawlerNamedBy>>>();

function namedCrawler(data: ToolData, userAgent: string): ReturnType<typeof crawlerNamedBy> {
  let memo = named.get(data);
  if (memo === undefined) {
    memo = new Map();
    named.set(data, memo);
  }
  let crawler = memo.get(userAgent);
  if (crawler === undefined) {
    crawler = crawlerNamedBy(data.classifier, userAgent);
    if (memo.size >= REMEMBERED) memo.clear();
    memo.set(userAgent, crawler);
  }
  return crawler;
}
