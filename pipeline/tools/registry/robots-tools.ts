import type { CrawlerView } from '../../model/model.ts';
import { editDistance } from '../robots/distance.ts';
import { evaluate, evaluateMany, lintRobotsTxt, parseRobotsTxt, type Verdict } from '../robots/index.ts';
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


function brief(crawler: CrawlerView, verdict: Verdict) {
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

export function auditAiAccess(robotsTxt: string, path: string, crawlers: readonly CrawlerView[], ai: ReadonlySet<string>) {
  const parsed = parseRobotsTxt(robotsTxt);
  const aiCrawlers = crawlers.filter((c) => ai.has(c.category));
  const verdicts = aiCrawlers.map((crawler) => ({ crawler, verdict: evaluate(parsed, crawler.robots_token, path) }));
  const blocked = verdicts.filter((v) => !v.verdict.allowed).map((v) => brief(v.crawler, v.verdict));
  const allowed = verdicts.filter((v) => v.verdict.allowed).map((v) => brief(v.crawler, v.verdict));
  const known = new Map(crawlers.map((c) => [c.robots_token.toLowerCase(), c]));
  const unknownTokens = parsed.groups.flatMap((g) => g.user_agents)
    .filter((ua) => ua.value !== '*' && !known.has(ua.value.toLowerCase()) && !known.has(ua.whole_name.toLowerCase()))
    .map((ua) => {
      const scored = crawlers.map((c) => ({ token: c.robots_token, d: editDistance(ua.value.toLowerCase(), c.robots_token.toLowerCase()) })).sort((a, b) => a.d - b.d || (a.token < b.token ? -1 : 1));
      const best = scored[0];
      return { token: ua.value, line: ua.line, did_you_mean: best && best.d <= Math.max(2, Math.floor(ua.value.length / 4)) ? best.token : null };
    });
  return {
    path,
    parsed: { bytes: parsed.size.total_bytes, ignored_bytes: parsed.size.excess_bytes, groups: parsed.groups.length },
    summary: { ai_crawlers: aiCrawlers.length, blocked: blocked.length, allowed: allowed.length },
    blocked,
    allowed,
    by_operator: { blocked: groupBy(blocked, (b) => b.operator), allowed: groupBy(allowed, (b) => b.operator) },
    by_category: { blocked: groupBy(blocked, (b) => b.category), allowed: groupBy(allowed, (b) => b.category) },
    unknown_tokens: unknownTokens,
    obedience: {
      blocked_and_documented: blocked.filter((b) => OBEYS.has(b.respects_robots_txt)).map((b) => b.slug),
      blocked_but_may_not_obey: blocked.filter((b) => !OBEYS.has(b.respects_robots_txt)).map((b) => ({ slug: b.slug, respects_robots_txt: b.respects_robots_txt })),
    },
  };
}

const crawlerBrief = { type: 'object', required: ['slug', 'name', 'operator', 'category', 'robots_token', 'respects_robots_txt', 'deciding_line'] };

export const auditTool: ToolDefinition = {
  name: 'audit_ai_access',
  path: 'ai-access',
  title: 'AI access audit of a robots.txt',
  description: 'Evaluates a robots.txt against every AI crawler in the index (RFC 9309): which it blocks and lets in, per operator and category; which tokens match no known crawler (with a suggestion); and which blocked crawlers document obeying robots.txt versus those that may not.',
  params: [ROBOTS_TXT, { name: 'path', kind: 'string', required: false, default: '/', maxBytes: 2048, description: 'The URL path to evaluate.', accepted: 'a URL path starting with / (default /), at most 2048 bytes' }],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: ['path', 'parsed', 'summary', 'blocked', 'allowed', 'by_operator', 'by_category', 'unknown_tokens', 'obedience'],
    properties: {
      path: { type: 'string' },
      summary: { type: 'object', required: ['ai_crawlers', 'blocked', 'allowed'], properties: { ai_crawlers: { type: 'integer' }, blocked: { type: 'integer' }, allowed: { type: 'integer' } } },
      blocked: { type: 'array', items: crawlerBrief },
      allowed: { type: 'array', items: crawlerBrief },
      unknown_tokens: { type: 'array', items: { type: 'object', required: ['token', 'line', 'did_you_mean'] } },
    },
  },
  examples: [{ description: 'A file that blocks GPTBot and CCBot', input: { robots_txt: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n' } }],
  run: (input, { data }) => auditAiAccess(textOf(input, 'robots_txt'), textOf(input, 'path') || '/', data.crawlers, data.aiCategories),
  summarize: (output) => {
    const o = output as ReturnType<typeof auditAiAccess>;
    const lines = [`For ${o.path}: ${o.summary.blocked} of ${o.summary.ai_crawlers} AI crawlers are blocked, ${o.summary.allowed} allowed.`];
    if (o.obedience.blocked_but_may_not_obey.length > 0) lines.push(`Blocked but may not obey robots.txt: ${o.obedience.blocked_but_may_not_obey.map((b) => b.slug).join(', ')}.`);
    if (o.unknown_tokens.length > 0) lines.push(`Tokens matching no known crawler: ${o.unknown_tokens.map((t) => (t.did_you_mean ? `${t.token} (did you mean ${t.did_you_mean}?)` : t.token)).join(', ')}.`);
    return lines.join(' ');
  },
};

export const MAX_PATHS = 200;

export const allowedTool: ToolDefinition = {
  name: 'check_path_allowed',
  path: 'robots-allowed',
  title: 'Is this path allowed for this crawler?',
  description: 'Evaluates a robots.txt under RFC 9309 for one product token and up to 200 paths: the longest matching token picks the group (groups naming it merge), the longest pattern picks the rule, Allow wins a tie, * and $ are supported. Each verdict gives the deciding line, and flags where a first-group-wins or non-merging parser would decide differently.',
  params: [
    ROBOTS_TXT,
    { name: 'ua', kind: 'string', required: true, maxBytes: 256, description: 'The product token of the crawler (GPTBot), not a whole User-Agent header.', accepted: 'a robots.txt product token such as GPTBot or Googlebot-Image, at most 256 bytes', example: 'GPTBot' },
    { name: 'path', kind: 'list', required: false, maxItems: MAX_PATHS, split: 'comma', default: ['/'], description: 'Paths to evaluate: repeat the parameter or separate with commas.', accepted: `1 to ${MAX_PATHS} URL paths (repeat path= or separate with commas; default /)` },
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
    const results = evaluateMany(parseRobotsTxt(textOf(input, 'robots_txt')), textOf(input, 'ua'), listOf(input, 'path'));
    return { token: textOf(input, 'ua'), summary: { allowed: results.filter((r) => r.allowed).length, disallowed: results.filter((r) => !r.allowed).length }, results };
  },
  summarize: (output) => {
    const o = output as { token: string; results: Verdict[] };
    return o.results.slice(0, 20).map((r) => `${r.path}: ${r.allowed ? 'allowed' : 'disallowed'} for ${o.token} (${r.deciding ? `line ${r.deciding.line}: ${r.deciding.text}` : r.reason})`).join('\n') + (o.results.length > 20 ? `\n… and ${o.results.length - 20} more paths` : '');
  },
};

export const lintTool: ToolDefinition = {
  name: 'lint_robots_txt',
  path: 'robots-lint',
  title: 'robots.txt linter',
  description: 'Reports faults in a robots.txt with line number, severity and fix: misspelt directives, a whole User-Agent header where a token belongs, tokens that are not RFC 9309 product tokens, rules before any User-agent line, duplicate groups, noindex and other unsupported directives, relative Sitemap URLs, a byte-order mark, non-UTF-8 bytes, an oversize file, Crawl-delay.',
  params: [ROBOTS_TXT],
  postBody: 'robots_txt',
  outputSchema: { type: 'object', required: ['findings', 'counts'], properties: { findings: { type: 'array', items: { type: 'object', required: ['line', 'severity', 'code', 'message', 'fix'] } }, counts: { type: 'object', required: ['error', 'warning', 'info'] } } },
  examples: [{ description: 'A misspelt Disallow', input: { robots_txt: 'User-agent: *\nDissallow: /private\n' } }],
  run: (input) => {
    const findings = lintRobotsTxt(textOf(input, 'robots_txt'));
    return { counts: { error: findings.filter((f) => f.severity === 'error').length, warning: findings.filter((f) => f.severity === 'warning').length, info: findings.filter((f) => f.severity === 'info').length }, findings };
  },
  summarize: (output) => {
    const o = output as { findings: { line: number | null; severity: string; message: string; fix: string }[] };
    if (o.findings.length === 0) return 'No findings.';
    return o.findings.slice(0, 30).map((f) => `${f.line === null ? 'file' : `line ${f.line}`} ${f.severity}: ${f.message} Fix: ${f.fix}`).join('\n');
  },
};
