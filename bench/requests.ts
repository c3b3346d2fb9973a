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

const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/** A stateless MCP tools/call to `server` (an MCP path), with the headers the Streamable HTTP transport requires. */
function mcpCall(server: string, tool: string, args: Record<string, unknown>): WrkRequest {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } });
  return { method: 'POST', path: server, headers: JSON_RPC_HEADERS, body };
}

export function mcpClassify(): WrkRequest {
  return mcpCall('/mcp', 'classify_user_agent', { ua: GPTBOT_UA });
}

/** verify_batch on the netcheck server: `addresses` for the User-Agent GPTBot sends. */
export function mcpVerify(addresses: readonly string[]): WrkRequest {
  return mcpCall('/netcheck/mcp', 'verify_batch', { ua: GPTBOT_UA, ip: addresses });
}

/** check_path_allowed on the robots server over a small real-shaped robots.txt. */
export function mcpPathAllowed(): WrkRequest {
  const robots = 'User-agent: GPTBot\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: *\nDisallow: /search\n';
  return mcpCall('/robots/mcp', 'check_path_allowed', { ua: 'GPTBot', path: ['/', '/private/x', '/private/press/y', '/search'], robots_txt: robots });
}

/** An A2A message/send whose data part names the classify skill. */
export function a2aClassify(): WrkRequest {
  const message = { role: 'user', messageId: 'bench', parts: [{ kind: 'data', data: { skill: 'classify_user_agent', input: { ua: GPTBOT_UA } } }] };
  return {
    method: 'POST',
    path: '/a2a',
    headers: JSON_RPC_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message } }),
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
