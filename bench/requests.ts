// What each row sends. Plain data: the same request goes to the probe and to wrk.
import type { WrkRequest } from './wrk.ts';

export const SMALL_DOCUMENT = '/crawler/gptbot.json';
export const LARGE_DOCUMENT = '/data/agents.json';

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
