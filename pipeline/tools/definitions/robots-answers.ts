import type { ClientEntry } from '../classify/clients.ts';
// What the robots.txt tools share: their parameters, the work budget, the AI-access audit and
// the lint answer.
import type { CrawlerView } from '../../model/model.ts';
import { type SuggestionBasis, type SuggestionIndex, suggestionIndex, suggestToken } from '../robots/suggest-token.ts';
import {
  evaluate,
  evaluationCost,
  UNITS_PER_COMPARISON,
  type Finding,
  type ParsedRobots,
  type PathVerdict,
  notRobotsTxt,
  readingForToken,
  type LintIndex,
  type RecordedTokens,
} from '../robots/index.ts';
import {
  EVALUATION_BUDGET,
  InputRefused,
  ROBOTS_BODY_LIMIT,
  LISTED_FINDINGS,
  LISTED_UNKNOWN_TOKENS,
  MAX_PATH_BYTES,
  SUGGESTED_TOKENS,
} from '../registry/limits.ts';
import type { ParamSpec } from '../registry/types.ts';
import { encodedRobotsProblem } from '../robots/encoded-file.ts';
import { headerOf, PREFERENCES_SCHEMA, preferencesFor, usagePreferencesOf } from './preference-answers.ts';
import { crawlerFields } from '../../model/crawler-fields.ts';

export const ROBOTS_TXT = {
  name: 'robots_txt',
  kind: 'string',
  required: true,
  maxBytes: ROBOTS_BODY_LIMIT,
  // RFC 9309 2.2: an empty file (or one with no group) disallows nothing.
  emptyIsValue: true,
  description: 'The whole robots.txt file as text, line breaks included. An empty file allows everything (RFC 9309).',
  http: 'In a GET, URL-encoded in the query string; or send the file as the raw body of a POST (curl --data-binary @robots.txt), or as the robots_txt field of a form or file upload.',
  accepted: `the text of a robots.txt file, at most ${ROBOTS_BODY_LIMIT} bytes (RFC 9309 2.5 asks parsers to read at least 500 KiB)`,
  example: 'User-agent: GPTBot\nDisallow: /\n',
  formProblem: encodedRobotsProblem,
} as const satisfies ParamSpec;
const OBEYS = new Set(['documented', 'partial']);

const BUDGET_FORM = `at most ${EVALUATION_BUDGET} work units per call, where one path costs (its length + ${UNITS_PER_COMPARISON}) units for every rule of the groups that apply`;

/** Refuses, before any rule is matched, an evaluation whose bound is over the budget. */
export function checkEvaluationBudget(parsed: ParsedRobots, tokens: readonly string[], paths: readonly string[], field: string, advice: string): void {
  const cost = evaluationCost(parsed, tokens, paths);
  if (cost <= EVALUATION_BUDGET) return;
  throw new InputRefused(
    field,
    `Evaluating ${paths.length === 1 ? 'this path' : `these ${paths.length} paths`} for ${tokens.length === 1 ? `"${tokens[0]}"` : `${tokens.length} crawlers`} against this file's rules needs ${cost} work units; the budget is ${EVALUATION_BUDGET} per call. ${advice}`,
    BUDGET_FORM,
  );
}

const decidingLine = (verdict: PathVerdict) => (verdict.deciding ? { line: verdict.deciding.line, text: verdict.deciding.text } : null);

/**
 * What the operator says the crawler does when the file has groups for tokens it honours
 * (retired names it still obeys): null when no group names one. The crawler keeps out when its
 * own group or any such group keeps it out, the most restrictive reading of the statement.
 */
function honouredView(parsed: ParsedRobots, crawler: CrawlerView, own: PathVerdict, path: string) {
  const groups = crawler.honoured_tokens
    .map((honoured) => ({ token: honoured.token, verdict: evaluate(parsed, honoured.token, path) }))
    // Only a group that names the token speaks to it; the * group already decided the crawler's own verdict.
    .filter((g) => g.verdict.matched_by === 'token')
    .map((g) => ({ token: g.token, allowed: g.verdict.allowed, deciding_line: decidingLine(g.verdict) }));
  if (groups.length === 0) return null;
  return { allowed: own.allowed && groups.every((g) => g.allowed), groups };
}

/**
 * A crawler whose documented token is not an RFC 9309 product token (AI2Bot) is judged by the
 * whole-token reading (readingForToken); where a strict parser, which cuts the value at the
 * digit, would decide otherwise, the answer says so.
 */
function parserDependence(token: string, verdict: PathVerdict) {
  if (readingForToken(token) === 'rfc' || !verdict.disagreements.whole_name) return null;
  const strict = verdict.allowed ? 'blocked' : 'allowed';
  return {
    this_verdict: 'whole token',
    strict_rfc_9309: strict,
    note: `"${token}" is not an RFC 9309 product token. Read whole, as its operator documents it, the file ${verdict.allowed ? 'allows' : 'blocks'} ${token}; a strict parser cuts the user-agent value at the first digit or space and would find it ${strict}.`,
  };
}

function brief(crawler: CrawlerView, verdict: PathVerdict, parsed: ParsedRobots, path: string, header: ReturnType<typeof headerOf>) {
  const token = crawler.robots_token ?? '';
  return {
    ...crawlerFields(crawler, ['slug', 'name', 'operator', 'category', 'robots_token', 'respects_robots_txt']),
    deciding_line: decidingLine(verdict),
    operator_says: honouredView(parsed, crawler, verdict, path),
    parser_dependent: crawler.robots_token === null ? null : parserDependence(crawler.robots_token, verdict),
    preferences: preferencesFor(parsed, token, readingForToken(token), path, verdict.allowed, header?.statement ?? null),
  };
}

type Brief = ReturnType<typeof brief>;

function groupBy(items: readonly Brief[], key: (b: Brief) => string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const item of items) (out[key(item)] ??= []).push(item.slug);
  return out;
}

const suggestionIndexes = new WeakMap<readonly CrawlerView[], SuggestionIndex>();

/**
 * The names "did you mean" reads an unknown value against: every crawler's token, and the
 * aliases and honoured tokens that stand for one (suggest-token.ts). Built once per crawler list.
 */
export function crawlerSuggestions(crawlers: readonly CrawlerView[]): SuggestionIndex {
  let index = suggestionIndexes.get(crawlers);
  if (index === undefined) {
    index = suggestionIndex(
      crawlers.flatMap((c) => [
        ...(c.robots_token === null
          ? []
          : [{ name: c.robots_token, token: c.robots_token }, ...c.aliases.map((a) => ({ name: a.name, token: c.robots_token! }))]),
        ...c.honoured_tokens.map((h) => ({ name: h.token, token: h.token })),
      ]),
    );
    suggestionIndexes.set(crawlers, index);
  }
  return index;
}

export interface UnknownToken {
  token: string;
  line: number;
  did_you_mean: string | null;
}

/** A user-agent line naming a crawler its operator no longer runs. */
export interface RetiredLine {
  token: string;
  line: number;
  crawler: string;
  retired_since: string | null;
  successor: string | null;
  explanation: string;
}

function retiredLine(token: string, line: number, crawler: CrawlerView, bySlug: ReadonlyMap<string, CrawlerView>): RetiredLine {
  const successor = crawler.successor === null ? undefined : bySlug.get(crawler.successor);
  const instead = successor === undefined ? '' : ` Name ${successor.robots_token ?? successor.slug} (${successor.name}) instead.`;
  return {
    token,
    line,
    crawler: crawler.slug,
    retired_since: crawler.retired_since,
    successor: crawler.successor,
    explanation: `${crawler.name} was retired by ${crawler.operator}${crawler.retired_since === null ? '' : ` on ${crawler.retired_since}`}: no crawler sends this token, so this group blocks nothing.${instead}`,
  };
}

/** A user-agent line naming another spelling of an indexed crawler, which its operator has not said it obeys. */
export interface AliasLine {
  token: string;
  line: number;
  crawler: string;
  note: string;
  /** What to write instead, when the crawler has a token. */
  write_instead: string | null;
}

function aliasLine(token: string, line: number, crawler: CrawlerView, note: string): AliasLine {
  const instead = crawler.robots_token === null ? '' : ` To be sure the group reaches ${crawler.name}, name ${crawler.robots_token}.`;
  return {
    token,
    line,
    crawler: crawler.slug,
    note: `${note} An RFC 9309 parser matches a group only to the token the crawler itself reads.${instead}`,
    write_instead: crawler.robots_token,
  };
}

/** A user-agent line naming software that is not one operator's crawler. */
export interface ClientLine {
  token: string;
  line: number;
  client: string;
  kind: string;
  note: string;
}

function clientLine(token: string, line: number, client: ClientEntry): ClientLine {
  return {
    token,
    line,
    client: client.id,
    kind: client.kind,
    note: `${client.name} is a ${client.kind_label.toLowerCase()}, not one operator's crawler: a group for it reaches only programs that keep its default header and choose to read robots.txt. ${client.what_it_is}`,
  };
}

/** A user-agent line naming a retired token that a crawler in the index still obeys. */
export interface HonouredLine {
  token: string;
  line: number;
  honoured_by: string;
  note: string;
  citation: CrawlerView['honoured_tokens'][number]['citation'];
}

/**
 * User-agent values that name no crawler in the index. Only the first SUGGESTED_TOKENS
 * distinct values (in file order) are compared with the known tokens, and only the first
 * LISTED_UNKNOWN_TOKENS lines are listed; `counts` says how many there were in all.
 */
function unknownTokens(parsed: ParsedRobots, crawlers: readonly CrawlerView[], clients: readonly ClientEntry[]) {
  const known = new Set(crawlers.flatMap((c) => (c.status !== 'retired' && c.robots_token !== null ? [c.robots_token.toLowerCase()] : [])));
  const retiredBy = new Map(crawlers.flatMap((c) => (c.status === 'retired' && c.robots_token !== null ? [[c.robots_token.toLowerCase(), c] as const] : [])));
  const successorOf = new Map(crawlers.map((c) => [c.slug, c] as const));
  // A crawler with no token is still written in robots.txt files under the name its User-Agent carries.
  const tokenlessBy = new Map(
    crawlers.flatMap((c) => (c.robots_token === null && c.user_agent_substring !== null ? [[c.user_agent_substring.toLowerCase(), c] as const] : [])),
  );
  const honouredBy = new Map(crawlers.flatMap((c) => c.honoured_tokens.map((h) => [h.token.toLowerCase(), { crawler: c, honoured: h }] as const)));
  // A client is written under its name, its id or its product token (Scrapy, python-requests, curl).
  const clientOf = new Map(clients.flatMap((c) => [c.name, c.id, c.user_agent_substring.replace(/\/$/, '')].map((name) => [name.toLowerCase(), c] as const)));
  const aliasOf = new Map(crawlers.flatMap((c) => c.aliases.map((a) => [a.name.toLowerCase(), { crawler: c, alias: a }] as const)));
  const index = crawlerSuggestions(crawlers);
  const suggestions = new Map<string, string | null>();
  const listed: UnknownToken[] = [];
  const honoured: HonouredLine[] = [];
  const retiredLines: RetiredLine[] = [];
  const tokenlessLines: { token: string; line: number; crawler: string; note: string }[] = [];
  const aliasLines: AliasLine[] = [];
  const clientLines: ClientLine[] = [];
  let lines = 0;
  let distinct = 0;
  for (const group of parsed.groups) {
    for (const ua of group.user_agents) {
      const lower = ua.value.toLowerCase();
      if (ua.value === '*' || known.has(lower) || known.has(ua.whole_name.toLowerCase())) continue;
      // Sites copy the product token with its version from a User-Agent (peer39_crawler/1.0).
      if (known.has(withoutVersion(lower))) continue;
      const tokenless = tokenlessBy.get(lower);
      if (tokenless !== undefined) {
        if (tokenlessLines.length < LISTED_UNKNOWN_TOKENS) {
          tokenlessLines.push({ token: ua.value, line: ua.line, crawler: tokenless.slug, note: tokenless.robots_token_note ?? '' });
        }
        continue;
      }
      const retired = retiredBy.get(lower);
      if (retired !== undefined) {
        if (retiredLines.length < LISTED_UNKNOWN_TOKENS) retiredLines.push(retiredLine(ua.value, ua.line, retired, successorOf));
        continue;
      }
      const alias = aliasOf.get(lower);
      if (alias !== undefined) {
        if (aliasLines.length < LISTED_UNKNOWN_TOKENS) aliasLines.push(aliasLine(ua.value, ua.line, alias.crawler, alias.alias.note));
        continue;
      }
      const client = clientOf.get(lower) ?? clientOf.get(withoutVersion(lower));
      if (client !== undefined) {
        if (clientLines.length < LISTED_UNKNOWN_TOKENS) clientLines.push(clientLine(ua.value, ua.line, client));
        continue;
      }
      const honouring = honouredBy.get(lower);
      if (honouring !== undefined) {
        if (honoured.length < LISTED_UNKNOWN_TOKENS) {
          const { crawler, honoured: h } = honouring;
          honoured.push({ token: ua.value, line: ua.line, honoured_by: crawler.slug, note: h.note, citation: h.citation });
        }
        continue;
      }
      lines += 1;
      if (!suggestions.has(lower)) {
        distinct += 1;
        suggestions.set(lower, distinct <= SUGGESTED_TOKENS ? (suggestToken(ua.value, index)?.token ?? null) : null);
      }
      if (listed.length < LISTED_UNKNOWN_TOKENS) listed.push({ token: ua.value, line: ua.line, did_you_mean: suggestions.get(lower) ?? null });
    }
  }
  const suggestedFor = Math.min(distinct, SUGGESTED_TOKENS);
  return {
    listed,
    honoured,
    retired: retiredLines,
    tokenless: tokenlessLines,
    aliases: aliasLines,
    clients: clientLines,
    counts: {
      lines,
      listed: listed.length,
      distinct,
      suggested_for: suggestedFor,
      note:
        distinct > SUGGESTED_TOKENS || lines > listed.length
          ? `${lines} user-agent lines name no known crawler (${distinct} distinct tokens); ${listed.length} are listed, and "did you mean" was looked up for the first ${suggestedFor} distinct tokens only (limits: ${LISTED_UNKNOWN_TOKENS} lines, ${SUGGESTED_TOKENS} tokens per call)`
          : null,
    },
  };
}

function withoutVersion(token: string): string {
  return token.replace(/\/[0-9][0-9.]*$/, '');
}

export function auditAiAccess(
  parsed: ParsedRobots,
  path: string,
  crawlers: readonly CrawlerView[],
  ai: ReadonlySet<string>,
  clients: readonly ClientEntry[],
  contentUsageHeader?: string,
) {
  const header = headerOf(contentUsageHeader);
  // A retired crawler fetches nothing, so it is neither blocked nor allowed; a line naming it is explained instead.
  const running = crawlers.filter((c) => ai.has(c.category) && c.status !== 'retired');
  // A crawler with no robots.txt token is not controlled by the file at all: it is listed apart, never evaluated.
  const aiCrawlers = running.flatMap((c) => (c.robots_token === null ? [] : [{ crawler: c, token: c.robots_token }]));
  const verdicts = aiCrawlers.map(({ crawler, token }) => ({ crawler, verdict: evaluate(parsed, token, path, readingForToken(token)) }));
  const blocked = verdicts.filter((v) => !v.verdict.allowed).map((v) => brief(v.crawler, v.verdict, parsed, path, header));
  const allowed = verdicts.filter((v) => v.verdict.allowed).map((v) => brief(v.crawler, v.verdict, parsed, path, header));
  const ownGroup = new Set(verdicts.filter((v) => v.verdict.matched_by === 'token' || v.verdict.matched_by === 'fallback').map((v) => v.crawler.slug));
  const unknown = unknownTokens(parsed, crawlers, clients);
  return {
    path,
    parsed: { bytes: parsed.size.total_bytes, ignored_bytes: parsed.size.excess_bytes, groups: parsed.groups.length, not_robots_txt: notRobotsTxt(parsed) },
    summary: { ai_crawlers: aiCrawlers.length, blocked: blocked.length, allowed: allowed.length },
    blocked,
    allowed,
    by_operator: { blocked: groupBy(blocked, (b) => b.operator), allowed: groupBy(allowed, (b) => b.operator) },
    by_category: { blocked: groupBy(blocked, (b) => b.category), allowed: groupBy(allowed, (b) => b.category) },
    unknown_tokens: unknown.listed,
    unknown_token_counts: unknown.counts,
    honoured_tokens: unknown.honoured,
    retired_tokens: unknown.retired,
    not_controlled_by_robots_txt: running
      .filter((c) => c.robots_token === null)
      .map((c) => ({ slug: c.slug, name: c.name, operator: c.operator, note: c.robots_token_note ?? '' })),
    tokenless_names: unknown.tokenless,
    alias_names: unknown.aliases,
    client_names: unknown.clients,
    usage_preferences: usagePreferencesOf(
      parsed,
      path,
      header,
      [...blocked, ...allowed].map((b) => ({
        slug: b.slug,
        category: b.category,
        token: b.robots_token ?? b.slug,
        matchedOwnGroup: ownGroup.has(b.slug),
        preferences: b.preferences,
      })),
    ),
    obedience: {
      // RFC 9309 reads the crawler's own group; the operator says it also obeys groups of retired names.
      decided_by_honoured_token: [...blocked, ...allowed]
        .filter((b) => b.operator_says !== null && b.operator_says.allowed !== allowed.includes(b))
        .map((b) => ({ slug: b.slug, rfc_9309: allowed.includes(b) ? 'allowed' : 'blocked', operator_says: b.operator_says?.allowed ? 'allowed' : 'blocked' })),
      blocked_and_documented: blocked.filter((b) => OBEYS.has(b.respects_robots_txt)).map((b) => b.slug),
      blocked_but_may_not_obey: blocked
        .filter((b) => !OBEYS.has(b.respects_robots_txt))
        .map((b) => ({ slug: b.slug, respects_robots_txt: b.respects_robots_txt })),
    },
  };
}

/** The robots tokens of the AI crawlers, and the retired tokens they honour: what ai-access evaluates. */
export function aiTokens(crawlers: readonly CrawlerView[], ai: ReadonlySet<string>): string[] {
  return crawlers
    .filter((c) => ai.has(c.category) && c.status !== 'retired')
    .flatMap((c) => [...(c.robots_token === null ? [] : [c.robots_token]), ...c.honoured_tokens.map((h) => h.token)]);
}

const recordedTokensCache = new WeakMap<readonly CrawlerView[], RecordedTokens>();

/**
 * The index's robots tokens that are not RFC 9309 product tokens, with each record's note: the
 * linter explains these instead of asking the site owner to respell them (docs/API.md, robots-lint).
 * Built once per crawler list.
 */
function recordedTokensOf(crawlers: readonly CrawlerView[]): RecordedTokens {
  let recorded = recordedTokensCache.get(crawlers);
  if (recorded === undefined) {
    recorded = new Map(
      crawlers.flatMap((c) =>
        c.robots_token !== null && c.robots_token_note !== null && !c.robots_token_is_product_token
          ? [[c.robots_token.toLowerCase(), { crawler: c.name, note: c.robots_token_note }] as const]
          : [],
      ),
    );
    recordedTokensCache.set(crawlers, recorded);
  }
  return recorded;
}

/** How a lint finding says what a suggestion was read from. */
const BECAUSE: Record<SuggestionBasis, string> = {
  version: 'the name before its version',
  'product-token': 'the product token it starts with',
  stem: 'the same name with its generic ending',
  prefix: 'the one name it starts',
  suffix: 'the name before a suffix of its own',
  spelling: 'one slip of the keyboard away',
};

const lintIndexes = new WeakMap<readonly CrawlerView[], LintIndex>();

/**
 * What robots-lint knows of the index: the tokens it explains instead of warning about, and
 * "did you mean" for a user-agent value that names nothing the index knows, by the same
 * reading as ai-access's unknown_tokens (a crawler's token, with or without a version, an
 * alias, an honoured token, a tokenless crawler's name or a client's name is known).
 */
export function lintIndexOf(crawlers: readonly CrawlerView[], clients: readonly ClientEntry[]): LintIndex {
  let index = lintIndexes.get(crawlers);
  if (index === undefined) {
    const known = new Set(
      [
        ...crawlers.flatMap((c) => [
          ...(c.robots_token === null ? [] : [c.robots_token]),
          ...(c.robots_token === null && c.user_agent_substring !== null ? [c.user_agent_substring] : []),
          ...c.aliases.map((a) => a.name),
          ...c.honoured_tokens.map((h) => h.token),
        ]),
        ...clients.flatMap((c) => [c.name, c.id, c.user_agent_substring.replace(/\/$/, '')]),
      ].map((name) => name.toLowerCase()),
    );
    const suggestions = crawlerSuggestions(crawlers);
    index = {
      recorded: recordedTokensOf(crawlers),
      didYouMean: (value) => {
        const lower = value.toLowerCase();
        if (known.has(lower) || known.has(withoutVersion(lower))) return null;
        const suggestion = suggestToken(value, suggestions);
        return suggestion === null ? null : { token: suggestion.token, because: BECAUSE[suggestion.basis] };
      },
      lookups: SUGGESTED_TOKENS,
    };
    lintIndexes.set(crawlers, index);
  }
  return index;
}

/** Lint findings as answered: the first LISTED_FINDINGS by line, counts over all of them. */
export function lintAnswer(findings: readonly Finding[]) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return { counts, findings: findings.slice(0, LISTED_FINDINGS), findings_omitted: Math.max(0, findings.length - LISTED_FINDINGS) };
}

export function summarizeLint(o: ReturnType<typeof lintAnswer>): string {
  if (o.findings.length === 0) return 'No findings.';
  const shown = o.findings
    .slice(0, 30)
    .map((f) => `${f.line === null ? 'file' : `line ${f.line} (${JSON.stringify(f.text ?? '')})`} ${f.severity}: ${f.message} Fix: ${f.fix}`);
  const more = o.findings.length - shown.length + o.findings_omitted;
  return shown.join('\n') + (more > 0 ? `\n… and ${more} more findings` : '');
}

export const PATH_PARAM = {
  name: 'path',
  kind: 'string',
  required: false,
  default: '/',
  maxBytes: MAX_PATH_BYTES,
  description: 'The URL path to evaluate.',
  accepted: `a URL path starting with / (default /), at most ${MAX_PATH_BYTES} bytes`,
} as const satisfies ParamSpec;

export const LINT_SCHEMA = {
  type: 'object',
  required: ['counts', 'findings', 'findings_omitted'],
  properties: {
    counts: { type: 'object', required: ['error', 'warning', 'info'] },
    findings: {
      type: 'array',
      maxItems: LISTED_FINDINGS,
      items: {
        type: 'object',
        required: ['line', 'text', 'severity', 'code', 'message', 'fix'],
        properties: {
          line: { type: ['integer', 'null'] },
          text: { type: ['string', 'null'], description: 'The line as written, cut to 200 characters; null for a finding about the whole file' },
          severity: { enum: ['error', 'warning', 'info'] },
          code: { type: 'string' },
          message: { type: 'string' },
          fix: { type: 'string' },
        },
      },
    },
    findings_omitted: { type: 'integer', minimum: 0 },
  },
};

export const crawlerBrief = {
  type: 'object',
  required: [
    'slug',
    'name',
    'operator',
    'category',
    'robots_token',
    'respects_robots_txt',
    'deciding_line',
    'operator_says',
    'parser_dependent',
    'preferences',
  ],
  properties: {
    preferences: PREFERENCES_SCHEMA,
    parser_dependent: {
      description:
        'Set when the verdict depends on how a parser reads a token that is not an RFC 9309 product token (AI2Bot): the verdict uses the whole token, as the operator documents it; strict_rfc_9309 is what a parser that cuts it would decide.',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['this_verdict', 'strict_rfc_9309', 'note'],
          properties: { this_verdict: { const: 'whole token' }, strict_rfc_9309: { enum: ['blocked', 'allowed'] }, note: { type: 'string' } },
        },
      ],
    },
  },
};
