// Which crawler a User-Agent header names: the most specific matching record wins.
//
// Rule (stable, part of the tool's contract):
//   1. Candidates are the crawlers whose user_agent_substring, or a variant's, occurs in the header
//      (for a record with full forms, its own substring only in a header of one of them), ignoring
//      the case of ASCII letters: operators spell their own token differently on different
//      pages (Amazon documents "AMZN-User/0.1" for the crawler that sends "Amzn-User"). It must
//      stand as a token (token.ts, the rule the generated server configs use too): "Exabot"
//      inside "Alexabot" is not Exabot.
//   2. A record whose own user_agent_example contains another candidate's substring is more
//      specific than that candidate: the data says its real header carries the other's token
//      on purpose. Kakao's "facebookexternalhit/1.1;kakaotalk-scrap/1.0" is Kakao although
//      "facebookexternalhit" is the longer substring; "AdsBot-Google-Mobile" beats
//      "AdsBot-Google". (Two records embedding each other cancel out and fall to rule 3.)
//   3. Otherwise the longest substring wins: "Googlebot-Image" beats "Googlebot/".
//   4. Equal lengths: the one occurring first in the header wins, because product tokens are
//      listed in decreasing order of significance (RFC 9110 section 10.1.5).
//   5. Same substring at the same place (two records sharing it): the smaller slug, in
//      code-unit order, so the answer never depends on the order records were loaded.
// Every other candidate is listed in `other_matches`, ordered by the same rules.

import type { CrawlerView } from '../../model/model.ts';
import { buildMatcher, findAll, type SubstringMatcher } from './aho-corasick.ts';
import { heuristicAnswer, inputIssue, unexamined, type Unmatched } from './heuristic.ts';
import { buildClientMatcher, matchClient, type ClientEntry, type ClientMatcher } from './clients.ts';
import { foldAscii } from '../../util/ascii.ts';
import { fullFormPattern, isTokenAt } from './token.ts';
import { compareText } from '../../util/compare.ts';
import { crawlerFields } from '../../model/crawler-fields.ts';
import { userAgentForms, userAgentSubstrings } from '../../records/user-agent-forms.ts';

/** The fields of a crawler record that a classification answer carries. */
const CLASSIFIED_FIELDS = [
  'slug',
  'name',
  'operator',
  'operator_slug',
  'category',
  'category_label',
  'robots_token',
  'respects_robots_txt',
  'respects_robots_txt_label',
  'verification_method',
  'verification_label',
  'verification_source',
  'cost_of_blocking',
  'json_url',
  'html_url',
  'status',
  'retired_since',
] as const;
type ClassifiedCrawler = Pick<CrawlerView, (typeof CLASSIFIED_FIELDS)[number]>;

interface Matched {
  matched: true;
  crawler: ClassifiedCrawler;
  matched_substring: string;
  /** Other crawlers whose substring also occurs, most specific first. */
  other_matches: { slug: string; matched_substring: string }[];
  note: string;
}

export type Classification = Matched | Unmatched;

export interface Classifier {
  /** Built over the substrings with ASCII letters folded to lower case. */
  readonly matcher: SubstringMatcher;
  /** The substrings as the records write them, by matcher pattern index. */
  readonly substrings: readonly string[];
  /** Per matcher pattern, the crawlers carrying that substring, by slug. */
  readonly crawlersOf: readonly (readonly ClassifiedCrawler[])[];
  /** Per crawler slug, the other substrings its own example contains (rule 2). */
  readonly embeds: ReadonlyMap<string, ReadonlySet<string>>;
  /** "slug substring" for each substring that is one of the crawler's variants rather than its own. */
  readonly variantForms: ReadonlySet<string>;
  /** "slug substring" → the full forms a header must have for that substring to name the crawler. */
  readonly fullForms: ReadonlyMap<string, readonly RegExp[]>;
  /** Number of crawlers with a substring (robots.txt-only tokens have none). */
  readonly size: number;
  /** Non-crawler clients, tried only when no crawler matches. */
  readonly clients: ClientMatcher;
}

export function buildClassifier(crawlers: readonly CrawlerView[], clients: readonly ClientEntry[] = []): Classifier {
  const bySubstring = new Map<string, ClassifiedCrawler[]>();
  const variantForms = new Set<string>();
  const fullForms = new Map<string, RegExp[]>();
  let size = 0;
  for (const crawler of crawlers) {
    const substrings = userAgentSubstrings(crawler);
    if (substrings.length === 0) continue;
    const projected = project(crawler);
    for (const substring of substrings) bySubstring.set(substring, [...(bySubstring.get(substring) ?? []), projected]);
    for (const form of userAgentForms(crawler)) if (!form.own) variantForms.add(`${crawler.slug} ${form.substring}`);
    const full = crawler.user_agent_full_forms ?? [];
    if (full.length > 0 && crawler.user_agent_substring !== null) {
      fullForms.set(
        `${crawler.slug} ${crawler.user_agent_substring}`,
        full.map((form) => new RegExp(fullFormPattern(form), 'i')),
      );
    }
    size++;
  }
  const substrings = [...bySubstring.keys()].sort(compareText);
  const matcher = buildMatcher(substrings.map(foldAscii));
  // Rule 2 reads every example of the crawler, its variants' too: each is a header it really sends.
  const embeds = new Map<string, Set<string>>();
  for (const crawler of crawlers) {
    const forms = userAgentForms(crawler);
    const own = new Set(forms.map((form) => form.substring));
    const found = forms.flatMap((form) => {
      if (form.example === null) return [];
      const example = foldAscii(form.example);
      return findAll(matcher, example, (pattern, start) => isTokenAt(example, start, matcher.patterns[pattern]!)).map((o) => substrings[o.pattern]!);
    });
    const others = found.filter((s) => !own.has(s));
    if (others.length > 0) embeds.set(crawler.slug, new Set(others));
  }
  return {
    matcher,
    substrings,
    crawlersOf: substrings.map((s) => [...bySubstring.get(s)!].sort((a, b) => compareText(a.slug, b.slug))),
    embeds,
    variantForms,
    fullForms,
    size,
    clients: buildClientMatcher(clients),
  };
}

interface Candidate {
  crawler: ClassifiedCrawler;
  substring: string;
  start: number;
}

/** Rule 2: `a` is more specific than `b` when a's example carries b's substring and not the reverse. */
function dominates(classifier: Classifier, a: Candidate, b: Candidate): boolean {
  return (classifier.embeds.get(a.crawler.slug)?.has(b.substring) ?? false) && !(classifier.embeds.get(b.crawler.slug)?.has(a.substring) ?? false);
}

/** Candidates in answer order: rules 3-5 as a total order, then rule 2 lifts embedders over what they embed. */
function rank(classifier: Classifier, candidates: Candidate[]): Candidate[] {
  const rest = [...candidates].sort((a, b) => b.substring.length - a.substring.length || a.start - b.start || compareText(a.crawler.slug, b.crawler.slug));
  const ranked: Candidate[] = [];
  while (rest.length > 0) {
    // Candidates are a handful per header, so the quadratic pick costs nothing.
    const next = rest.findIndex((c) => !rest.some((other) => other !== c && dominates(classifier, other, c)));
    ranked.push(...rest.splice(next === -1 ? 0 : next, 1));
  }
  return ranked;
}

function candidatesIn(classifier: Classifier, userAgent: string): Candidate[] {
  const candidates: Candidate[] = [];
  const folded = foldAscii(userAgent);
  const asToken = (pattern: number, start: number) => isTokenAt(folded, start, classifier.matcher.patterns[pattern]!);
  for (const { pattern, start } of findAll(classifier.matcher, folded, asToken)) {
    const substring = classifier.substrings[pattern]!;
    for (const crawler of classifier.crawlersOf[pattern]!) {
      // A crawler with full forms is named by its substring only in a header of one of them.
      const forms = classifier.fullForms.get(`${crawler.slug} ${substring}`);
      if (forms !== undefined && !forms.some((form) => form.test(userAgent))) continue;
      candidates.push({ crawler, substring, start });
    }
  }
  return candidates;
}

/**
 * The crawler a header names, by the same rules as classify(), without the answer around it:
 * what the request log books every request with, so it skips the unmatched heuristic.
 */
export function crawlerNamedBy(classifier: Classifier, userAgent: string): ClassifiedCrawler | null {
  if (inputIssue(userAgent) !== null) return null;
  const candidates = candidatesIn(classifier, userAgent);
  return candidates.length === 0 ? null : rank(classifier, candidates)[0]!.crawler;
}

/** Never throws; input the HTTP layer should have refused is answered as unmatched and unexamined. */
export function classify(classifier: Classifier, userAgent: string): Classification {
  const issue = inputIssue(userAgent);
  if (issue !== null) return unexamined(issue);

  const candidates = candidatesIn(classifier, userAgent);
  if (candidates.length === 0) return heuristicAnswer(userAgent, matchClient(classifier.clients, userAgent));

  // A crawler found through two of its forms is named once, by its most specific one.
  const ranked = rank(classifier, candidates).filter((c, i, all) => all.findIndex((o) => o.crawler.slug === c.crawler.slug) === i);
  const [best, ...others] = ranked as [Candidate, ...Candidate[]];
  const form = classifier.variantForms.has(`${best.crawler.slug} ${best.substring}`) ? 'a variant user-agent substring' : 'the user-agent substring';
  return {
    matched: true,
    crawler: { ...best.crawler },
    matched_substring: best.substring,
    other_matches: others.map((c) => ({ slug: c.crawler.slug, matched_substring: c.substring })),
    note: `The header contains "${best.substring}", ${form} of ${best.crawler.name} (${best.crawler.operator}). ${retiredNote(best.crawler)}Any client can send any User-Agent; ${howToTrust(best.crawler)}`,
  };
}

/** A retired crawler's header still turns up: copied by other clients or sent by forgotten setups. */
function retiredNote(crawler: ClassifiedCrawler): string {
  if (crawler.status !== 'retired') return '';
  return `Its operator retired it${crawler.retired_since === null ? '' : ` on ${crawler.retired_since}`}, so a request carrying it now is probably not from ${crawler.operator}. `;
}

const HOW_TO_TRUST: Record<CrawlerView['verification_method'], string> = {
  'published-ranges':
    "whether the request really came from this crawler is decided by its address, checked against the operator's published IP prefixes (verify-crawler).",
  'fixed-ips':
    'whether the request really came from this crawler is decided by its address, checked against the addresses the operator lists on its page (verify-crawler).',
  'reverse-dns':
    'whether the request really came from this crawler is decided by its address, checked with forward-confirmed reverse DNS (verify-crawler gives the two lookups).',
  asn: "the operator says the crawler sends only from its own autonomous system: an address outside it is not the crawler's, one inside it is the operator's but not proof of this crawler (verify-crawler).",
  'web-bot-auth': "the operator signs the crawler's requests (Web Bot Auth): only a valid signature from its key directory proves the request is genuine.",
  none: 'the operator publishes no way to verify this crawler, so the header alone proves nothing.',
};

/** How far a check can be trusted: a method a third party gives, not the operator, proves less. */
function howToTrust(crawler: ClassifiedCrawler): string {
  if (crawler.verification_source !== 'third-party') return HOW_TO_TRUST[crawler.verification_method];
  return 'whether the request really came from this crawler can be judged only by a check a third party gives, not the operator (verify-crawler): a pass makes it likely, not proven.';
}

function project(c: CrawlerView): ClassifiedCrawler {
  return crawlerFields(c, CLASSIFIED_FIELDS);
}
