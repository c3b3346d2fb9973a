import type { ToolData } from './registry/index.ts';

// Two questions people ask in their own words, read into a tool call: "Can GPTBot fetch
// /search?" (a crawler and the paths it asks about) and "How do I block AI training but keep
// AI search?" (what to block and what to keep, answered by the ready-made policy that does
// exactly that). Pure; the A2A router (intents.ts) decides when to ask these.

type Crawler = ToolData['crawlers'][number];

// Crawlers and operators whose name is an ordinary English word are read only as the index
// writes them ("Operator", "Cursor", "Spider", "Ask.com"), so "which operator runs GPTBot?" or
// "what is a spider?" is not a question about OpenAI's Operator or spider.com.
const ORDINARY_WORDS = new Set(['ask', 'brave', 'code', 'cursor', 'element', 'january', 'operator', 'slack', 'spider', 'synapse', 'twin', 'x', 'yak', 'yeti']);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the text names this spelling as a word (not inside a longer token or host name), or -1. */
function mentionAt(text: string, spelling: string): number {
  const ordinary = ORDINARY_WORDS.has(spelling.toLowerCase());
  if (ordinary && spelling === spelling.toLowerCase()) return -1;
  return text.search(new RegExp(`(?<![\\w.-])${escapeRegExp(spelling)}(?![\\w-]|\\.\\w)`, ordinary ? '' : 'i'));
}

/** A crawler's names as people write them: its token, its slug, and its name without a parenthesis ("ChatGPT agent"). */
function spellingsOf(crawler: Crawler): string[] {
  return [...new Set([crawler.robots_token ?? crawler.slug, crawler.slug, crawler.name.replace(/\s*\(.*\)\s*$/, '')])];
}

/**
 * Every crawler the text names, in the order it names them; where two names overlap, only the
 * longer (Googlebot-Image, not Googlebot inside it). Bounded by the caller: texts of at most
 * MAX_QUESTION_CHARS, a scan per crawler.
 */
export function namedCrawlers(text: string, data: ToolData): Crawler[] {
  const found: { crawler: Crawler; at: number; length: number }[] = [];
  for (const crawler of data.crawlers) {
    let best: { at: number; length: number } | null = null;
    for (const spelling of spellingsOf(crawler)) {
      const at = mentionAt(text, spelling);
      if (at !== -1 && (best === null || spelling.length > best.length)) best = { at, length: spelling.length };
    }
    if (best !== null) found.push({ crawler, ...best });
  }
  const inside = (a: (typeof found)[number], b: (typeof found)[number]) => a !== b && a.at >= b.at && a.at + a.length <= b.at + b.length && a.length < b.length;
  return found
    .filter((a) => !found.some((b) => inside(a, b)))
    .sort((a, b) => a.at - b.at || b.length - a.length)
    .map((f) => f.crawler);
}

/** The first crawler the text names. */
export function namedCrawler(text: string, data: ToolData): Crawler | null {
  return namedCrawlers(text, data)[0] ?? null;
}

export interface NamedOperator {
  slug: string;
  name: string;
  crawlers: Crawler[];
}

/** The operator whose name (without its parenthesis) or slug the text names; the longest name wins. */
export function namedOperator(text: string, data: ToolData): NamedOperator | null {
  const operators = new Map<string, NamedOperator>();
  for (const crawler of data.crawlers) {
    const entry = operators.get(crawler.operator_slug) ?? { slug: crawler.operator_slug, name: crawler.operator, crawlers: [] };
    entry.crawlers.push(crawler);
    operators.set(crawler.operator_slug, entry);
  }
  let best: { operator: NamedOperator; length: number } | null = null;
  for (const operator of operators.values()) {
    for (const spelling of new Set([operator.name.replace(/\s*\(.*\)\s*$/, ''), operator.slug, operator.slug.replaceAll('-', ' ')]))
      if (mentionAt(text, spelling) !== -1 && (best === null || spelling.length > best.length)) best = { operator, length: spelling.length };
  }
  return best?.operator ?? null;
}

/** A sentence that asks about an operator's crawlers as a set ("which bots does Yandex run?"), not one crawler of the same name. */
export const ASKS_ABOUT_CRAWLERS = /\b(crawlers|bots|spiders|fetchers|agents|user[- ]agents|tokens)\b/i;

/** Asks to keep a crawler out: "block", "stop", "disallow", "opt out"... */
export const ASKS_TO_BLOCK = /\b(block|stop|disallow|opt[- ]out|prevent|exclude|deny|ban|forbid)\b|\bkeep\b[^,;.]*\bout\b/i;

/**
 * The robots.txt group that keeps these crawlers out of the whole site, one User-agent line
 * per token (RFC 9309 2.2.1 lets a group start with several); null when none has a token.
 */
export function blockingGroup(crawlers: readonly Crawler[]): string | null {
  const tokens = [...new Set(crawlers.flatMap((c) => (c.robots_token === null || c.status === 'retired' ? [] : [c.robots_token])))];
  return tokens.length === 0 ? null : `${tokens.map((t) => `User-agent: ${t}`).join('\n')}\nDisallow: /\n`;
}

// --- "Can GPTBot fetch /search?" ---------------------------------------------------------------

/**
 * A question is a sentence or two: longer text is not read as one. This also bounds the work:
 * the patterns below scan forward from each verb they try, so their cost grows with the
 * square of the text.
 */
export const MAX_QUESTION_CHARS = 1000;

const ASKS_ACCESS = /\b(can|may|could|is|are|does|do|will|would)\b[^.?!\n]*\b(fetch|crawl|access|read|visit|index|reach|scrape|get to|allowed|blocked)\b/i;
const MAX_QUESTION_PATHS = 20;
const WHOLE_SITE = /\b(site|website|domain|pages|blog)\b/i;

export interface PathQuestion {
  /** The product token to evaluate. */
  ua: string;
  crawler: Crawler | null;
  paths: string[];
}

/** The paths a sentence names: words starting with one slash, or the path and query of a URL. */
function pathsIn(text: string): string[] {
  const paths: string[] = [];
  for (const raw of text.split(/\s+/)) {
    const word = raw.replace(/^[("'`<[]+/, '').replace(/[)"'`>\].,;:!?]+$/, '');
    let path: string | null = null;
    if (/^\/(?!\/)/.test(word)) path = word;
    else if (/^https?:\/\/[^/\s]+/i.test(word)) {
      try {
        const url = new URL(word);
        path = url.pathname + url.search;
      } catch {
        path = null;
      }
    }
    if (path !== null && !paths.includes(path)) paths.push(path);
  }
  return paths.slice(0, MAX_QUESTION_PATHS);
}

/** A question whether a crawler may fetch some paths; null when the text asks something else. */
export function pathQuestion(text: string, data: ToolData): PathQuestion | null {
  if (text.length > MAX_QUESTION_CHARS || !ASKS_ACCESS.test(text)) return null;
  const found = pathsIn(text);
  // "Can GPTBot crawl my site?" asks about the whole site: its root is where robots.txt decides that.
  const paths = found.length === 0 && WHOLE_SITE.test(text) ? ['/'] : found;
  if (paths.length === 0) return null;
  const crawler = namedCrawler(text, data);
  if (crawler !== null) return { ua: crawler.robots_token ?? crawler.slug, crawler, paths };
  // A name that reads like a product token but is not in the index still has a verdict.
  const token = text.split(/[^A-Za-z0-9_-]+/).find((w) => /^[A-Za-z][A-Za-z0-9_-]*(bot|crawler|spider)$/i.test(w));
  return token === undefined ? null : { ua: token, crawler: null, paths };
}

// --- "How do I block AI training but keep AI search?" -----------------------------------------

// Words people use for each category, most specific first: "AI search" is matched (and taken
// out of the sentence) before "search" can be read as search engines.
export const CATEGORY_WORDS: readonly (readonly [string, RegExp])[] = [
  ['ai-search', /\b(ai|llm)[- ]search\b|\banswer engines?\b|\bai answers?\b|\bchatgpt search\b|\bai overviews?\b/g],
  ['ai-training', /\b(ai |model |llm )?(training|train)\b|\bmodel builders?\b/g],
  ['ai-assistant', /\b(ai )?assistants?\b|\buser[- ](triggered|initiated) fetch(es|ers?)?\b/g],
  ['ai-agent', /\b(ai|browsing|browser) agents?\b|\bcomputer[- ]use\b/g],
  ['dataset', /\b(open )?datasets?\b|\bcommon crawl\b|\bcorpus\b|\bcorpora\b/g],
  ['seo-tool', /\bseo( tools?)?\b|\bbacklink\w*\b|\bmarketing tools?\b/g],
  ['social-preview', /\blink previews?\b|\bsocial (media|networks?|previews?)\b/g],
  ['archive', /\b(web )?archiv(e|es|ing)\b|\bwayback\b/g],
  ['site-monitor', /\b(uptime|site|performance|website) monitor(s|ing)?\b|\bmonitoring (tools?|services?|bots?)\b|\blink checkers?\b/g],
  ['advertising', /\bad(vertising)? (crawlers?|bots?|platforms?|networks?|verification)\b|\bbrand[- ]safety\b/g],
  ['security-scanner', /\b(security|vulnerability|port|internet) scann(ers?|ing)\b|\bscanners?\b/g],
  ['feed-fetcher', /\b(rss|atom|feed|podcast)s? (readers?|fetchers?|apps?)\b|\bfeed readers?\b|\bpodcasts?\b/g],
  ['service-agent', /\bhealth[- ]?checks?\b|\b(domain|site|ownership) verification\b|\bwebhooks?\b/g],
  ['web-data', /\bweb[- ]data\b|\bdata brokers?\b|\bprice (monitoring|tracking)\b|\bplagiarism\b/g],
  ['research', /\bresearch (crawlers?|bots?|projects?)\b|\bacademic\b|\buniversit(y|ies)\b/g],
  ['search-engine', /\bsearch engines?\b|\bgoogle search\b|\bbing\b|\bsearch results?\b|\bsearch\b/g],
];
/** "AI" with no more specific word: every AI category. */
const ANY_AI = /\b(ai|llm|genai)\b/;

const KEEP = /\b(keep|allow|let|still|welcome|remain|stay|appear|without (blocking|losing))\b/;

export interface PolicyQuestion {
  block: string[];
  keep: string[];
}

function categoriesIn(clause: string, aiCategories: ReadonlySet<string>): string[] {
  let rest = clause;
  const found: string[] = [];
  for (const [category, words] of CATEGORY_WORDS) {
    if (new RegExp(words.source).test(rest)) found.push(category);
    rest = rest.replace(words, ' ');
  }
  if (found.length === 0 && ANY_AI.test(rest)) found.push(...aiCategories);
  return found;
}

/** What a sentence asks to block and to keep, by category; null when it asks to block nothing. */
export function policyQuestion(text: string, data: ToolData): PolicyQuestion | null {
  if (text.length > MAX_QUESTION_CHARS) return null;
  const lower = text.toLowerCase();
  if (!ASKS_TO_BLOCK.test(lower)) return null;
  const block = new Set<string>();
  const keep = new Set<string>();
  let polarity: 'block' | 'keep' | null = null;
  // Each clause takes the verb it has, or the one before it ("block training, datasets and SEO tools").
  for (const clause of lower.split(/\bbut\b|\bwhile\b|\bexcept\b|\bwithout\b|\bhowever\b|\byet\b|[,;:.?!]/)) {
    if (ASKS_TO_BLOCK.test(clause)) polarity = 'block';
    else if (KEEP.test(clause)) polarity = 'keep';
    if (polarity === null) continue;
    for (const category of categoriesIn(clause, data.aiCategories)) (polarity === 'block' ? block : keep).add(category);
  }
  for (const category of keep) block.delete(category);
  return block.size === 0 ? null : { block: [...block], keep: [...keep] };
}

type Policy = ToolData['policies'][number];

export type PolicyChoice =
  /** broader: other policies that also do it, naming more crawlers. */
  | { kind: 'one'; policy: Policy; broader: Policy[] }
  /** No single policy does it; these two together do. */
  | { kind: 'pair'; policies: readonly [Policy, Policy] }
  | { kind: 'none' };

/**
 * The policy that names every crawler of each category to block (every one any policy can
 * name: retired crawlers and tokenless fetchers are never named) and none of a category to
 * keep, naming the fewest crawlers; else the two policies that do it together; else none.
 */
export function choosePolicy(question: PolicyQuestion, data: ToolData): PolicyChoice {
  const nameable = [...new Set(data.policies.flatMap((p) => p.crawlers.map((c) => c.slug)))];
  const categoryOf = (slug: string) => data.bySlug.get(slug)?.category ?? '';
  const candidates = data.policies.filter(
    (policy) => policy.directive === 'disallow' && policy.crawlers.every((c) => !question.keep.includes(categoryOf(c.slug))),
  );
  const covers = (named: ReadonlySet<string>) =>
    question.block.every((category) => nameable.filter((slug) => categoryOf(slug) === category).every((slug) => named.has(slug)));
  const namedBy = (...policies: Policy[]) => new Set(policies.flatMap((p) => p.crawlers.map((c) => c.slug)));
  const fits = candidates.filter((policy) => covers(namedBy(policy)));
  // Fewest crawlers first; between policies naming the same ones, the narrower rule (block-ai-training over allow-ai-search-only while no assistant is indexed).
  const ruleSize = (policy: Policy) => (policy.select?.categories?.length ?? 0) + (policy.select?.stances?.length ?? 0);
  fits.sort((a, b) => a.crawlers.length - b.crawlers.length || ruleSize(a) - ruleSize(b) || a.id.localeCompare(b.id));
  const [policy, ...broader] = fits;
  if (policy !== undefined) return { kind: 'one', policy, broader };
  const pairs = candidates.flatMap((a, i) => candidates.slice(i + 1).map((b) => [a, b] as const)).filter(([a, b]) => covers(namedBy(a, b)));
  pairs.sort(([a1, b1], [a2, b2]) => namedBy(a1, b1).size - namedBy(a2, b2).size);
  return pairs[0] === undefined ? { kind: 'none' } : { kind: 'pair', policies: pairs[0] };
}
