import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { combine, type ContenderName, interleaved, limitTable, pairedRatio, rotation, type Throughput } from './limit.ts';
import type { WrkResult } from './wrk.ts';

function slice(requests: number, seconds: number, errors: Partial<WrkResult['errors']> = {}): WrkResult {
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    bytes: requests * 100,
    bytesPerResponse: 100,
    latencyMs: { p50: 1, p90: 2, p99: 3, max: 4 },
    errors: { connect: 0, read: 0, write: 0, status: 0, timeout: 0, ...errors },
  };
}

/** A contender's figure from the req/s of its rounds, one second each. */
const figure = (...rounds: number[]): Throughput => combine(rounds.map((rate) => slice(rate, 1)));

describe('the one-process limit', () => {
  test('slices add up by requests and seconds, not by averaging their rates', () => {
    const summed = combine([slice(1_000, 1), slice(3_000, 3), slice(0, 1, { read: 2, timeout: 1, status: 9 })]);
    assert.deepEqual(summed, { requests: 4_000, seconds: 5, requestsPerSecond: 800, socketErrors: 3, rounds: [1_000, 1_000, 0] });
  });

  test("a ratio is the median of the rounds' ratios, with their range: one slow round does not decide it", () => {
    // Round 2 caught the first server in a slow spell of the machine.
    const ours = figure(900, 300, 880, 910, 890);
    const theirs = figure(1_000, 1_000, 1_000, 1_000, 1_000);
    assert.deepEqual(pairedRatio(ours, theirs), { median: 0.89, low: 0.3, high: 0.91 });
    // An even number of rounds: the mean of the middle two.
    assert.equal(pairedRatio(figure(1, 2, 3, 4), figure(1, 1, 1, 1))?.median, 2.5);
    // A round the other server answered nothing in is left out; none left, no ratio.
    assert.equal(pairedRatio(figure(5, 6), figure(0, 2))?.median, 3);
    assert.equal(pairedRatio(figure(5), figure(0)), null);
  });

  test('each contender leads one round in turn', () => {
    assert.deepEqual(rotation(['a', 'b', 'c'], 0), ['a', 'b', 'c']);
    assert.deepEqual(rotation(['a', 'b', 'c'], 1), ['b', 'c', 'a']);
    assert.deepEqual(rotation(['a', 'b', 'c'], 5), ['c', 'a', 'b']);
  });

  test('interleaved takes every round of every contender, in turn, and sums each one', async () => {
    const order: string[] = [];
    const request = { method: 'GET', path: '/', headers: {} };
    const rates: Record<string, number> = { a: 100, b: 300 };
    const figures = await interleaved(
      [
        { name: 'ours', origin: 'a', requests: [request] },
        { name: 'bare node:http', origin: 'b', requests: [request] },
      ],
      3,
      2,
      async (origin, _requests, seconds) => {
        order.push(origin);
        return slice((rates[origin] ?? 0) * seconds, seconds);
      },
    );
    assert.deepEqual(order, ['a', 'b', 'b', 'a', 'a', 'b']);
    assert.equal(figures.get('ours')?.requestsPerSecond, 100);
    assert.equal(figures.get('bare node:http')?.seconds, 6);
  });

  test('the table shows each server and both ratios beside their targets', () => {
    const figures = new Map<ContenderName, Throughput>([
      ['ours', figure(17_000, 17_000, 17_000)],
      ['ours --no-log', figure(20_000, 20_000, 17_000)],
      ['bare node:http', figure(25_000, 25_000, 25_000)],
      ['nginx', figure(60_000, 60_000, 60_000)],
    ]);
    const table = limitTable([{ label: '/x 200', answers: new Map([['ours', '200, 1 KB']]), figures, minOfBare: 0.8 }]);
    const row = table.split('\n')[2] ?? '';
    assert.equal(row, '| /x 200 (200, 1 KB) | 17,000 | 19,000 | 25,000 | 60,000 | 0.85 (0.85–1.00; ≥ 0.85: yes) | 0.68 (0.68–0.68; ≥ 0.8: no) |');
    const noNginx = limitTable([{ label: '/x 404', answers: new Map(), figures: new Map([['ours', figure(1)]]), minOfBare: 0.5 }]);
    assert.match(noNginx.split('\n')[2] ?? '', /\| — \| — \| — \| — \| — \|$/);
  });
});
