import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { toolByName, type ToolDefinition } from '../tools/registry/index.ts';
import type { ToolRun } from '../tools/registry/call.ts';
import type { CallContext } from '../tools/registry/runner.ts';
import { toolCallAnswerFrame } from '../tools/registry/tool-call-answer.ts';
import { inputSchema } from '../tools/registry/input.ts';
import { ANSWER_FORM } from '../tools/registry/limits.ts';
import { readBody } from './body.ts';
import { relocationOf } from './answer-size.ts';
import type { Answerer } from './answer-context.ts';
import { withMissingHeaders } from './security.ts';
import { bytesResponse } from './document-answer.ts';
import { answerBuffers } from '../util/answer-buffers.ts';
import { mcpServer, type McpServerSpec, startToolCall, withBodyEtag, withRelocatedBody } from './tool-call.ts';
import { relocate, type Relocation } from '../util/relocate.ts';
import { etagOfWeb } from '../util/etag-rule.ts';
import { echoId, envelopeProblem, MAX_RPC_BODY_BYTES, parseJsonBody, payloadTooLarge, RPC, rpcErrorResponse, type RpcId } from './jsonrpc.ts';

// The MCP servers of docs/API.md §4.6: stateless Streamable HTTP with JSON answers, so every POST
// is complete in itself and any instance (or edge runtime) can answer it. The low-level
// `Server` is used rather than McpServer so that the registry's JSON Schemas are sent as
// they are instead of being rebuilt from zod.

const SERVER_VERSION = '1.0.0';

// A Server made without one builds its own Ajv instance, which cost more than the whole
// classify call it serves (a Server is made per stateless request). One is shared: it holds
// no per-request state.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** An error the SDK's Protocol turns into a JSON-RPC error object with this code (McpError would prefix the message). */
class RpcError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

function toolsOf(server: McpServerSpec): ToolDefinition[] {
  return server.tools.map((name) => {
    const tool = toolByName(name);
    if (!tool) throw new Error(`MCP server ${server.path} names tool "${name}", which is not in the registry`);
    return tool;
  });
}

function describeTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema(tool),
    outputSchema: tool.outputSchema,
    // Every tool reads the published index and changes nothing.
    annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid params';
  return `${issue.path.length > 0 ? issue.path.join('.') : 'params'}: ${issue.message}`;
}

const utf8 = new TextEncoder();

/**
 * A tools/call answer made as bytes on the tool's thread (the `serialized` form,
 * tools/registry/tool-call-answer.ts). The SDK writes its JSON-RPC answer around two
 * placeholders named by a random token, which no input can contain. When that answer has the
 * layout the thread wrote, the thread's bytes and ETag are sent as they are; otherwise the
 * output's bytes take the placeholders' places (spliceOutput). So the thread that answers
 * every request never copies the output as a value, serialises it, reads it back or hashes
 * it: for 500 addresses that was most of a call's time there.
 */
export interface SerializedOutput {
  token: string;
  id: RpcId;
  run: Extract<ToolRun, { form: 'serialized' }>;
}

/** What stands in the result for the output until it is spliced in: as a text, and as structuredContent. */
const placeholders = (token: string) => ({ text: `${token}-text`, json: { [`${token}-json`]: 0 } });
/** The placeholders as the SDK writes them (JSON.stringify, as it serialises the whole answer). */
const marks = (token: string) => ({ text: JSON.stringify(placeholders(token).text), json: JSON.stringify(placeholders(token).json) });

async function callTool(
  server: McpServerSpec,
  tools: readonly ToolDefinition[],
  context: CallContext,
  request: z.infer<typeof CallToolRequestSchema>,
  id: RpcId,
  made: (output: SerializedOutput) => void,
) {
  const { name, arguments: args } = request.params;
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    throw new RpcError(RPC.invalidParams, `Unknown tool "${name}". ${server.path} has: ${server.tools.join(', ')}.`, { field: 'name', accepted: server.tools });
  }
  const relocation = relocationOf(context);
  const run = await context.runner.run({
    tool: tool.name,
    params: args ?? {},
    caller: context.caller,
    form: 'serialized',
    answerId: id,
    ...(relocation ? { relocation } : {}),
  });
  // Everything a model can act on is a tool result it reads (isError), not a JSON-RPC error its
  // client may swallow (SEP-1303, protocol 2025-11-25): bad arguments, an answer too large, a fault.
  const toolError = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });
  switch (run.status) {
    case 'answered': {
      if (run.form !== 'serialized') throw new Error(`${tool.name}: the runner answered in the ${run.form} form, not serialized`);
      const token = crypto.randomUUID();
      const stand = placeholders(token);
      // The summary for reading, and the whole result serialised for clients that ignore structuredContent (MCP 2025-06-18, "Structured Content").
      const result = {
        content: [
          { type: 'text' as const, text: run.summary },
          { type: 'text' as const, text: stand.text },
        ],
        structuredContent: stand.json,
      };
      // The thread held the whole answer, relocated, to the size limit (a spliced one differs by a few bytes at most).
      made({ token, id, run });
      return result;
    }
    case 'failed':
      return toolError(`${tool.name} failed on this input: ${run.message}`);
    case 'refused':
      return toolError(`Invalid argument "${run.field}" for ${tool.name}: ${run.message} Accepted: ${run.accepted}. Correct it and call ${tool.name} again.`);
    case 'too-large':
      return toolError(`${tool.name}: ${run.message} Accepted: ${ANSWER_FORM}. Ask for less per call.`);
    case 'unavailable':
      // The server's condition, not the caller's input: JSON-RPC's implementation-defined server error.
      throw new RpcError(RPC.serverError, `${tool.name}: ${run.message}`, { reason: run.reason, retry_after_seconds: run.retryAfterSeconds });
  }
}

/** The buffers of spliced answers already sent, written into again (util/answer-buffers.ts). */
const splicedBuffers = answerBuffers();

/**
 * The answer to send for the SDK's: the thread's bytes and ETag when the SDK wrote the layout
 * they were written in; else the SDK's answer, relocated, with the output's bytes in the places
 * of its placeholders and tagged here. The thread's buffer goes back to `release` once sent,
 * or once copied; a spliced answer's is kept for the next once it is sent.
 */
export async function spliceOutput(
  response: Response,
  output: SerializedOutput,
  relocation: Relocation | undefined,
  release: (sent: readonly Uint8Array[]) => void,
): Promise<Response> {
  const text = await response.text();
  const { run } = output;
  const marked = marks(output.token);
  const headers = new Headers(response.headers);
  const init = { status: response.status, statusText: response.statusText, headers };
  const [before, between, after] = toolCallAnswerFrame(run.summary, output.id);
  if (text === before + marked.text + between + marked.json + after) {
    headers.set('content-length', String(run.answer.length));
    headers.set('etag', `"${run.etag}"`);
    return bytesResponse(run.answer, init, () => release([run.answer]));
  }
  const envelope = relocation === undefined ? text : relocate(text, relocation.from, relocation.to);
  const places = [
    { mark: marked.text, bytes: run.jsonString },
    { mark: marked.json, bytes: run.json },
  ]
    .map((place) => ({ ...place, at: envelope.indexOf(place.mark) }))
    .sort((a, b) => a.at - b.at);
  if (places.some((place) => place.at === -1)) throw new Error('the MCP SDK answered a tools/call without the placeholders of its output');
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const { mark, bytes, at } of places) {
    parts.push(utf8.encode(envelope.slice(from, at)), bytes);
    from = at + mark.length;
  }
  parts.push(utf8.encode(envelope.slice(from)));
  const body = splicedBuffers.take(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  release([run.answer]);
  headers.set('content-length', String(body.length));
  headers.set('etag', `"${await etagOfWeb(body)}"`);
  return bytesResponse(body, init, () => splicedBuffers.keep([body.buffer]));
}

function buildServer(server: McpServerSpec, context: CallContext, made: (output: SerializedOutput) => void): Server {
  const tools = toolsOf(server);
  const mcp = new Server(
    { name: server.name, version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: server.description, jsonSchemaValidator },
  );
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(describeTool) }));
  mcp.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(server, tools, context, request, extra.requestId, made));
  return mcp;
}

// What the server answers. The SDK would answer any other method -32601 without naming these,
// and would report params its schemas refuse as -32603 (initialize) or with a schema dump.
const METHODS: Readonly<Record<string, { schema: z.ZodType; form: string }>> = {
  initialize: {
    schema: InitializeRequestSchema,
    form: '{"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "...", "version": "..."}}',
  },
  ping: { schema: PingRequestSchema, form: 'no params' },
  'tools/list': { schema: ListToolsRequestSchema, form: 'no params (this server lists every tool on one page)' },
  'tools/call': { schema: CallToolRequestSchema, form: '{"name": "<tool>", "arguments": {...}}' },
};

/** The answer to a request this server cannot run: an unknown method or params its schema refuses. */
function requestProblem(message: unknown): { id: RpcId; code: number; message: string; data?: unknown } | null {
  const m = message as { id?: unknown; method?: unknown };
  // Notifications and responses get no answer (JSON-RPC 2.0 section 4.1).
  if (typeof m.method !== 'string' || !('id' in m)) return null;
  // Own members only: "constructor" or "__proto__" is a method name a client can send, and
  // every object inherits one of that name.
  const known = Object.hasOwn(METHODS, m.method) ? METHODS[m.method] : undefined;
  if (!known) {
    return {
      id: echoId(message),
      code: RPC.methodNotFound,
      message: `Method not found: "${m.method}". This server answers ${Object.keys(METHODS).join(', ')}.`,
      data: { accepted: Object.keys(METHODS) },
    };
  }
  const parsed = known.schema.safeParse(message);
  if (!parsed.success) {
    return {
      id: echoId(message),
      code: RPC.invalidParams,
      message: `Invalid params for ${m.method} (${firstIssue(parsed.error)}). Accepted: ${known.form}.`,
      data: { accepted: known.form },
    };
  }
  return null;
}

const NO_STORE = { 'cache-control': 'no-store' } as const;

const BATCH_REFUSED =
  'Invalid Request: JSON-RPC batches (a JSON array) are not accepted; MCP 2025-06-18 and later have no batching. Send one JSON-RPC request per POST.';

/**
 * One POST to an MCP server path. The SDK transport checks Accept and Content-Type (406,
 * 415) and answers the protocol; this function adds what it lacks: the body limit (413),
 * strict UTF-8, -32600 for malformed envelopes and -32602 for bad params; and it sends every
 * answer with the client's origin in its addresses and the ETag of its bytes.
 */
export async function handleMcp(request: Request, server: McpServerSpec, context: CallContext): Promise<Response> {
  const { answer, output } = await answerOf(request, server, context);
  const relocation = relocationOf(context);
  if (output !== null) return spliceOutput(answer, output, relocation, (sent) => context.runner.release?.(sent));
  return withBodyEtag(relocation === undefined ? answer : await withRelocatedBody(answer, relocation.from, relocation.to));
}

/** The answer to one POST as the checks or the SDK give it, and the output that waits to be spliced into it. */
async function answerOf(request: Request, server: McpServerSpec, context: CallContext): Promise<{ answer: Response; output: SerializedOutput | null }> {
  const refuse = (answer: Response) => ({ answer, output: null });
  const body = await readBody(request, MAX_RPC_BODY_BYTES);
  if (!body.ok) return refuse(payloadTooLarge());
  const parsed = parseJsonBody(body.bytes, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  if (!parsed.ok) return refuse(rpcErrorResponse(400, null, RPC.parseError, parsed.message));

  // MCP 2025-06-18 removed JSON-RPC batching: one POST is one message, so one call's work
  // and one answer's size bound what a request costs.
  if (Array.isArray(parsed.value)) return refuse(rpcErrorResponse(400, null, RPC.invalidRequest, BATCH_REFUSED));
  const message = parsed.value;
  const envelope = envelopeProblem(message);
  if (envelope) return refuse(rpcErrorResponse(400, echoId(message), RPC.invalidRequest, `Invalid Request: ${envelope}.`));
  // What remains for the SDK's schema to refuse is the content of params.
  if (!JSONRPCMessageSchema.safeParse(message).success) {
    const params = (message as { params?: unknown }).params;
    const why = Array.isArray(params) ? '"params" must be an object of named parameters, not an array' : '"params" does not fit the MCP schema of this message';
    return refuse(rpcErrorResponse(200, echoId(message), RPC.invalidParams, `Invalid params: ${why}.`));
  }
  const problem = requestProblem(message);
  if (problem) return refuse(rpcErrorResponse(200, problem.id, problem.code, problem.message, problem.data));

  // One POST carries one call (no batches), so at most one output waits to be spliced in.
  let output: SerializedOutput | null = null;
  const mcp = buildServer(server, context, (made) => {
    output = made;
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await mcp.connect(transport);
  try {
    // The SDK's answers (results, 202, 406, 415) say nothing of caching; every JSON-RPC answer here is no-store (docs/API.md §5.4).
    return { answer: withMissingHeaders(await transport.handleRequest(request, { parsedBody: parsed.value }), NO_STORE), output };
  } finally {
    await mcp.close();
  }
}

/** POST to an MCP server's path: loaded on the first such request (handler.ts), since the SDK and its schema library are a fifth of a cold start. */
export const answerMcp: Answerer<'mcp'> = async (how, asked, service) => {
  const context = await startToolCall(how, asked, service);
  if (context instanceof Response) return context;
  return withMissingHeaders(await handleMcp(asked.request, mcpServer(how.server), context), asked.headers);
};
