import type { ToolRun } from '../tools/registry/call.ts';
import { errorResponse } from './errors.ts';

type Unavailable = Extract<ToolRun, { status: 'unavailable' }>;

/** The error code an HTTP client sees for each reason a call was not run. */
const UNAVAILABLE_CODES: Readonly<Record<Unavailable['reason'], string>> = {
  deadline: 'tool_deadline',
  busy: 'busy',
  'not-ready': 'not_ready',
};

/** 503 with Retry-After: the call was not answered, and may be sent again unchanged. */
export function unavailableAnswer(run: Unavailable, headers: Record<string, string>): Response {
  return errorResponse(503, { code: UNAVAILABLE_CODES[run.reason], message: run.message }, { ...headers, 'retry-after': String(run.retryAfterSeconds) });
}
