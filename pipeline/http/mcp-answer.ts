// A POST to an MCP server's path where the tools run on threads of their own (docs/API.md §4.6,
// §8.1): the whole exchange runs there. The body is handed over with the caller, and the
// JSON-RPC answer comes back as bytes (http/mcp.ts answerExchange). So the MCP SDK, its schemas
// and its work per POST stay off the thread that reads requests, and its loading (a tenth to a
// fifth of a second) holds no client. Without such threads, http/mcp.ts answers in place.

import type { Answerer, Asked, Service } from './answer-context.ts';
import { readBody } from './body.ts';
import { bytesResponse } from './document-answer.ts';
import { MAX_RPC_BODY_BYTES, parseJsonBody, payloadTooLarge, RPC, rpcErrorResponse, echoId } from './jsonrpc.ts';
import { withMissingHeaders } from './security.ts';
import { startToolCall, withBodyEtag } from './tool-call.ts';
import { type ExchangeNotRun, isReply, type McpExchange, type McpRunner } from './mcp-exchange.ts';

/**
 * The JSON-RPC error for an exchange no thread answered. The request's id and tool are read
 * from its body here, as a thread would have (the body is within the limit, and the parse is
 * bounded: http/jsonrpc.ts), so the client can match the error to its call.
 */
export function notAnswered(body: Uint8Array, run: ExchangeNotRun): Response {
  const parsed = parseJsonBody(body, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  const message = parsed.ok ? parsed.value : null;
  const params = message !== null && typeof message === 'object' && !Array.isArray(message) ? (message as { params?: unknown }).params : undefined;
  const name = params !== null && typeof params === 'object' ? (params as { name?: unknown }).name : undefined;
  const about = typeof name === 'string' ? `${name}: ` : '';
  const id = echoId(message);
  switch (run.status) {
    case 'unavailable':
      return rpcErrorResponse(200, id, RPC.serverError, `${about}${run.message}`, { reason: run.reason, retry_after_seconds: run.retryAfterSeconds });
    case 'refused':
      return rpcErrorResponse(200, id, RPC.invalidParams, `${about}${run.message} Accepted: ${run.accepted}.`, { field: run.field, accepted: run.accepted });
    case 'failed':
      return rpcErrorResponse(200, id, RPC.internalError, `${about}${run.message}`);
  }
}

/** POST to an MCP server's path, answered by `mcp`'s threads. */
export async function answerMcpOnThreads(how: Parameters<Answerer<'mcp'>>[0], asked: Asked, service: Service, mcp: McpRunner): Promise<Response> {
  const context = await startToolCall(how, asked, service);
  if (context instanceof Response) return context;
  const body = await readBody(asked.request, MAX_RPC_BODY_BYTES);
  if (!body.ok) return withMissingHeaders(await withBodyEtag(payloadTooLarge()), asked.headers);
  const exchange: McpExchange = {
    server: how.server,
    url: asked.request.url,
    method: asked.request.method,
    headers: [...asked.request.headers],
    // Copied to the thread, not moved: one that cannot answer leaves the error to be written here, with the request's id.
    body: body.bytes,
    caller: context.caller,
    baseUrl: context.baseUrl,
    ...(context.origin === undefined ? {} : { origin: context.origin }),
  };
  const reply = await mcp.exchange(exchange);
  if (!isReply(reply)) return withMissingHeaders(await withBodyEtag(notAnswered(body.bytes, reply)), asked.headers);
  const sent = reply.body;
  // The bytes were written on a tool thread, which takes their memory back once they are sent.
  return withMissingHeaders(
    bytesResponse(sent, { status: reply.status, statusText: reply.statusText, headers: reply.headers }, () => service.runner.release?.([sent])),
    asked.headers,
  );
}
