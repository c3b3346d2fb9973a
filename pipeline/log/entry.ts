// The log's row for one answered request: what was asked, how it went, and how the request books.

import type { ToolData } from '../tools/registry/types.ts';
import { bookRequest } from '../tools/booking.ts';
import type { AddressHasher } from './salt.ts';
import { type LogEntry, USER_AGENT_LIMIT } from './types.ts';

export interface AnsweredRequest {
  at: number;
  method: string;
  status: number;
  bytes: number;
  durationMs: number;
  userAgent: string | null;
  address: string | null;
}

/** `route` is the request's route template (http/route-template.ts), never the raw path and query. */
export function logEntry(request: AnsweredRequest, route: string, data: ToolData | null, hasher: AddressHasher): LogEntry {
  const booking = bookRequest(data, request.userAgent, request.address);
  return {
    at: request.at,
    method: request.method,
    route,
    status: request.status,
    bytes: request.bytes,
    duration_ms: Math.round(request.durationMs * 1000) / 1000,
    crawler: booking.crawler,
    category: booking.category,
    verdict: booking.verdict,
    address_hash: request.address === null ? null : hasher.hash(request.address, request.at),
    user_agent: request.userAgent === null ? null : request.userAgent.slice(0, USER_AGENT_LIMIT),
  };
}
