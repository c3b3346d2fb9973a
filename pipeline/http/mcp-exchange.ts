// One POST to an MCP server's path as plain data, so that it can be answered on another thread
// (http/mcp-answer.ts sends it, http/mcp.ts answerExchange answers it, node/tool-pool.ts carries
// it), and what comes back.

import type { ToolRun } from '../tools/registry/call.ts';
import type { Caller } from '../tools/registry/types.ts';

export interface McpExchange {
  /** The MCP server's path (tools/registry MCP_SERVERS). */
  server: string;
  url: string;
  method: string;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  caller: Caller;
  /** The served build's base URL, and the origin the answer names instead (http/served-build.ts, http/origin.ts). */
  baseUrl: string;
  origin?: string;
}

/** The answer to an exchange, as bytes. */
export interface McpReply {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

/** Why an exchange was not answered at all: busy, past the deadline, not ready, or a thread that ended. */
export type ExchangeNotRun = Extract<ToolRun, { status: 'unavailable' | 'failed' | 'refused' }>;

/** Where exchanges are answered: the tool threads (node/tool-pool.ts). */
export interface McpRunner {
  exchange(exchange: McpExchange): Promise<McpReply | ExchangeNotRun>;
}

export function isReply(answer: McpReply | ExchangeNotRun): answer is McpReply {
  return typeof answer.status === 'number';
}
