import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { logEntry as entry, LOG_TIME } from '../../test/support/log-entry.ts';
import { memoryLog } from '../../test/support/memory-log.ts';
import { LISTED_CRAWLERS, statsDocument } from './stats.ts';

const T = LOG_TIME;

test('the aggregate sums by day, route, status and category, and says what the addresses of crawler visits showed', async () => {
  const log = memoryLog();
  log.record(entry());
  log.record(entry({ at: T - 86_400_000, status: 304, bytes: 0 }));
  log.record(entry({ route: '/crawler/{slug}.json', crawler: 'gptbot', category: 'ai-training', verdict: 'genuine' }));
  log.record(entry({ route: '/crawler/{slug}.json', crawler: 'gptbot', category: 'ai-training', verdict: 'not-genuine' }));
  log.record(entry({ crawler: 'bytespider', category: 'ai-training', verdict: 'unverifiable' }));
  const stats = statsDocument(await log.daily('2026-11-01'), log.health(), '2026-11-01', '2026-11-25T12:00:00Z');
  assert.deepEqual(stats.totals, { requests: 5, bytes: 40 });
  assert.deepEqual(stats.by_day, [
    { day: '2026-11-24', requests: 1, bytes: 0 },
    { day: '2026-11-25', requests: 4, bytes: 40 },
  ]);
  assert.deepEqual(stats.by_route, { '/crawler/{slug}.json': 2, '/data/agents.json': 3 });
  assert.deepEqual(stats.by_status, { '200': 4, '304': 1 });
  assert.deepEqual(stats.by_category, { 'ai-training': 3 });
  assert.deepEqual(stats.crawler_visits, { claimed: 3, genuine: 1, 'operator-network': 0, 'not-genuine': 1, unverifiable: 1 });
  assert.deepEqual(
    stats.by_crawler.map((c) => [c.slug, c.requests, c.genuine]),
    [
      ['gptbot', 2, 1],
      ['bytespider', 1, 0],
    ],
  );
  assert.match(stats.log.note, /never stored/);
});

test('crawlers past the listed number are summed, not listed', async () => {
  const log = memoryLog();
  for (let i = 0; i <= LISTED_CRAWLERS + 4; i++)
    log.record(entry({ crawler: `bot-${String(i).padStart(3, '0')}`, category: 'seo-tool', verdict: 'unverifiable' }));
  const stats = statsDocument(await log.daily('2026-11-01'), log.health(), '2026-11-01', '2026-11-25T12:00:00Z');
  assert.equal(stats.by_crawler.length, LISTED_CRAWLERS);
  assert.deepEqual(stats.other_crawlers, { crawlers: 5, requests: 5 });
});

test('a memory log past its capacity forgets its oldest row in the aggregate too', async () => {
  const log = memoryLog({ capacity: 3 });
  for (let i = 0; i < 5; i++) log.record(entry({ at: T + i, bytes: 10 * (i + 1) }));
  const stats = statsDocument(await log.daily('2026-11-01'), log.health(), '2026-11-01', '2026-11-25T12:00:00Z');
  // The three newest: 30 + 40 + 50 bytes.
  assert.deepEqual(stats.totals, { requests: 3, bytes: 120 });
  assert.equal(log.health().evicted, 2);
});
