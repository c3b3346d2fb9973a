import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { inParallel } from './in-parallel.ts';

describe('inParallel', () => {
  it('keeps the items’ order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await inParallel([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      most = Math.max(most, ++running);
      await sleep(n);
      running--;
      return n * 10;
    });
    assert.deepEqual(results, [50, 10, 40, 20, 30, 0, 60]);
    assert.equal(most, 3);
  });

  it('after a failure starts nothing new, and throws only once the work in flight has settled', async () => {
    const started: number[] = [];
    const settled: number[] = [];
    await assert.rejects(
      inParallel([0, 1, 2, 3, 4, 5, 6, 7], 2, async (n) => {
        started.push(n);
        await sleep(n === 1 ? 1 : 20);
        settled.push(n);
        if (n === 1) throw new Error('item 1 failed');
      }),
      /item 1 failed/,
    );
    assert.deepEqual(started, [0, 1], 'no item is started after the failure');
    assert.deepEqual(settled.sort(), [0, 1], 'item 0 was in flight and had settled before the error reached the caller');
  });
});
