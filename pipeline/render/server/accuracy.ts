// /data/policy-accuracy.json: every server config of every policy, run against real headers.
// The regexes are read back out of the rendered file text (Dialect.extract) and run here with
// JavaScript's engine, case-insensitively; the patterns are a subset that PCRE, RE2 and
// JavaScript read alike, and test/server-configs.test.ts sends a sample through the real nginx
// and HAProxy to show that their verdicts are these. Nothing in the table is asserted: every
// figure is a count of what the files matched.

import type { CrawlerView, Model, PolicyView } from '../../model/model.ts';
import { url } from '../../model/model.ts';
import { href } from '../../paths.ts';
import { buildMatcher, findAll } from '../../tools/classify/aho-corasick.ts';
import { buildClassifier, classify, crawlerNamedBy } from '../../tools/classify/classify.ts';
import { userAgentPatterns } from '../../records/user-agent-forms.ts';
import { compareText } from '../../util/compare.ts';
import { alternation, escapeRegex } from '../regex.ts';
import { NAME_START, TOKEN_RULE_WORDS, WORD_END, WORD_START } from '../../tools/classify/token.ts';
import { clientEntries } from '../clients.ts';
import { canonicalJson } from '../../util/canonical-json.ts';
import { PEERS_SOURCE } from '../../records/corpus.ts';
import type { RenderedFile } from '../output.ts';
import { serverConfig } from './configs.ts';
import { DIALECTS, type Dialect } from './dialects.ts';
import { policyMatcher } from './matcher.ts';

/** How many matched headers each list shows; the counts cover them all. */
const EXAMPLES = 10;

/** The stamp only changes a header comment line, never a pattern. */
const ANY_STAMP = '2000-01-01T00:00:00Z';

/** A served crawler pattern: a literal, with the bounds tokenPattern puts around it where it needs them. */
const WORD_BOUNDED = new RegExp(`^(?:${escapeRegex(NAME_START)}|${escapeRegex(WORD_START)})?(.*?)(?:${escapeRegex(WORD_END)})?$`, 's');
const REGEX_SYNTAX = new Set('^$.|?*+()[]{}');

/**
 * The text a crawler pattern can only match through, in lower case, or null when the pattern is
 * not a plain ASCII literal inside those bounds. A header without that text (ignoring ASCII
 * case, as the `i` flag does for ASCII) cannot match, so only the headers holding it are run
 * through the regex: the same answers for a small part of the work over ~9,500 headers.
 */
export function requiredText(pattern: string): string | null {
  const body = WORD_BOUNDED.exec(pattern)?.[1];
  if (body === undefined) return null;
  let text = '';
  for (let i = 0; i < body.length; i++) {
    let c = body[i]!;
    if (c === '\\') {
      c = body[++i] ?? '';
      // An escape of a letter or digit is a class (\d, \w) or an assertion, not a character.
      if (c === '' || /[A-Za-z0-9]/.test(c)) return null;
    } else if (REGEX_SYNTAX.has(c)) return null;
    if (c.charCodeAt(0) > 0x7e) return null;
    text += c;
  }
  return text === '' ? null : text.toLowerCase();
}

/**
 * The alternatives of a pattern's top-level `|`, each without a group that wraps it whole (one
 * alternative where a group wraps the whole pattern), or null when the pattern is neither. A config that joins every crawler's pattern into one regex matches a
 * header exactly when one of them does, so each is measured once and shared across the dialects.
 */
export function alternatives(pattern: string): string[] | null {
  const parts: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) return null;
  }
  if (depth !== 0 || inClass) return null;
  parts.push(pattern.slice(start));
  const unwrapped = parts.map(unwrapGroup);
  return unwrapped.length === 1 && unwrapped[0] === pattern ? null : unwrapped;
}

/** `(?:X)` as X when those two parentheses pair with each other; otherwise the pattern as it is. */
function unwrapGroup(pattern: string): string {
  if (!pattern.startsWith('(?:') || !pattern.endsWith(')')) return pattern;
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length - 1; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return pattern;
  }
  return pattern.slice(3, -1);
}

/** A set of headers and, per pattern source, which of them it matches (computed once). */
export class HeaderSet {
  /** Per pattern, the indices of the headers it matches, ascending: few, so kept as a list. */
  readonly #cache = new Map<string, readonly number[]>();
  readonly headers: readonly string[];
  readonly #lowered: readonly string[];
  constructor(headers: readonly string[]) {
    this.headers = headers;
    this.#lowered = headers.map((header) => header.toLowerCase());
  }

  /** Indices of the headers that any of the patterns matches. */
  matching(patterns: readonly string[]): Set<number> {
    this.#measureLiterals(patterns);
    const hits = new Set<number>();
    for (const pattern of patterns) for (const i of this.#matched(pattern)) hits.add(i);
    return hits;
  }

  /**
   * Measures every not yet measured crawler pattern among these (and among the alternatives they
   * join) at once: one pass over the headers finds which hold each pattern's literal text, and
   * each regex then runs only over those.
   */
  #measureLiterals(patterns: readonly string[]): void {
    const leaves = new Set(patterns.flatMap((pattern) => alternatives(pattern) ?? [pattern]));
    const literal: { pattern: string; text: string }[] = [];
    for (const pattern of leaves) {
      const text = requiredText(pattern);
      if (text !== null && !this.#cache.has(pattern)) literal.push({ pattern, text });
    }
    if (literal.length === 0) return;
    const matcher = buildMatcher(literal.map(({ text }) => text));
    const holding = literal.map((): number[] => []);
    this.#lowered.forEach((header, i) => {
      for (const { pattern } of findAll(matcher, header)) holding[pattern]!.push(i);
    });
    literal.forEach(({ pattern }, k) => {
      const regex = new RegExp(pattern, 'i');
      this.#cache.set(
        pattern,
        holding[k]!.filter((i) => regex.test(this.headers[i]!)),
      );
    });
  }

  #matched(pattern: string): readonly number[] {
    let matched = this.#cache.get(pattern);
    if (matched === undefined) {
      const parts = alternatives(pattern);
      if (parts === null) {
        const regex = new RegExp(pattern, 'i');
        matched = this.headers.flatMap((header, i) => (regex.test(header) ? [i] : []));
      } else {
        matched = [...new Set(parts.flatMap((part) => this.#matched(part)))].sort((a, b) => a - b);
      }
      this.#cache.set(pattern, matched);
    }
    return matched;
  }
}

export interface Headers {
  examples: { crawler: CrawlerView; header: string }[];
  exampleSet: HeaderSet;
  browsers: HeaderSet;
  /** Apps' own headers: like browsers, people, whom no crawler rule may match. */
  apps: HeaderSet;
  peers: HeaderSet;
  /** The crawler the index attributes each peer header to (classify-ua's answer), by index. */
  peerAttribution: readonly (string | null)[];
}

function headersOf(model: Model): Headers {
  const examples = model.crawlers.flatMap((crawler) => (crawler.user_agent_example === null ? [] : [{ crawler, header: crawler.user_agent_example }]));
  const classifier = buildClassifier(model.crawlers);
  const peers = model.corpus.peer_instances;
  return {
    examples,
    exampleSet: new HeaderSet(examples.map((e) => e.header)),
    browsers: new HeaderSet(model.corpus.browsers.user_agents),
    apps: new HeaderSet(model.corpus.apps.user_agents),
    peers: new HeaderSet(peers),
    peerAttribution: peers.map((header) => crawlerNamedBy(classifier, header)?.slug ?? null),
  };
}

/** One config's figures. */
export function measure(headers: Headers, policy: PolicyView, patterns: readonly string[]) {
  const matcher = policyMatcher(policy);
  const named = new Set(matcher.lines.flatMap((line) => line.crawlers.map((c) => c.slug)));
  const exampleHits = headers.exampleSet.matching(patterns);
  const namedExamples = headers.examples.map((e, i) => ({ ...e, i })).filter((e) => named.has(e.crawler.slug));
  const otherHits = headers.examples.map((e, i) => ({ ...e, i })).filter((e) => !named.has(e.crawler.slug) && exampleHits.has(e.i));
  const browserHits = [...headers.browsers.matching(patterns)].sort((a, b) => a - b);
  const appHits = [...headers.apps.matching(patterns)].sort((a, b) => a - b);
  const peerHits = headers.peers.matching(patterns);
  const peerIndices = headers.peers.headers.map((_, i) => i);
  const peersOfNamed = peerIndices.filter((i) => named.has(headers.peerAttribution[i] ?? ''));
  const peersElsewhere = peerIndices.filter((i) => !named.has(headers.peerAttribution[i] ?? '') && peerHits.has(i));
  return {
    patterns: patterns.length,
    named_crawler_examples: {
      tested: namedExamples.length,
      matched: namedExamples.filter((e) => exampleHits.has(e.i)).length,
      missed: namedExamples.filter((e) => !exampleHits.has(e.i)).map((e) => e.crawler.slug),
    },
    other_crawler_examples: {
      tested: headers.examples.length - namedExamples.length,
      matched: otherHits.length,
      // A crawler the policy does not name is matched when its header carries a named crawler's token too.
      matched_slugs: otherHits.map((e) => e.crawler.slug),
    },
    browsers: {
      tested: headers.browsers.headers.length,
      matched: browserHits.length,
      matched_user_agents: browserHits.slice(0, EXAMPLES).map((i) => headers.browsers.headers[i]!),
    },
    apps: {
      tested: headers.apps.headers.length,
      matched: appHits.length,
      matched_user_agents: appHits.slice(0, EXAMPLES).map((i) => headers.apps.headers[i]!),
    },
    peer_instances: {
      tested: peerIndices.length,
      of_named_crawlers: peersOfNamed.length,
      of_named_matched: peersOfNamed.filter((i) => peerHits.has(i)).length,
      of_named_missed: peersOfNamed.filter((i) => !peerHits.has(i)).map((i) => headers.peers.headers[i]!),
      others_matched: peersElsewhere.length,
      others_matched_examples: peersElsewhere
        .slice(0, EXAMPLES)
        .map((i) => ({ user_agent: headers.peers.headers[i]!, classified_as: headers.peerAttribution[i] ?? null })),
    },
  };
}

function serverRow(model: Model, headers: Headers, policy: PolicyView, dialect: Dialect) {
  const patterns = dialect.extract(serverConfig(model.site, policy, dialect, ANY_STAMP));
  return { server: dialect.id, url: url(model.site, href(dialect.route, policy.id)), ...measure(headers, policy, patterns) };
}

/**
 * How the classifier stands against real headers: the people it would take for crawlers (must be
 * none), and how many real bot headers it names, as a crawler or as a named client, by the
 * category the bot fixture gives each (docs/API.md, /data/policy-accuracy.json).
 */
function recognition(model: Model, headers: Headers) {
  const classifier = buildClassifier(model.crawlers, clientEntries(model));
  const allPattern = alternation(model.crawlers.flatMap(userAgentPatterns), (pattern) => pattern);
  const matchedByAll = (set: HeaderSet) => set.matching([allPattern]).size;
  const people = (set: HeaderSet) => {
    const named = set.headers.flatMap((header) => {
      const answer = classify(classifier, header);
      return answer.matched ? [{ user_agent: header, classified_as: answer.crawler.slug }] : [];
    });
    return { tested: set.headers.length, classified_as_crawler: named.length, ua_regex_all_matched: matchedByAll(set), examples: named.slice(0, EXAMPLES) };
  };
  const byCategory = new Map<string, { tested: number; identified: number }>();
  let asCrawler = 0;
  let asClient = 0;
  const missed: string[] = [];
  for (const bot of model.corpus.bots.bots) {
    const answer = classify(classifier, bot.user_agent);
    const client = !answer.matched && answer.client !== null;
    if (answer.matched) asCrawler++;
    else if (client) asClient++;
    else missed.push(bot.user_agent);
    const row = byCategory.get(bot.category ?? 'none') ?? { tested: 0, identified: 0 };
    row.tested++;
    if (answer.matched || client) row.identified++;
    byCategory.set(bot.category ?? 'none', row);
  }
  const bots = new HeaderSet(model.corpus.bots.bots.map((b) => b.user_agent));
  const peersNamed = headers.peers.headers.filter((header) => classify(classifier, header).matched).length;
  return {
    rule: 'classify-ua and the published regex `all` of /data/ua-regex.json over the corpus: a browser or app header named as a crawler is a false match; a bot header named as a crawler or as a named client is identified.',
    false_matches: { browsers: people(headers.browsers), apps: people(headers.apps) },
    bots: {
      tested: model.corpus.bots.bots.length,
      as_crawler: asCrawler,
      as_client: asClient,
      unidentified: missed.length,
      ua_regex_all_matched: matchedByAll(bots),
      by_fixture_category: Object.fromEntries([...byCategory].sort(([a], [b]) => compareText(a, b))),
      unidentified_examples: missed.slice(0, EXAMPLES),
    },
    peer_instances: { tested: headers.peers.headers.length, as_crawler: peersNamed, ua_regex_all_matched: matchedByAll(headers.peers) },
  };
}

function accuracyJson(model: Model): string {
  const headers = headersOf(model);
  const policies = model.policies.map((policy) => {
    const matcher = policyMatcher(policy);
    return {
      id: policy.id,
      title: policy.title,
      action: matcher.action,
      crawlers_named: policy.directive === 'none' ? 0 : policy.crawlers.length,
      crawlers_matchable: matcher.lines.reduce((n, line) => n + line.crawlers.length, 0),
      cannot_enforce: matcher.unenforceable.map(({ crawler, why }) => ({ slug: crawler.slug, robots_token: crawler.robots_token, why })),
      servers: DIALECTS.map((dialect) => serverRow(model, headers, policy, dialect)),
    };
  });
  const rows = policies.flatMap((p) => p.servers);
  return canonicalJson({
    rule: `A config matches a header when one of its regexes, read back out of the served file, matches it ignoring case. Each regex is a crawler substring that must stand as a word: ${TOKEN_RULE_WORDS}; or, for a crawler whose token other software also sends, one of the whole headers it sends (user_agent_full_forms), anchored.`,
    corpus: {
      crawler_examples: headers.examples.length,
      browsers: { count: headers.browsers.headers.length, sources: model.corpus.browsers.sources },
      apps: { count: headers.apps.headers.length, sources: model.corpus.apps.sources },
      bots: { count: model.corpus.bots.bots.length, sources: model.corpus.bots.sources },
      peer_instances: {
        count: headers.peers.headers.length,
        source: PEERS_SOURCE,
      },
    },
    totals: {
      configs: rows.length,
      browser_matches: rows.reduce((n, r) => n + r.browsers.matched, 0),
      app_matches: rows.reduce((n, r) => n + r.apps.matched, 0),
      named_crawler_misses: rows.reduce((n, r) => n + r.named_crawler_examples.missed.length, 0),
      named_peer_misses: rows.reduce((n, r) => n + r.peer_instances.of_named_missed.length, 0),
    },
    recognition: recognition(model, headers),
    policies,
  });
}

export function renderPolicyAccuracy(model: Model): RenderedFile[] {
  return [{ path: href('policy_accuracy'), kind: 'data', body: accuracyJson(model) }];
}
