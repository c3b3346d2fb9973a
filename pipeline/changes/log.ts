import type { ChangeEvent, EventLog } from './types.ts';
import { rangesChanged, type PendingEvent } from './diff.ts';

export interface Retention {
  /** At most this many events are kept. */
  maxEvents: number;
  /** Events observed longer ago than this are dropped. */
  maxAgeDays: number;
}

// A client polling every six hours needs a few events per refresh; 2,000 events and 400 days
// cover more than a year of real change while keeping /changes/log.json small.
export const DEFAULT_RETENTION: Retention = { maxEvents: 2000, maxAgeDays: 400 };

const identity = (event: PendingEvent | ChangeEvent) =>
  JSON.stringify([event.kind, event.subject.id, event.added, event.removed, event.added_count, event.removed_count, event.fields, event.error]);

/**
 * The log with every ranges.changed event in the bounded shape (docs/API.md §3). Events recorded
 * before the bound listed every prefix; they keep their cursor, time and summary, and get exact
 * counts and the sample, as if recorded today. Events already bounded are returned as they are.
 */
export function boundRangesEvents(log: EventLog, history: (id: string) => string): EventLog {
  if (!log.events.some((e) => e.kind === 'ranges.changed' && e.added_count === undefined)) return log;
  const events = log.events.map((event): ChangeEvent => {
    if (event.kind !== 'ranges.changed' || event.added_count !== undefined) return event;
    const none = { ipv4: [], ipv6: [] };
    const bounded = rangesChanged(event.subject, event.added ?? none, event.removed ?? none, { url: event.subject.url, history: history(event.subject.id) });
    return { cursor: event.cursor, observed_at: event.observed_at, ...bounded, summary: event.summary };
  });
  return { ...log, events };
}

/**
 * Records the events found by diffing against `base` (the commit the published tree came
 * from). Re-running on the same base replaces the newest batch instead of appending it a
 * second time, so a refresh that crashed before its commit never duplicates events; an
 * event already in that batch keeps its observation time.
 */
export function recordBatch(log: EventLog, base: string, pending: readonly PendingEvent[], now: string, retention: Retention = DEFAULT_RETENTION): EventLog {
  let events = log.events;
  let start = log.head + 1;
  let replaced: ChangeEvent[] = [];
  if (log.last_base === base && log.last_batch_start !== null) {
    start = log.last_batch_start;
    replaced = events.filter((e) => e.cursor >= start);
    events = events.filter((e) => e.cursor < start);
  }
  if (pending.length === 0 && replaced.length === 0) return retain(log, now, retention);
  const seen = new Map(replaced.map((e) => [identity(e), e.observed_at]));
  const batch = pending.map((event, index): ChangeEvent => ({ cursor: start + index, observed_at: seen.get(identity(event)) ?? now, ...event }));
  const head = batch.length > 0 ? start + batch.length - 1 : start - 1;
  return retain(
    { head, oldest: log.oldest, last_base: base, last_batch_start: batch.length > 0 ? start : null, events: [...events, ...batch] },
    now,
    retention,
  );
}

function retain(log: EventLog, now: string, retention: Retention): EventLog {
  const cutoff = Date.parse(now) - retention.maxAgeDays * 86_400_000;
  let events = log.events.filter((e) => Date.parse(e.observed_at) >= cutoff);
  if (events.length > retention.maxEvents) events = events.slice(events.length - retention.maxEvents);
  const oldest = events[0]?.cursor ?? log.head + 1;
  const lastBatchStart = log.last_batch_start !== null && log.last_batch_start >= oldest ? log.last_batch_start : null;
  return { ...log, oldest, last_batch_start: lastBatchStart, events };
}
