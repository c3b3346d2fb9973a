// verify-crawler: up to 500 addresses checked against every operator-published prefix, and,
// given a claimed crawler (a token such as "GPTBot" or a whole User-Agent header), a verdict
// per address on whether the claim holds. Pure and deterministic; never throws.

import type { CrawlerView } from '../../model/model.ts';
import { buildClassifier, classify, type Classifier } from '../classify/classify.ts';
import { compareText } from '../../util/compare.ts';
import { inputIssue } from '../classify/heuristic.ts';
import { howToVerify, type HowToVerify } from './how-to-verify.ts';
import { lookup, type PrefixIndex } from './prefix-index.ts';
import type { FoundAddress, InvalidAddress, PrefixMatch } from './sources.ts';

/** docs/API.md §8: ip values per call. */
export const MAX_ADDRESSES_PER_CALL = 500;

type ClaimVerdict = 'genuine' | 'operator-network' | 'operator-range' | 'other-operator' | 'not-in-published-ranges' | 'unknown-claim';

const VERDICTS: readonly ClaimVerdict[] = ['genuine', 'operator-network', 'operator-range', 'other-operator', 'not-in-published-ranges', 'unknown-claim'];

interface ClaimedCrawler {
  slug: string;
  name: string;
  operator: string;
  operator_slug: string;
  robots_token: string | null;
  robots_only: boolean;
  verification_method: CrawlerView['verification_method'];
  verification_label: string;
  verification: CrawlerView['verification'];
  ip_sources: string[];
  reverse_dns_hostnames: string[];
}

export type Claim =
  | {
      input: string;
      resolved: true;
      by: 'robots-token' | 'slug' | 'user-agent';
      crawler: ClaimedCrawler;
      note: string | null;
      /** How any address can be checked for this crawler, `<ip>` standing for the address; once per call, not per address. */
      how_to_verify: HowToVerify;
    }
  | { input: string; resolved: false; by: null; crawler: null; note: string; how_to_verify: null };

interface BatchMatch extends PrefixMatch {
  operator_name: string;
}

export interface CheckedAddress extends Omit<FoundAddress, 'matches'> {
  matches: BatchMatch[];
  /** Null without a claim. */
  verdict: ClaimVerdict | null;
  explanation: string;
  /** Set when our copy of a list the verdict depends on is stale or missing. */
  caveat: string | null;
}

export type BatchItem = InvalidAddress | CheckedAddress;

export interface BatchAnswer {
  claim: Claim | null;
  received: number;
  checked: number;
  limit: number;
  results: BatchItem[];
  summary: {
    valid: number;
    invalid: number;
    in_published_ranges: number;
    /** Null without a claim. */
    verdicts: Record<ClaimVerdict, number> | null;
  };
}

interface Context {
  classifier: Classifier;
  bySlug: Map<string, CrawlerView>;
  byToken: Map<string, CrawlerView>;
  operatorNames: Map<string, string>;
  /** Each of the index's matches with its operator's name, made once per match. */
  named: WeakMap<PrefixMatch, BatchMatch>;
}

// The crawler list is the model's and lives as long as it; build the lookups once per list.
const contexts = new WeakMap<readonly CrawlerView[], Context>();

function contextFor(crawlers: readonly CrawlerView[]): Context {
  let context = contexts.get(crawlers);
  if (context === undefined) {
    const sorted = [...crawlers].sort((a, b) => compareText(a.slug, b.slug));
    const byToken = new Map<string, CrawlerView>();
    // Sorted by slug and first wins, so a token shared by two records resolves the same way every time.
    for (const c of sorted) {
      const token = c.robots_token?.toLowerCase();
      if (token !== undefined && !byToken.has(token)) byToken.set(token, c);
    }
    context = {
      classifier: buildClassifier(crawlers),
      bySlug: new Map(sorted.map((c) => [c.slug, c])),
      byToken,
      operatorNames: new Map(sorted.map((c) => [c.operator_slug, c.operator])),
      named: new WeakMap(),
    };
    contexts.set(crawlers, context);
  }
  return context;
}

/**
 * The crawler a claim names. A robots.txt token (case-insensitive, RFC 9309 section 2.2.1) or a
 * slug is tried first, since "Googlebot" alone holds no user-agent substring; anything else is
 * read as a User-Agent header by the classifier.
 */
export function resolveClaim(crawlers: readonly CrawlerView[], claimed: string): Claim {
  const context = contextFor(crawlers);
  const issue = inputIssue(claimed);
  if (issue !== null) {
    const input = typeof claimed === 'string' ? claimed.slice(0, 200) : '';
    return { input, resolved: false, by: null, crawler: null, note: `The claimed user agent was not examined (${issue}).`, how_to_verify: null };
  }
  const text = claimed.trim();
  let by: 'robots-token' | 'slug' | 'user-agent' = 'robots-token';
  let record = context.byToken.get(text.toLowerCase());
  if (record === undefined) {
    by = 'slug';
    record = context.bySlug.get(text);
  }
  if (record === undefined) {
    const answer = classify(context.classifier, claimed);
    if (answer.matched) {
      by = 'user-agent';
      record = context.bySlug.get(answer.crawler.slug);
    }
  }
  if (record === undefined) {
    return {
      input: claimed,
      resolved: false,
      by: null,
      crawler: null,
      note: 'Neither a robots.txt token, a slug nor a User-Agent substring of any crawler in the index; the addresses are still checked against every published list.',
      how_to_verify: null,
    };
  }
  const note = record.robots_only
    ? `${record.robots_token} is a robots.txt control token, not a crawler of its own: no request carries it in a User-Agent header.`
    : null;
  return { input: claimed, resolved: true, by, crawler: claimedCrawler(record), note, how_to_verify: howToVerify(record) };
}

/**
 * Pass the model's own crawler array: the classifier and lookups built from it are cached per
 * array (a WeakMap), so a freshly filtered copy on every call would rebuild them each time.
 */
export function verifyBatch(index: PrefixIndex, crawlers: readonly CrawlerView[], addresses: readonly string[], claimedUa?: string): BatchAnswer {
  const context = contextFor(crawlers);
  const claim = claimedUa === undefined ? null : resolveClaim(crawlers, claimedUa);
  const results: BatchItem[] = addresses.map((input, i): BatchItem => {
    if (i >= MAX_ADDRESSES_PER_CALL) {
      return {
        valid: false,
        input,
        code: 'over-limit',
        error: `Only the first ${MAX_ADDRESSES_PER_CALL} addresses of a call are checked; send the rest in another call.`,
      };
    }
    const found = lookup(index, input);
    if (!found.valid) return found;
    const matches = found.matches.map((m) => named(context, m));
    const judged = judge(index, context, claim, found.address, matches);
    // Written out rather than spread: this runs up to 500 times a call.
    return {
      valid: true,
      input: found.input,
      address: found.address,
      family: found.family,
      ipv4_mapped: found.ipv4_mapped,
      range: found.range,
      note: found.note,
      matches,
      verdict: judged.verdict,
      explanation: judged.explanation,
      caveat: judged.caveat,
    };
  });

  const checked = results.filter((r): r is CheckedAddress => r.valid);
  let verdicts: Record<ClaimVerdict, number> | null = null;
  if (claim !== null) {
    verdicts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<ClaimVerdict, number>;
    for (const r of checked) if (r.verdict !== null) verdicts[r.verdict]++;
  }
  return {
    claim,
    received: addresses.length,
    checked: Math.min(addresses.length, MAX_ADDRESSES_PER_CALL),
    limit: MAX_ADDRESSES_PER_CALL,
    results,
    summary: {
      valid: checked.length,
      invalid: results.length - checked.length,
      in_published_ranges: checked.filter((r) => r.matches.length > 0).length,
      verdicts,
    },
  };
}

function named(context: Context, match: PrefixMatch): BatchMatch {
  let batchMatch = context.named.get(match);
  if (batchMatch === undefined) {
    batchMatch = { ...match, operator_name: context.operatorNames.get(match.operator) ?? match.operator };
    context.named.set(match, batchMatch);
  }
  return batchMatch;
}

type Judgement = Pick<CheckedAddress, 'verdict' | 'explanation' | 'caveat'>;

function judge(index: PrefixIndex, context: Context, claim: Claim | null, address: string, matches: readonly BatchMatch[]): Judgement {
  const where = describeMatches(context, matches);
  if (claim === null) return { verdict: null, explanation: where, caveat: null };
  if (!claim.resolved) {
    return { verdict: 'unknown-claim', explanation: `The claimed user agent names no crawler in the index. ${where}`, caveat: null };
  }
  const claimed = claim.crawler;
  const own = matches.find((m) => m.scope !== 'network' && m.crawlers.includes(claimed.slug));
  if (own !== undefined) {
    const where = own.scope === 'listed' ? `lists on its page for ${claimed.name} (this index's record)` : `publishes for ${claimed.name} (list ${own.source})`;
    return { verdict: 'genuine', explanation: `${address} is in ${own.prefix}, which ${own.operator_name} ${where}.`, caveat: null };
  }
  const network = matches.find((m) => m.scope === 'network' && m.operator === claimed.operator_slug);
  if (network !== undefined) {
    return {
      verdict: 'operator-network',
      explanation: `${address} is in ${network.prefix}, part of ${network.operator_name}'s own network (list ${network.source}). ${claimed.operator} says ${claimed.name} sends only from that network, so the claim fits, but any of ${claimed.operator}'s services could have sent the request: the address alone does not prove it was ${claimed.name}.`,
      caveat: null,
    };
  }
  const sameOperator = matches.find((m) => m.operator === claimed.operator_slug);
  if (sameOperator !== undefined) {
    return {
      verdict: 'operator-range',
      explanation: `${address} is in ${sameOperator.prefix}, a range of ${sameOperator.operator_name} (list ${sameOperator.source}, published for ${crawlerNames(context, sameOperator.crawlers)}), but not one published for ${claimed.name}. The address is ${claimed.operator}'s; the crawler named is not the one that list covers.`,
      caveat: null,
    };
  }
  if (matches.length > 0) {
    const others = unique(matches.map((m) => m.operator_name));
    return {
      verdict: 'other-operator',
      explanation: `${address} is in a range published by ${others.join(', ')}, not by ${claimed.operator}: the request claims to be ${claimed.name} but comes from another operator's crawler addresses. ${where}`,
      caveat: null,
    };
  }
  return { verdict: 'not-in-published-ranges', explanation: unmatchedExplanation(address, claimed), caveat: staleness(index, claimed) };
}

/** What an address in no list means depends on the strongest method the operator documents. */
function unmatchedExplanation(address: string, claimed: ClaimedCrawler): string {
  const { name, operator } = claimed;
  const networkList = claimed.verification.some((entry) => entry.method === 'asn' && entry.sources.length > 0);
  switch (claimed.verification_method) {
    case 'published-ranges':
      return `${address} is in none of the ranges ${operator} publishes for ${name}, nor in any other published list: it is not one of ${name}'s addresses.`;
    case 'fixed-ips':
      return `${address} is none of the addresses ${operator} lists for ${name}: it is not one of ${name}'s addresses.`;
    case 'reverse-dns':
      return `${address} is in no published range. ${operator} publishes no IP list for ${name}; it is verified by forward-confirmed reverse DNS (see claim.how_to_verify).`;
    case 'asn':
      return networkList
        ? `${address} is outside ${operator}'s own network, which ${operator} says ${name} sends from: it is not ${name}.`
        : `${address} is in no published range. ${operator} says ${name} sends only from its own autonomous system; check the address's origin AS (see claim.how_to_verify).`;
    case 'web-bot-auth':
      return `${address} is in no published range. ${operator} signs ${name}'s requests instead: only the request's signature can prove it (see claim.how_to_verify).`;
    case 'none':
      return `${address} is in no published range, and ${operator} publishes no verification method for ${name}: nothing can confirm or refute the claim.`;
  }
}

/**
 * Whether our copies of the lists a verdict leans on can be trusted to rule the claim out: the
 * crawler's own lists (published-ranges), or its operator's network list (asn).
 */
function staleness(index: PrefixIndex, claimed: ClaimedCrawler): string | null {
  const ids =
    claimed.verification_method === 'published-ranges'
      ? claimed.ip_sources
      : claimed.verification_method === 'asn'
        ? claimed.verification.flatMap((entry) => (entry.method === 'asn' ? entry.sources : []))
        : null;
  if (ids === null) return null;
  const problems = ids.flatMap((id) => {
    const source = index.sources.find((s) => s.id === id);
    if (source === undefined || source.ipv4_count + source.ipv6_count === 0) return [`this service holds no copy of list ${id}`];
    if (source.state !== null && source.state !== 'ok')
      return [`list ${id} failed its last refresh (the last good copy${source.last_success ? ` from ${source.last_success}` : ''} was used)`];
    return [];
  });
  if (claimed.verification_method === 'published-ranges' && ids.length === 0) problems.push(`no list of ${claimed.name}'s prefixes is mirrored here`);
  return problems.length === 0 ? null : `The verdict may be wrong: ${problems.join('; ')}.`;
}

function describeMatches(context: Context, matches: readonly BatchMatch[]): string {
  if (matches.length === 0) return 'The address is in no operator-published range.';
  const parts = matches.map((m) => `${m.prefix} in ${m.operator_name}'s list ${m.source} (${crawlerNames(context, m.crawlers)})`);
  return `The address is in ${parts.join('; ')}.`;
}

function crawlerNames(context: Context, slugs: readonly string[]): string {
  return slugs.length === 0 ? 'no crawler named' : slugs.map((s) => context.bySlug.get(s)?.name ?? s).join(', ');
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

function claimedCrawler(c: CrawlerView): ClaimedCrawler {
  return {
    slug: c.slug,
    name: c.name,
    operator: c.operator,
    operator_slug: c.operator_slug,
    robots_token: c.robots_token,
    robots_only: c.robots_only,
    verification_method: c.verification_method,
    verification_label: c.verification_label,
    verification: c.verification,
    ip_sources: [...c.ip_sources],
    reverse_dns_hostnames: [...c.reverse_dns_hostnames],
  };
}
