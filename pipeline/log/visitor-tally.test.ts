import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { logEntry as entry, LOG_TIME } from '../../test/support/log-entry.ts';
import type { VisitorLookup } from './types.ts';
import { VISITOR_COUNT_LIMIT, visitorTally } from './visitor-tally.ts';

const DAY = 86_400_000;
const T = LOG_TIME;

/** The requests counted for a visitor; null when none or not counted. */
function requestsOf(lookup: VisitorLookup): number | null {
  return lookup.counted ? (lookup.visitor?.requests ?? null) : null;
}

test('first and last seen go by arrival, and the latest arrival gives the booking, whatever order rows come in', () => {
  const tally = visitorTally();
  tally.add(entry({ at: T + 50, crawler: 'gptbot', verdict: 'genuine' }));
  // A slow request that arrived earlier, answered (and recorded) later.
  tally.add(entry({ at: T + 10, crawler: 'claudebot', verdict: 'not-genuine' }));
  tally.add(entry({ at: T + 70, crawler: null, verdict: null }));
  tally.add(entry({ at: T + 60, crawler: 'bingbot', verdict: 'unverifiable' }));
  assert.deepEqual(tally.lookup('cafe', T + 100), {
    counted: true,
    visitor: { requests: 4, first_seen: T + 10, last_seen: T + 70, crawler: null, verdict: null },
  });
  assert.deepEqual(tally.lookup('beef', T + 100), { counted: true, visitor: null });
});

test('a request without an address counts for nobody, and a lookup gets a copy, not the count itself', () => {
  const tally = visitorTally();
  tally.add(entry({ address_hash: null }));
  tally.add(entry());
  const first = tally.lookup('cafe', T);
  assert.ok(first.counted && first.visitor !== null);
  first.visitor.requests = 99;
  assert.equal(requestsOf(tally.lookup('cafe', T)), 1);
});

test('requests are counted up to the limit; last seen still moves on', () => {
  const tally = visitorTally();
  for (let i = 0; i < VISITOR_COUNT_LIMIT + 3; i++) tally.add(entry({ at: T + i }));
  const lookup = tally.lookup('cafe', T);
  assert.equal(requestsOf(lookup), VISITOR_COUNT_LIMIT);
  assert.equal(lookup.counted && lookup.visitor?.last_seen, T + VISITOR_COUNT_LIMIT + 2);
});

test('each UTC day starts over, and a row of the day before (a request answered after midnight) is not counted', () => {
  const midnight = Math.ceil(T / DAY) * DAY;
  const tally = visitorTally();
  tally.add(entry({ at: midnight - 10 }));
  tally.add(entry({ at: midnight + 5 }));
  tally.add(entry({ at: midnight - 1 }));
  assert.deepEqual(tally.lookup('cafe', midnight + 10), {
    counted: true,
    visitor: { requests: 1, first_seen: midnight + 5, last_seen: midnight + 5, crawler: null, verdict: null },
  });
  // Asked on a day the tally has no row of yet: nobody was seen that day.
  assert.deepEqual(tally.lookup('cafe', midnight + DAY), { counted: true, visitor: null });
});

test('past the most addresses a day, a new one is not counted and says so; those counted go on counting', () => {
  const midnight = Math.ceil(T / DAY) * DAY;
  const tally = visitorTally(2);
  tally.add(entry({ at: T, address_hash: 'a' }));
  tally.add(entry({ at: T, address_hash: 'b' }));
  tally.add(entry({ at: T, address_hash: 'c' }));
  tally.add(entry({ at: T + 1, address_hash: 'a' }));
  const turnedAway = tally.lookup('c', T + 2);
  assert.equal(turnedAway.counted, false);
  assert.match(turnedAway.counted ? '' : turnedAway.reason, /More than 2 addresses have reached this server today; the log counts the first 2/);
  assert.equal(requestsOf(tally.lookup('a', T + 2)), 2);
  // So is an address never seen: the tally cannot tell it from one it turned away.
  assert.equal(tally.lookup('never', T + 2).counted, false);
  // A new day has room again, and an address of the day before is simply not seen.
  tally.add(entry({ at: midnight, address_hash: 'c' }));
  assert.equal(tally.lookup('c', midnight).counted, true);
  assert.deepEqual(tally.lookup('a', midnight), { counted: true, visitor: null });
});
