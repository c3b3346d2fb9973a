import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { logEntry, LOG_TIME } from '../../test/support/log-entry.ts';
import { memoryLog } from '../../test/support/memory-log.ts';
import { LogBusy, type RequestLog } from '../log/types.ts';
import { hitsResponse, logViews, type Visits } from './request-log.ts';

/** A log whose store answers reads only when told to: what a thread stuck on a long write looks like from outside. */
function stallingLog(): { log: RequestLog; stall: (on: boolean) => void } {
  const inner = memoryLog();
  let stalled = false;
  const busy = () => Promise.reject(new LogBusy('the request log did not answer within 2 s'));
  return {
    stall: (on) => {
      stalled = on;
    },
    log: {
      ...inner,
      daily: (since) => (stalled ? busy() : inner.daily(since)),
      hits: (cursor, limit) => (stalled ? busy() : inner.hits(cursor, limit)),
      visitor: (hash) => (stalled ? busy() : inner.visitor(hash)),
    },
  };
}

test('a log that does not answer in time is reported as busy, not shown as empty, and asked again after a few seconds', async () => {
  const { log, stall } = stallingLog();
  log.record(logEntry());
  let now = LOG_TIME;
  const visits: Visits = { log, hashAddress: () => 'h', exportKey: 'k', now: () => now };
  const views = logViews(visits);
  stall(true);
  const busy = JSON.parse(new TextDecoder().decode((await views.read()).stats.bytes)) as {
    log: { state: string; reason: string };
    totals: { requests: number };
  };
  assert.equal(busy.log.state, 'unavailable');
  assert.match(busy.log.reason, /did not answer within 2 s; ask again/);
  stall(false);
  now += 4_000;
  assert.equal(JSON.parse(new TextDecoder().decode((await views.read()).stats.bytes)).log.state, 'unavailable', 'kept for a few seconds');
  now += 2_000;
  const after = JSON.parse(new TextDecoder().decode((await views.read()).stats.bytes)) as { log: { state: string }; totals: { requests: number } };
  assert.equal(after.log.state, 'ok');
  assert.equal(after.totals.requests, 1);
  now += 30_000;
  stall(true);
  assert.equal((await views.read()).stats, (await views.read()).stats, 'a good reading is served for its minute without asking the log');
});

test('/hits.json on a busy log is a 503 with Retry-After, never an empty page', async () => {
  const { log, stall } = stallingLog();
  stall(true);
  const visits: Visits = { log, hashAddress: () => 'h', exportKey: 'k' };
  const url = new URL('http://127.0.0.1/hits.json?key=k');
  const response = await hitsResponse(visits, new Request(url), url, 'http://127.0.0.1', {});
  assert.equal(response.status, 503);
  assert.equal(response.headers.get('retry-after'), '5');
  assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'log_busy');
});
