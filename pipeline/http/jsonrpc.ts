import { errorResponse } from './errors.ts';

// JSON-RPC 2.0 plumbing shared by the MCP servers and the A2A endpoint.

/** The largest JSON-RPC body read, on /mcp* and /a2a alike. */
export const MAX_RPC_BODY_BYTES = 1024 * 1024;

/** JSON-RPC 2.0 error codes (section 5.1) used here. */
// -32000 is the first of JSON-RPC 2.0's implementation-defined server errors: used when the server, not the request, is why a call was not run.
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
} as const;

export type RpcId = string | number | null;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Arrays and objects nested deeper than this are refused before parsing (RFC 8259 section 9
 * lets a parser limit depth). No request of MCP or A2A needs more than a handful of levels,
 * and a value nested tens of thousands deep overflows the stack of every recursive walk that
 * follows (schema checks, the copy to a tool thread).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The most values a body may hold (object members and array items, counted by their `:` and `,`).
 * The largest call a tool takes is 500 addresses or log lines, and a robots.txt is one string;
 * JSON.parse and the schemas after it walk every value, so 60,000 names in 770 KB held the
 * event loop for 40 ms to parse and over 100 ms to validate (docs/API.md §4.6). Counted in the
 * scan that bounds the depth, which stops at the first value past the limit.
 */
export const MAX_JSON_VALUES = 4096;

/** What a scan of JSON text found past its bounds, or null within them. Brackets, colons and commas inside strings do not count. */
export function jsonBounds(text: string, depthLimit = MAX_JSON_DEPTH, valueLimit = MAX_JSON_VALUES): 'too-deep' | 'too-many-values' | null {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > depthLimit) return 'too-deep';
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if ((c === 0x3a || c === 0x2c) && ++values > valueLimit) return 'too-many-values';
  }
  return null;
}

/** Strict UTF-8 (RFC 8259 section 8.1), then JSON of at most MAX_JSON_DEPTH levels and MAX_JSON_VALUES values; never throws. */
export function parseJsonBody(bytes: Uint8Array, example: string): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { ok: false, message: 'Parse error: the body is not valid UTF-8. Send one JSON-RPC 2.0 request as UTF-8 JSON.' };
  }
  const past = jsonBounds(text);
  if (past === 'too-deep') {
    return {
      ok: false,
      message: `Parse error: the body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep. Send one JSON-RPC 2.0 request nested at most ${MAX_JSON_DEPTH} levels, e.g. ${example}.`,
    };
  }
  if (past === 'too-many-values') {
    return {
      ok: false,
      message: `Parse error: the body holds more than ${MAX_JSON_VALUES} values (object members and array items). Send one JSON-RPC 2.0 request with at most ${MAX_JSON_VALUES}, e.g. ${example}; a tool takes at most 500 items per list.`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, message: `Parse error: the body is not valid JSON. Send one JSON-RPC 2.0 request, e.g. ${example}.` };
  }
}

export function payloadTooLarge(limit = MAX_RPC_BODY_BYTES): Response {
  return errorResponse(413, {
    code: 'payload_too_large',
    message: `The request body is larger than ${limit} bytes; send at most ${limit} bytes of JSON-RPC.`,
    accepted: `a JSON-RPC 2.0 request of at most ${limit} bytes`,
  });
}

export function rpcErrorResponse(httpStatus: number, id: RpcId, code: number, message: string, data?: unknown): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error }), {
    status: httpStatus,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/** The id of a message when it is one a response may echo; null otherwise (JSON-RPC 2.0 section 5). */
export function echoId(message: unknown): RpcId {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const id = (message as Record<string, unknown>)['id'];
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/**
 * The JSON-RPC 2.0 envelope rules (section 4): the SDK transport reports every malformed
 * message as a parse error, so the envelope is checked here first and answered -32600.
 */
export function envelopeProblem(message: unknown): string | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return 'a JSON-RPC message must be an object';
  const m = message as Record<string, unknown>;
  if (m['jsonrpc'] !== '2.0') return '"jsonrpc" must be exactly "2.0"';
  const id = m['id'];
  if ('id' in m && !(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return '"id" must be a string or an integer';
  if ('method' in m) {
    if (typeof m['method'] !== 'string' || m['method'] === '') return '"method" must be a non-empty string';
    const params = m['params'];
    if ('params' in m && (params === null || typeof params !== 'object')) return '"params" must be an object';
    const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k));
    if (extra.length > 0) return `unexpected member "${extra[0]}"; a request has jsonrpc, id, method and params`;
    return null;
  }
  if ('result' in m || 'error' in m) return responseIsWellFormed(m) ? null : 'a malformed JSON-RPC response';
  return '"method" is missing';
}

/**
 * A response sent to the server (JSON-RPC 2.0 §5, as MCP shapes it): an id, and either a result
 * object or an error with an integer code and a string message, and no other member. Checked
 * here, not with the SDK's schema, so that the A2A endpoint, which shares this module, does not
 * load the SDK and its schema library when the server starts.
 */
function responseIsWellFormed(m: Record<string, unknown>): boolean {
  const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
  const only = (...members: string[]) => Object.keys(m).every((k) => members.includes(k));
  if ('result' in m) return 'id' in m && isObject(m['result']) && only('jsonrpc', 'id', 'result');
  const error = m['error'];
  return isObject(error) && Number.isInteger(error['code']) && typeof error['message'] === 'string' && only('jsonrpc', 'id', 'error');
}
