// verify-crawler: up to 500 addresses checked against every operator-published prefix, and,
// given a claimed crawler (a token such as "GPTBot" or a whole User-Agent header), a verdict
// per address on whether the claim holds. Pure and deterministic (the caller gives the time
// the lists' age is judged at); never throws.

import type { CrawlerView } from '../../model/model.ts';
import { buildClassifier, classify, type Classifier } from '../classify/classify.ts';
import { compareText } from '../../util/compare.ts';
import { inputIssue } from '../classify/heuristic.ts';
import { listEvidence, listsLeanedOn, type ListEvidence } from './evidence.ts';
import { howToVerify, otherMethods, type HowToVerify } from './how-to-verify.ts';
import { lookup, type PrefixIndex } from './prefix-index.ts';
import type { FoundAddress, InvalidAddress, PrefixMatch } from './sources.ts';
import { crawlerFields } from '../../model/crawler-fields.ts';

/** docs/API.md §8: ip values per call. */
export const MAX_ADDRESSES_PER_CALL = 500;

type ClaimVerdict = 'unverifiable' | 'genuine' | 'operator-network' | 'operator-range' | 'other-operator' | 'not-in-published-ranges' | 'unknown-claim';

/** docs/API.md §6.3. Unverifiable first: what a reader must see before any other count. */
export const VERDICTS: readonly ClaimVerdict[] = [
  'unverifiable',
  'genuine',
  'operator-network',
  'operator-range',
  'other-operator',
  'not-in-published-ranges',
  'unknown-claim',
];

/** The fields of the claimed crawler's record a verification answer carries. */
const CLAIMED_FIELDS = [
  'slug',
  'name',
  'operator',
  'operator_slug',
  'robots_token',
  'robots_only',
  'verification_method',
  'verification_label',
  'verification_source',
  'verification',
  'ip_sources',
  'reverse_dns_hostnames',
] as const;
type ClaimedCrawler = Pick<CrawlerView, (typeof CLAIMED_FIELDS)[number]>;

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

/** A claim as a batch answers it: with the lists its negative verdicts lean on, judged at the time of the call. */
type BatchClaim = Claim & {
  /** The lists an address in none of them is ruled out by (the crawler's own, or its operator's network); empty when its verdict leans on no list. */
  lists: ListEvidence[];
  /** Why an address in none of the lists cannot be ruled out (its verdict is then unverifiable); null when it can, or when no list is leaned on. */
  unverifiable_because: string | null;
};

interface BatchMatch extends PrefixMatch {
  operator_name: string;
}

export interface CheckedAddress extends Omit<FoundAddress, 'matches'> {
  matches: BatchMatch[];
  /** Null without a claim. */
  verdict: ClaimVerdict | null;
  explanation: string;
  /** What the verdict rests on beyond the lists' current copies: a failed refresh's last good copy, or lists of the claim that could not be checked. */
  caveat: string | null;
}

export type BatchItem = InvalidAddress | CheckedAddress;

export interface BatchAnswer {
  claim: BatchClaim | null;
  received: number;
  checked: number;
  limit: number;
  summary: {
    valid: number;
    invalid: number;
    in_published_ranges: number;
    /** Null without a claim. */
    verdicts: Record<ClaimVerdict, number> | null;
  };
  results: BatchItem[];
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
 * `now` (milliseconds since the epoch) is when the lists' copies are judged old or current.
 */
export function verifyBatch(
  index: PrefixIndex,
  crawlers: readonly CrawlerView[],
  addresses: readonly string[],
  claimedUa: string | undefined,
  now: number,
): BatchAnswer {
  const context = contextFor(crawlers);
  const claim = claimedUa === undefined ? null : withEvidence(index, resolveClaim(crawlers, claimedUa), now);
  const sentences = claim === null || !claim.resolved ? null : claimSentences(claim);
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
    const judged = judge(context, claim, sentences, found.address, matches);
    // Written out rather than spread: this runs up to 500 times a call. The verdict comes
    // first, as a reader of the answer should meet it.
    return {
      valid: true,
      input: found.input,
      verdict: judged.verdict,
      explanation: judged.explanation,
      caveat: judged.caveat,
      address: found.address,
      family: found.family,
      ipv4_mapped: found.ipv4_mapped,
      range: found.range,
      note: found.note,
      matches,
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
    summary: {
      valid: checked.length,
      invalid: results.length - checked.length,
      in_published_ranges: checked.filter((r) => r.matches.length > 0).length,
      verdicts,
    },
    results,
  };
}

/** The lists the claim's negative verdicts lean on, judged once per call. */
function withEvidence(index: PrefixIndex, claim: Claim, now: number): BatchClaim {
  if (!claim.resolved) return { ...claim, lists: [], unverifiable_because: null };
  const ids = listsLeanedOn(claim.crawler);
  if (ids === null) return { ...claim, lists: [], unverifiable_because: null };
  const lists = listEvidence(index, ids, now);
  const gaps = lists.flatMap((l) => (l.usable || l.note === null ? [] : [l.note]));
  if (ids.length === 0) gaps.push(`this service mirrors no list of ${claim.crawler.name}'s prefixes`);
  return { ...claim, lists, unverifiable_because: gaps.length === 0 ? null : gaps.join('; ') };
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

/** The parts of a resolved claim's verdicts that are the same for every address of a call, written once per call. */
interface ClaimSentences {
  /** A verdict resting on where the address is not: the failed refreshes whose last good copies it leans on, or null. */
  restsOn: string | null;
  /** For an address found in someone else's list: the claim's own lists that could not be checked, or null. */
  unchecked: string | null;
  /** docs/API.md §6.4: the explanation for an address in none of the lists when not every list is evidence. */
  unverifiable: (address: string) => string;
}

function claimSentences(claim: BatchClaim & { resolved: true }): ClaimSentences {
  const { name, operator } = claim.crawler;
  const usable = claim.lists.filter((l) => l.usable).map((l) => l.id);
  const outside = usable.length > 0 ? `it is in none of the prefixes of ${usable.join(', ')}, but` : 'it is in no list this service holds, but';
  const because = `${outside} ${claim.unverifiable_because}, so being outside the lists does not show it is not ${name}.`;
  const others = otherMethods(claim.how_to_verify);
  return {
    restsOn: lastGoodCopies(claim),
    unchecked:
      claim.unverifiable_because === null ? null : `${name}'s own lists could not be checked (${claim.unverifiable_because}): the address may be in them too.`,
    unverifiable: (address) =>
      others === null
        ? `${address} could not be checked: ${because} ${operator} documents no other way to check ${name}.`
        : `${address} could not be checked: ${because} Check it another way: ${others.replaceAll('<ip>', address)} (see claim.how_to_verify).`,
  };
}

function judge(context: Context, claim: BatchClaim | null, sentences: ClaimSentences | null, address: string, matches: readonly BatchMatch[]): Judgement {
  if (claim === null) return { verdict: null, explanation: describeMatches(context, matches), caveat: null };
  if (!claim.resolved || sentences === null) {
    return {
      verdict: 'unknown-claim',
      explanation: `The claimed user agent names no crawler in the index. ${describeMatches(context, matches)}`,
      caveat: null,
    };
  }
  const claimed = claim.crawler;
  const own = matches.find((m) => m.scope !== 'network' && m.crawlers.includes(claimed.slug));
  if (own !== undefined) {
    if (own.scope === 'listed' && claimed.verification_source === 'third-party') {
      return {
        verdict: 'genuine',
        explanation: `${address} is in ${own.prefix}, which a third-party list gives for ${own.operator_name}'s ${claimed.name} (cited in this index's record).`,
        caveat: `The addresses come from a third party, not from ${claimed.operator}: the request is likely ${claimed.name}, not proven to be.`,
      };
    }
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
  // A verdict that rests on where the address is not: a failed refresh's last good copy, or
  // (for an address found in someone else's list) the claim's own lists left unchecked.
  const sameOperator = matches.find((m) => m.operator === claimed.operator_slug);
  if (sameOperator !== undefined) {
    return {
      verdict: 'operator-range',
      explanation: `${address} is in ${sameOperator.prefix}, a range of ${sameOperator.operator_name} (list ${sameOperator.source}, published for ${crawlerNames(context, sameOperator.crawlers)}), but not one published for ${claimed.name}. The address is ${claimed.operator}'s; the crawler named is not the one that list covers.`,
      caveat: sentences.unchecked ?? sentences.restsOn,
    };
  }
  if (matches.length > 0) {
    const others = unique(matches.map((m) => m.operator_name));
    return {
      verdict: 'other-operator',
      explanation: `${address} is in a range published by ${others.join(', ')}, not by ${claimed.operator}: the request claims to be ${claimed.name} but comes from another operator's crawler addresses. ${describeMatches(context, matches)}`,
      caveat: sentences.unchecked ?? sentences.restsOn,
    };
  }
  if (claim.unverifiable_because !== null) return { verdict: 'unverifiable', explanation: sentences.unverifiable(address), caveat: null };
  return { verdict: 'not-in-published-ranges', explanation: unmatchedExplanation(address, claimed), caveat: sentences.restsOn };
}

/** The sentence for a verdict resting on a list whose last refresh failed (its last good copy, still within the age bound). */
function lastGoodCopies(claim: BatchClaim): string | null {
  const notes = claim.lists.flatMap((l) => (l.usable && l.note !== null ? [l.note] : []));
  return notes.length === 0 ? null : `${capitalised(notes.join('; '))}.`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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
  return crawlerFields(c, CLAIMED_FIELDS);
}
