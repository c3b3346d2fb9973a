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
  const shown = rememberedShown(data, crawler, address);
  return typeof shown === 'string' ? shown : now <= shown.notGenuineUntil ? 'not-genuine' : 'unverifiable';
}

/**
 * What an address shows for a crawler whatever the time: a verdict, or not-genuine up to the
 * moment its lists' copies grow too old and unverifiable after (the time of each request decides).
 */
type Shown = Verdict | { notGenuineUntil: number };

function shownBy(data: ToolData, crawler: CrawlerView, address: string): Shown {
  const found = lookup(data.prefixes, address);
  const matches = found.valid ? found.matches : [];
  if (matches.some((m) => m.scope !== 'network' && m.crawlers.includes(crawler.slug))) return 'genuine';
  if (matches.some((m) => m.scope === 'network' && m.operator === crawler.operator_slug)) return 'operator-network';
  // An address is ruled out only by lists this service holds current copies of (verify-crawler's
  // rule, docs/API.md §6.4): a list never fetched, empty or too old leaves it unverifiable.
  const checks = crawler.verification.filter((v) => ADDRESS_CHECKS.has(v.method) && (v.method !== 'asn' || v.sources.length > 0));
  if (checks.length === 0 || checks.some((v) => v.method === 'published-ranges' && v.sources.length === 0)) return 'unverifiable';
  const lists = checks.flatMap((v) => (v.method === 'fixed-ips' ? [] : v.sources));
  return { notGenuineUntil: everyListUsableUntil(data.prefixes, lists) };
}

// Most requests come from few addresses, and the log books every one: what an address shows
// for a crawler is worked out once per published tree (bounded like the User-Agents below).
const rememberedShowings = new WeakMap<ToolData, { count: number; byCrawler: Map<string, Map<string, Shown>> }>();

function rememberedShown(data: ToolData, crawler: CrawlerView, address: string): Shown {
  let memo = rememberedShowings.get(data);
  if (memo === undefined) {
    memo = { count: 0, byCrawler: new Map() };
    rememberedShowings.set(data, memo);
  }
  let byAddress = memo.byCrawler.get(crawler.slug);
  let found = byAddress?.get(address);
  if (found === undefined) {
    found = shownBy(data, crawler, address);
    if (memo.count >= REMEMBERED) {
      memo.byCrawler.clear();
      memo.count = 0;
      byAddress = undefined;
    }
    if (byAddress === undefined) {
      byAddress = new Map();
      memo.byCrawler.set(crawler.slug, byAddress);
    }
    byAddress.set(address, found);
    memo.count++;
  }
  return found;
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
