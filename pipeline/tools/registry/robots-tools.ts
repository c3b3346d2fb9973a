import type { CrawlerView } from '../../model/model.ts';
import { boundedEditDistance } from '../robots/distance.ts';
import { evaluate, evaluateMany, evaluationCost, lintParsed, parseRobotsTxt, UNITS_PER_COMPARISON, type Finding, type ParsedRobots, type PathVerdict } from '../robots/index.ts';
import { EVALUATION_BUDGET, InputRefused, LISTED_FINDINGS, LISTED_UNKNOWN_TOKENS, MAX_PATH_BYTES, SUGGESTED_TOKENS } from './limits.ts';
import type { ParamSpec, ToolDefinition } from './types.ts';
import { listOf, textOf } from './input.ts';

export const ROBOTS_BODY_LIMIT = 512_000;

const ROBOTS_TXT: ParamSpec = {
  name: 'robots_txt', kind: 'string', required: true, maxBytes: ROBOTS_BODY_LIMIT,
  description: 'The robots.txt file, URL-encoded in a GET or as the raw body of a POST.',
  accepted: `the text of a robots.txt file, at most ${ROBOTS_BODY_LIMIT} bytes (RFC 9309 2.5 asks parsers to read at least 500 KiB)`,
  example: 'User-agent: GPTBot\nDisallow: /\n',
};
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

function brief(crawler: CrawlerView, verdict: PathVerdict) {
  return {
    slug: crawler.slug, name: crawler.name, operator: crawler.operator, category: crawler.category, robots_token: crawler.robots_token,
    respects_robots_txt: crawler.respects_robots_txt,
    deciding_line: verdict.deciding ? { line: verdict.deciding.line, text: verdict.deciding.text } : null,
  };
}

type Brief = ReturnType<typeof brief>;

function groupBy(items: readonly Brief[], key: (b: Brief) => string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const item of items) (out[key(item)] ??= []).push(item.slug);
  return out;
}

/**
 * The known token a misspelt one most likely meant: the nearest by edit distance within
 * max(2, a quarter of its length), ties to the alphabetically first. The bounded distance
 * skips tokens whose length alone puts them out of reach, so the cost does not grow with
 * the length of what a file holds.
 */
export function suggestToken(value: string, tokens: readonly string[]): string | null {
  const lower = value.toLowerCase();
  const limit = Math.max(2, Math.floor(value.length / 4));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const token of tokens) {
    // Once one is found only as near or nearer ones matter, so the bound tightens.
    const d = boundedEditDistance(lower, token.toLowerCase(), best === null ? limit : bestDistance);
    if (d > limit) continue;
    if (best === null || d < bestDistance || (d === bestDistance && token < best)) {
      best = token;
      bestDistance = d;
    }
  }
  return best;
}

interface UnknownToken {
  token: string;
  line: number;
  did_you_mean: string | null;
}

/**
 * User-agent values that name no crawler in the index. Only the first SUGGESTED_TOKENS
 * distinct values (in file order) are compared with the known tokens, and only the first
 * LISTED_UNKNOWN_TOKENS lines are listed; `counts` says how many there were in all.
 */
function unknownTokens(parsed: ParsedRobots, crawlers: readonly CrawlerView[]) {
  const known = new Set(crawlers.map((c) => c.robots_token.toLowerCase()));
  const tokens = crawlers.map((c) => c.robots_token);
  const suggestions = new Map<string, string | null>();
  const listed: UnknownToken[] = [];
  let lines = 0;
  let distinct = 0;
  for (const group of parsed.groups) {
    for (const ua of group.user_agents) {
      const lower = ua.value.toLowerCase();
      if (ua.value === '*' || known.has(lower) || known.has(ua.whole_name.toLowerCase())) continue;
      lines += 1;
      if (!suggestions.has(lower)) {
        distinct += 1;
        suggestions.set(lower, distinct <= SUGGESTED_TOKENS ? suggestToken(ua.value, tokens) : null);
      }
      if (listed.length < LISTED_UNKNOWN_TOKENS) listed.push({ token: ua.value, line: ua.line, did_you_mean: suggestions.get(lower) ?? null });
    }
  }
  const suggestedFor = Math.min(distinct, SUGGESTED_TOKENS);
  return {
    listed,
    counts: {
      lines,
      listed: listed.length,
      distinct,
      suggested_for: suggestedFor,
      note: distinct > SUGGESTED_TOKENS || lines > listed.length
        ? `${lines} user-agent lines name no known crawler (${distinct} distinct tokens); ${listed.length} are listed, and "did you mean" was looked up for the first ${suggestedFor} distinct tokens only (limits: ${LISTED_UNKNOWN_TOKENS} lines, ${SUGGESTED_TOKENS} tokens per call)`
        : null,
    },
  };
}

export function auditAiAccess(parsed: ParsedRobots, path: string, crawlers: readonly CrawlerView[], ai: ReadonlySet<string>) {
  const aiCrawlers = crawlers.filter((c) => ai.has(c.category));
  const verdicts = aiCrawlers.map((crawler) => ({ crawler, verdict: evaluate(parsed, crawler.robots_token, path) }));
  const blocked = verdicts.filter((v) => !v.verdict.allowed).map((v) => brief(v.crawler, v.verdict));
  const allowed = verdicts.filter((v) => v.verdict.allowed).map((v) => brief(v.crawler, v.verdict));
  const unknown = unknownTokens(parsed, crawlers);
  return {
    path,
    parsed: { bytes: parsed.size.total_bytes, ignored_bytes: parsed.size.excess_bytes, groups: parsed.groups.length },
    summary: { ai_crawlers: aiCrawlers.length, blocked: blocked.length, allowed: allowed.length },
    blocked,
    allowed,
    by_operator: { blocked: groupBy(blocked, (b) => b.operator), allowed: groupBy(allowed, (b) => b.operator) },
    by_category: { blocked: groupBy(blocked, (b) => b.category), allowed: groupBy(allowed, (b) => b.category) },
    unknown_tokens: unknown.listed,
    unknown_token_counts: unknown.counts,
    obedience: {
      blocked_and_documented: blocked.filter((b) => OBEYS.has(b.respects_robots_txt)).map((b) => b.slug),
      blocked_but_may_not_obey: blocked.filter((b) => !OBEYS.has(b.respects_robots_txt)).map((b) => ({ slug: b.slug, respects_robots_txt: b.respects_robots_txt })),
    },
  };
}

/** The robots tokens of the AI crawlers, which ai-access evaluates. */
export function aiTokens(crawlers: readonly CrawlerView[], ai: ReadonlySet<string>): string[] {
  return crawlers.filter((c) => ai.has(c.category)).map((c) => c.robots_token);
}

/** Lint findings as answered: the first LISTED_FINDINGS by line, counts over all of them. */
export function lintAnswer(findings: readonly Finding[]) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return { counts, findings: findings.slice(0, LISTED_FINDINGS), findings_omitted: Math.max(0, findings.length - LISTED_FINDINGS) };
}

export function summarizeLint(o: ReturnType<typeof lintAnswer>): string {
  if (o.findings.length === 0) return 'No findings.';
  const shown = o.findings.slice(0, 30).map((f) => `${f.line === null ? 'file' : `line ${f.line}`} ${f.severity}: ${f.message} Fix: ${f.fix}`);
  const more = o.findings.length - shown.length + o.findings_omitted;
  return shown.join('\n') + (more > 0 ? `\n… and ${more} more findings` : '');
}

const PATH_PARAM: ParamSpec = { name: 'path', kind: 'string', required: false, default: '/', maxBytes: MAX_PATH_BYTES, description: 'The URL path to evaluate.', accepted: `a URL path starting with / (default /), at most ${MAX_PATH_BYTES} bytes` };

export const LINT_SCHEMA = {
  type: 'object',
  required: ['counts', 'findings', 'findings_omitted'],
  properties: {
    counts: { type: 'object', required: ['error', 'warning', 'info'] },
    findings: { type: 'array', maxItems: LISTED_FINDINGS, items: { type: 'object', required: ['line', 'severity', 'code', 'message', 'fix'] } },
    findings_omitted: { type: 'integer', minimum: 0 },
  },
};

const crawlerBrief = { type: 'object', required: ['slug', 'name', 'operator', 'category', 'robots_token', 'respects_robots_txt', 'deciding_line'] };

export const auditTool: ToolDefinition = {
  name: 'audit_ai_access',
  path: 'ai-access',
  title: 'AI access audit of a robots.txt',
  description: `Evaluates a robots.txt against every AI crawler in the index (RFC 9309): which it blocks and lets in, per operator and category; which tokens match no known crawler (with a suggestion); and which blocked crawlers document obeying robots.txt versus those that may not. Limits per call: the first ${LISTED_UNKNOWN_TOKENS} unknown user-agent lines are listed and the first ${SUGGESTED_TOKENS} distinct unknown tokens get a suggestion (unknown_token_counts gives the totals); the evaluation may spend ${EVALUATION_BUDGET} work units (rules x (path length + ${UNITS_PER_COMPARISON})), a larger one is refused with a 400.`,
  params: [ROBOTS_TXT, PATH_PARAM],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: ['path', 'parsed', 'summary', 'blocked', 'allowed', 'by_operator', 'by_category', 'unknown_tokens', 'unknown_token_counts', 'obedience'],
    properties: {
      path: { type: 'string' },
      summary: { type: 'object', required: ['ai_crawlers', 'blocked', 'allowed'], properties: { ai_crawlers: { type: 'integer' }, blocked: { type: 'integer' }, allowed: { type: 'integer' } } },
      blocked: { type: 'array', items: crawlerBrief },
      allowed: { type: 'array', items: crawlerBrief },
      unknown_tokens: { type: 'array', maxItems: LISTED_UNKNOWN_TOKENS, items: { type: 'object', required: ['token', 'line', 'did_you_mean'] } },
      unknown_token_counts: {
        type: 'object',
        required: ['lines', 'listed', 'distinct', 'suggested_for', 'note'],
        properties: { lines: { type: 'integer' }, listed: { type: 'integer' }, distinct: { type: 'integer' }, suggested_for: { type: 'integer' }, note: { type: ['string', 'null'] } },
      },
    },
  },
  examples: [{ description: 'A file that blocks GPTBot and CCBot', input: { robots_txt: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n' } }],
  run: (input, { data }) => {
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const path = textOf(input, 'path') || '/';
    checkEvaluationBudget(parsed, aiTokens(data.crawlers, data.aiCategories), [path], 'robots_txt', 'Send a file with fewer rules (merge them with * patterns).');
    return auditAiAccess(parsed, path, data.crawlers, data.aiCategories);
  },
  summarize: (output) => {
    const o = output as ReturnType<typeof auditAiAccess>;
    const lines = [`For ${o.path}: ${o.summary.blocked} of ${o.summary.ai_crawlers} AI crawlers are blocked, ${o.summary.allowed} allowed.`];
    if (o.obedience.blocked_but_may_not_obey.length > 0) lines.push(`Blocked but may not obey robots.txt: ${o.obedience.blocked_but_may_not_obey.map((b) => b.slug).join(', ')}.`);
    if (o.unknown_tokens.length > 0) lines.push(`Tokens matching no known crawler: ${o.unknown_tokens.slice(0, 50).map((t) => (t.did_you_mean ? `${t.token} (did you mean ${t.did_you_mean}?)` : t.token)).join(', ')}${o.unknown_tokens.length > 50 ? ', …' : ''}.`);
    if (o.unknown_token_counts.note !== null) lines.push(`Limited: ${o.unknown_token_counts.note}.`);
    return lines.join(' ');
  },
};

export const MAX_PATHS = 200;

export const allowedTool: ToolDefinition = {
  name: 'check_path_allowed',
  path: 'robots-allowed',
  title: 'Is this path allowed for this crawler?',
  description: `Evaluates a robots.txt under RFC 9309 for one product token and up to ${MAX_PATHS} paths: the longest matching token picks the group (groups naming it merge), the longest pattern picks the rule, Allow wins a tie, * and $ are supported. Each verdict gives the deciding line, and flags where a first-group-wins or non-merging parser would decide differently. Limits per call: each path at most ${MAX_PATH_BYTES} bytes; the evaluation may spend ${EVALUATION_BUDGET} work units, about rules x paths x (path length + ${UNITS_PER_COMPARISON}), counted before any rule is matched; a larger call is refused with a 400 naming the cost and the budget, so split it.`,
  params: [
    ROBOTS_TXT,
    { name: 'ua', kind: 'string', required: true, maxBytes: 256, description: 'The product token of the crawler (GPTBot), not a whole User-Agent header.', accepted: 'a robots.txt product token such as GPTBot or Googlebot-Image, at most 256 bytes', example: 'GPTBot' },
    { name: 'path', kind: 'list', required: false, maxItems: MAX_PATHS, maxItemBytes: MAX_PATH_BYTES, split: 'comma', default: ['/'], description: 'Paths to evaluate: repeat the parameter or separate with commas.', accepted: `1 to ${MAX_PATHS} URL paths of at most ${MAX_PATH_BYTES} bytes each (repeat path= or separate with commas; default /)` },
  ],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: ['token', 'results', 'summary'],
    properties: {
      token: { type: 'string' },
      summary: { type: 'object', required: ['allowed', 'disallowed'] },
      results: { type: 'array', items: { type: 'object', required: ['path', 'allowed', 'deciding', 'reason', 'disagreements'] } },
    },
  },
  examples: [{ description: 'GPTBot on two paths', input: { robots_txt: 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /public\nDisallow: /\n', ua: 'GPTBot', path: ['/public/a', '/private/b'] } }],
  run: (input) => {
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const paths = listOf(input, 'path');
    checkEvaluationBudget(parsed, [textOf(input, 'ua')], paths, 'path', 'Send fewer or shorter paths per call (or a file with fewer rules) and split the rest over several calls.');
    const results = evaluateMany(parsed, textOf(input, 'ua'), paths);
    return { token: textOf(input, 'ua'), summary: { allowed: results.filter((r) => r.allowed).length, disallowed: results.filter((r) => !r.allowed).length }, results };
  },
  summarize: (output) => {
    const o = output as { token: string; results: PathVerdict[] };
    return o.results.slice(0, 20).map((r) => `${r.path}: ${r.allowed ? 'allowed' : 'disallowed'} for ${o.token} (${r.deciding ? `line ${r.deciding.line}: ${r.deciding.text}` : r.reason})`).join('\n') + (o.results.length > 20 ? `\n… and ${o.results.length - 20} more paths` : '');
  },
};

export const lintTool: ToolDefinition = {
  name: 'lint_robots_txt',
  path: 'robots-lint',
  title: 'robots.txt linter',
  description: `Reports faults in a robots.txt with line number, severity and fix: misspelt directives, a whole User-Agent header where a token belongs, tokens that are not RFC 9309 product tokens, rules before any User-agent line, duplicate groups, noindex and other unsupported directives, relative Sitemap URLs, a byte-order mark, non-UTF-8 bytes, an oversize file, Crawl-delay. The first ${LISTED_FINDINGS} findings (by line) are listed; counts cover all of them and findings_omitted says how many were not listed.`,
  params: [ROBOTS_TXT],
  postBody: 'robots_txt',
  outputSchema: LINT_SCHEMA,
  examples: [{ description: 'A misspelt Disallow', input: { robots_txt: 'User-agent: *\nDissallow: /private\n' } }],
  run: (input) => lintAnswer(lintParsed(parseRobotsTxt(textOf(input, 'robots_txt')))),
  summarize: (output) => summarizeLint(output as ReturnType<typeof lintAnswer>),
};
