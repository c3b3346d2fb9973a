import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import type { DailyRow } from './types.ts';
import { liveCounts, liveText } from './live.ts';

const row = (fields: Partial<DailyRow>): DailyRow => ({
  day: '2026-11-25',
  route: '/data/agents.json',
  status: 200,
  crawler: null,
  category: null,
  verdict: null,
  requests: 1,
  bytes: 100,
  ...fields,
});

const ROWS = [
  row({ requests: 1200 }),
  row({ day: '2026-11-24', requests: 40_000 }),
  row({ crawler: 'gptbot', category: 'ai-training', verdict: 'genuine', requests: 7 }),
  row({ crawler: 'gptbot', category: 'ai-training', verdict: 'not-genuine', requests: 3 }),
  row({ day: '2026-11-24', crawler: 'bingbot', category: 'search-engine', verdict: 'unverifiable', requests: 1 }),
];

test('counts: today, the whole window, requests naming a crawler and those from its own addresses', () => {
  const counts = liveCounts(ROWS, '2026-11-25', 30);
  assert.deepEqual(
    { ...counts, byCrawler: Object.fromEntries(counts.byCrawler) },
    {
      days: 30,
      today: 1210,
      requests: 41_211,
      claimed: 11,
      genuine: 7,
      byCrawler: { gptbot: { requests: 10, genuine: 7 }, bingbot: { requests: 1, genuine: 0 } },
    },
  );
});

test('the sentences a page shows, with grouped digits and singulars', () => {
  const counts = liveCounts(ROWS, '2026-11-25', 30);
  assert.equal(
    liveText(counts, null),
    "This server, today (UTC): 1,210 requests. In the last 30 days: 41,211 requests, 11 naming a crawler, 7 of them from addresses verified as that crawler's own.",
  );
  assert.match(
    liveText(counts, { slug: 'gptbot', name: 'GPTBot' }),
    /^GPTBot called on this index 10 times in the last 30 days \(7 from addresses verified as its own\)\. This server/,
  );
  assert.match(liveText(counts, { slug: 'bingbot', name: 'Bingbot' }), /^Bingbot called on this index 1 time in/);
  assert.match(liveText(liveCounts([], '2026-11-25', 7), { slug: 'x', name: 'X' }), /^X called on this index 0 times in the last 7 days \(0 from/);
});
