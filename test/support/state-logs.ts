import type { EventLog } from '../../pipeline/changes/types.ts';

/**
 * Two event logs of a few megabytes each, different in every event, so a write takes long
 * enough to be killed in the middle and any mix of the two is visible.
 */
export function loopLogs(): [EventLog, EventLog] {
  const log = (tag: string): EventLog => {
    const events = Array.from({ length: 6000 }, (_, i) => ({
      cursor: i + 1,
      kind: 'crawler.edited' as const,
      observed_at: '2026-01-01T00:00:00Z',
      subject: { type: 'crawler' as const, id: `${tag}-${i}`, url: `https://example.org/crawler/${tag}-${i}.json` },
      summary: `${tag} edit number ${i} of the durability test, padded so the file is large enough to be cut mid-write.`.repeat(4),
      fields: ['name'],
    }));
    return { head: events.length, oldest: 1, last_base: null, last_batch_start: null, events };
  };
  return [log('first'), log('second')];
}
