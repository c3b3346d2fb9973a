// What each row sends. Plain data: the same request goes to the probe and to wrk.
import { EVALUATION_BUDGET } from '../pipeline/tools/registry/limits.ts';
import { evaluationCost, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import type { WrkRequest } from './wrk.ts';

export const SMALL_DOCUMENT = '/crawler/gptbot.json';
export const LARGE_DOCUMENT = '/data/agents.json';
/** A mistyped crawler: the 404 a client meets most. */
export const MISSING_DOCUMENT = '/crawler/no-such-crawler.json';

const GPTBOT_UA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

export function get(path: string, headers: Record<string, string> = {}): WrkRequest {
  return { method: 'GET', path, headers };
}

/** A conditional GET carrying the validator this server gave for `path`. */
export function revalidate(path: string, etag: string): WrkRequest {
  return get(path, { 'if-none-match': etag });
}

export function compressed(path: string): WrkRequest {
  return get(path, { 'accept-encoding': 'br, gzip' });
}

/** GET /tools/verify-crawler with every address in one comma-separated `ip` (as pasted from a log). */
export function verifyCrawler(addresses: readonly string[]): WrkRequest {
  return get(`/tools/verify-crawler?ip=${addresses.join(',')}&ua=${encodeURIComponent(GPTBOT_UA)}`);
}

/** A stateless MCP tools/call, with the headers the Streamable HTTP transport requires. */
export function mcpClassify(): WrkRequest {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: GPTBOT_UA } } });
  return {
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body,
  };
}

/** A robots.txt of `lines` numbered lines made by `line`, as a POST body for a robots.txt tool. */
function robotsPost(path: string, lines: number, line: (n: number) => string): WrkRequest {
  const body = Array.from({ length: lines }, (_, n) => line(n)).join('\n') + '\n';
  return { method: 'POST', path, headers: { 'content-type': 'text/plain' }, body };
}

/** The most rules `Disallow: /*ab<n>*x` that one robots-allowed call on `path` may evaluate within the work budget. */
function rulesWithinBudget(path: string): number {
  const fits = (rules: number) => {
    const text = ['User-agent: GPTBot', ...Array.from({ length: rules }, (_, n) => `Disallow: /*ab${n + 1}*x`)].join('\n');
    return evaluationCost(parseRobotsTxt(text), ['GPTBot'], [path]) <= EVALUATION_BUDGET;
  };
  let low = 1;
  let high = 200_000;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The heaviest tool calls a client can send within the published limits (docs/API.md §8; the
 * wildcard inputs of test/limits.test.ts, sized to stay under the work budget and the 512,000-byte body limit so that they are
 * run, not refused): as many wildcard rules as the budget allows against a 2,000-character
 * path, a file of unknown tokens for the "did you mean" search, and a file of unknown
 * directives for the linter.
 */
export function heaviestToolCalls(): WrkRequest[] {
  const longPath = '/' + 'ab'.repeat(1_000);
  const rules = rulesWithinBudget(longPath);
  return [
    robotsPost(`/tools/robots-allowed?ua=GPTBot&path=${encodeURIComponent(longPath)}`, rules + 1, (n) =>
      n === 0 ? 'User-agent: GPTBot' : `Disallow: /*ab${n}*x`,
    ),
    robotsPost('/tools/ai-access', 20_000, (n) => (n % 2 === 0 ? `User-agent: unknownbot${n}` : 'Disallow: /')),
    robotsPost('/tools/robots-lint', 40_000, (n) => `key${n}: x`),
  ];
}
