// The log's row for one answered request: what was asked, how it went, and how the request books.

import type { ToolData } from '../tools/registry/types.ts';
import { bookRequest } from '../tools/booking.ts';
import type { AddressHasher } from './salt.ts';
import { type AnsweredEntry, type LogEntry, USER_AGENT_LIMIT } from './types.ts';

export interface AnsweredRequest {
  at: number;
  method: string;
  status: number;
  bytes: number;
  durationMs: number;
  userAgent: string | null;
  address: string | null;
}

/**
 * The row of an answered request as the server hands it to the log, before it is booked.
 * `route` is the request's route template (http/route-template.ts), never the raw path and query.
 */
export function answeredEntry(request: AnsweredRequest, route: string, hasher: AddressHasher): AnsweredEntry {
  return {
    at: request.at,
    method: request.method,
    route,
    status: request.status,
    bytes: request.bytes,
    duration_ms: Math.round(request.durationMs * 1000) / 1000,
    address: request.address,
    address_hash: request.address === null ? null : hasher.hash(request.address, request.at),
    user_agent: request.userAgent,
  };
}

/**
 * The log's row: the answered request booked with `data`, the tools' data of the build being
 * served (null: none, and nobody is named). The lists' copies are judged current or too old
 * as of the request's time.
 */
export function bookedEntry(entry: AnsweredEntry, data: ToolData | null): LogEntry {
  const booking = bookRequest(data, entry.user_agent, entry.address, entry.at);
  return {
    at: entry.at,
    method: entry.method,
    route: entry.route,
    status: entry.status,
    bytes: entry.bytes,
    duration_ms: entry.duration_ms,
    crawler: booking.crawler,
    category: booking.category,
    verdict: booking.verdict,
    address_hash: entry.address_hash,
    user_agent: entry.user_agent === null ? null : entry.user_agent.slice(0, USER_AGENT_LIMIT),
  };
}
