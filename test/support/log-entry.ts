// Test support: one request-log row with test defaults; a test says only what it is about.
import type { AnsweredEntry, LogEntry } from '../../pipeline/log/types.ts';

export const LOG_TIME = Date.UTC(2026, 10, 25, 12);

/** What a row and an answered request share: the request and how it went. */
const REQUEST = {
  at: LOG_TIME,
  method: 'GET',
  route: '/data/agents.json',
  status: 200,
  bytes: 10,
  duration_ms: 1,
  address_hash: 'cafe',
  user_agent: null,
} as const satisfies Partial<LogEntry & AnsweredEntry>;

export function logEntry(fields: Partial<LogEntry> = {}): LogEntry {
  return { ...REQUEST, crawler: null, category: null, verdict: null, ...fields };
}

/** One answered request as the server hands it to the log, before its thread books it. */
export function answeredLogEntry(fields: Partial<AnsweredEntry> = {}): AnsweredEntry {
  return { ...REQUEST, address: '192.0.2.1', ...fields };
}
