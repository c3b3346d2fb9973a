import { LogBusy } from '../log/types.ts';
import type { Answer } from '../routes.ts';
import type { CallContext } from '../tools/registry/runner.ts';
import { MCP_SERVERS, TOOLS, toolByName } from '../tools/registry/index.ts';
import type { CallerHistory } from '../tools/registry/types.ts';
import { etagOfWeb } from '../util/etag-rule.ts';
import type { Asked, Service } from './answer-context.ts';
import { errorResponse } from './errors.ts';
import { bytesResponse } from './document-answer.ts';
import { relocate } from '../util/relocate.ts';
import type { Visits } from './request-log.ts';
import { servedBuild } from './served-build.ts';

// What a tool call needs before it runs, whichever way it came (a tool's endpoint, MCP, A2A):
// the served build's base URL, the caller, what the request log knows of the caller, and the
// runner that holds the tools' data (http/served-build.ts says why this thread holds none).

export type McpServerSpec = (typeof MCP_SERVERS)[number];

type ToolAnswer = Extract<Answer, { by: 'tool' | 'mcp' | 'a2a' }>;

/** The context of a call, or the 503 that says the published tree cannot answer tools. */
export async function startToolCall(
  how: ToolAnswer,
  { request, headers, here }: Asked,
  { store, runner, visits, addressOf }: Service,
): Promise<CallContext | Response> {
  const build = await servedBuild(store);
  if (!build) return errorResponse(503, { code: 'not_ready', message: 'The published tree lacks the documents the tools read; rebuild dist/.' }, headers);
  const address = addressOf(request);
  // The log is asked only where a tool that reads the answer can be called: a round trip
  // to its thread for every robots.txt audit would be work for nothing.
  const history = toolsAt(how).some((name) => toolByName(name)?.readsCallerHistory) ? await historyOf(visits, address) : undefined;
  const signatureHeaders = {
    signature: request.headers.get('signature'),
    signatureInput: request.headers.get('signature-input'),
    signatureAgent: request.headers.get('signature-agent'),
  };
  const caller = { userAgent: request.headers.get('user-agent'), address, signatureHeaders, ...(history === undefined ? {} : { history }) };
  return { caller, runner, baseUrl: build.baseUrl, origin: here.base_url };
}

export function mcpServer(path: string): McpServerSpec {
  const server = MCP_SERVERS.find((s) => s.path === path);
  if (server === undefined) throw new Error(`the route table names MCP server ${path}, which MCP_SERVERS lacks`);
  return server;
}

/** The tools a dynamic route can call: its own, an MCP server's, or (A2A) every one. */
function toolsAt(how: ToolAnswer): readonly string[] {
  if (how.by === 'tool') return [how.tool];
  if (how.by === 'mcp') return mcpServer(how.server).tools;
  return TOOLS.map((tool) => tool.name);
}

/** What the log knows of an address before this request (which is recorded once answered). */
async function historyOf(visits: Visits, address: string | null): Promise<CallerHistory> {
  const health = visits.log.health();
  if (health.state !== 'ok' || address === null) return { log: health.state, reason: health.reason, visitor: null };
  const now = visits.now?.() ?? Date.now();
  try {
    return { log: 'ok', reason: null, visitor: await visits.log.visitor(visits.hashAddress(address, now)) };
  } catch (error) {
    if (!(error instanceof LogBusy)) throw error;
    return { log: 'unavailable', reason: error.message, visitor: null };
  }
}

/**
 * Every answer with a body carries an ETag (docs/API.md §5.2). A JSON-RPC answer is computed
 * per call, so its tag is taken over the bytes it sends (it still tells a client whether two
 * answers are the same); a stream (an SSE answer) or an empty body keeps none.
 */
export async function withBodyEtag(response: Response): Promise<Response> {
  if (response.headers.has('etag') || !response.headers.get('content-type')?.startsWith('application/json') || response.body === null) return response;
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set('etag', `"${await etagOfWeb(bytes)}"`);
  return bytesResponse(bytes, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A JSON-RPC answer (or its event stream) with the build's base URL replaced by the client's
 * origin, as a tool's HTTP answer is (http/origin.ts); bounded by the JSON-RPC answer limit.
 */
export async function withRelocatedBody(response: Response, from: string, to: string): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (from === to || response.body === null || !/^(application\/json|text\/event-stream)/.test(type)) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(relocate(text, from, to), { status: response.status, statusText: response.statusText, headers });
}
