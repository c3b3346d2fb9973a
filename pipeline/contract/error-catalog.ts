// Every status the service answers and every error code it writes, once: the reference, the
// OpenAPI description and llms-full.txt list them from here. A code used in an answer but
// missing here fails a test (test/reference.test.ts).

import { href } from '../paths.ts';

/** The largest request head (request line with its URL, and headers) the server reads: Node's default, 16 KiB. */
export const REQUEST_HEAD_BYTES = 16_384;

/**
 * Refusals every path can give before routing: the server reads the request head first, so
 * each operation and each tool's specification lists them beside its own statuses.
 */
export const TRANSPORT_REFUSALS: readonly number[] = [408, 431];

export interface StatusMeaning {
  status: number;
  meaning: string;
}

export interface ErrorCode {
  status: number;
  code: string;
  when: string;
}

export const STATUSES: readonly StatusMeaning[] = [
  { status: 200, meaning: 'The document or the answer' },
  { status: 204, meaning: 'OPTIONS: the methods and CORS headers of the path; no body' },
  { status: 304, meaning: 'Not modified: the If-None-Match or If-Modified-Since you sent still matches; no body' },
  { status: 400, meaning: 'Invalid input; the body names the field and the accepted form' },
  { status: 401, meaning: `${href('hits')} without its export key; the only 401 of the service` },
  { status: 404, meaning: 'No document at this path; for a parameterised path, where the valid values are listed' },
  { status: 405, meaning: 'A method the path does not accept; see the Allow header' },
  { status: 406, meaning: 'MCP only: Accept lacks application/json and text/event-stream' },
  { status: 408, meaning: 'The request did not arrive in time' },
  { status: 413, meaning: 'The request body is larger than the path accepts' },
  { status: 415, meaning: 'MCP only: the body is not JSON' },
  { status: 417, meaning: 'An Expect header other than 100-continue' },
  {
    status: 431,
    meaning: `The request head (URL and headers) is larger than 16 KiB (${REQUEST_HEAD_BYTES} bytes); send long input (a robots.txt, long paths) in a POST body`,
  },
  { status: 500, meaning: 'The server failed on this request; it is logged' },
  { status: 503, meaning: 'The call was not run (past its deadline, the server busy, or its data not loaded); send it again after Retry-After' },
];

export const ERROR_CODES: readonly ErrorCode[] = [
  {
    status: 400,
    code: 'invalid_parameter',
    when: 'a parameter is missing, unknown, repeated, malformed or over a limit; a robots.txt evaluation over its work budget',
  },
  { status: 400, code: 'answer_too_large', when: 'a tool answer would be larger than 4 MiB; nothing is sent' },
  { status: 400, code: 'bad_request', when: 'the request is not valid HTTP/1.1, or has no Host header (HTTP/1.1) or more than one' },
  { status: 400, code: 'bad_request_target', when: 'the request target is not origin-form, absolute-form, or * with OPTIONS' },
  { status: 400, code: 'bad_method', when: 'the method is not an HTTP method the parser knows' },
  { status: 401, code: 'export_key_required', when: `${href('hits')} without the export key, with a wrong one, or on a server with no EXPORT_KEY` },
  { status: 404, code: 'not_found', when: 'no document at the path' },
  { status: 405, code: 'method_not_allowed', when: 'the path does not accept the method; the Allow header lists those it does' },
  { status: 408, code: 'request_timeout', when: 'the request head or body did not arrive in time' },
  { status: 413, code: 'payload_too_large', when: 'a tool POST body over 512,000 bytes, or an MCP or A2A body over 1 MiB' },
  { status: 417, code: 'expectation_failed', when: 'an Expect header other than 100-continue' },
  {
    status: 431,
    code: 'headers_too_large',
    when: `the request head (URL and headers) is larger than ${REQUEST_HEAD_BYTES} bytes, such as a GET carrying a long robots.txt or path`,
  },
  { status: 500, code: 'internal_error', when: 'the server or a tool failed; try again or report the URL' },
  { status: 503, code: 'tool_deadline', when: 'the tool call ran past its deadline and was stopped (Retry-After: 1)' },
  { status: 503, code: 'busy', when: "too many tool calls are waiting in the call's lane, small or large (Retry-After: 1)" },
  {
    status: 503,
    code: 'not_ready',
    when: "the published tree lacks the documents the tools read, or building the tools' data for it took too long (Retry-After: 60)",
  },
  { status: 503, code: 'log_busy', when: `${href('hits')}: the request log did not answer in time (Retry-After: 5)` },
];

const meanings = new Map(STATUSES.map((s) => [s.status, s.meaning]));

/** What a status means in this service; a status missing from the table is a programming error. */
export function statusMeaning(status: number): string {
  const meaning = meanings.get(status);
  if (meaning === undefined) throw new Error(`status ${status} is not in the error catalogue`);
  return meaning;
}
