import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cpuTicksFromStat } from './settle.ts';

describe('settle.ts: reading a process’s CPU time from /proc', () => {
  test('utime + stime, whatever its name holds', () => {
    // A real line of /proc/<pid>/stat (Linux 6.1), with utime 1181 and stime 65.
    const line =
      '4915 (node) S 4914 4914 3180 0 -1 4194304 61443 0 0 0 1181 65 0 0 20 0 12 0 6101237 1330249728 124590 18446744073709551615 1 1 0 0 0 0 0 4096 134234626 0 0 0 17 1 0 0 0 0 0';
    assert.equal(cpuTicksFromStat(line), 1246);
    assert.equal(cpuTicksFromStat(line.replace('(node)', '(a b) c)')), 1246);
    assert.equal(cpuTicksFromStat('not a stat line'), null);
  });

  test('this process’s own line reads as a number of ticks', async (t) => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile('/proc/self/stat', 'utf8').catch(() => null);
    if (text === null) return t.skip('no /proc here');
    const ticks = cpuTicksFromStat(text);
    assert.ok(ticks !== null && ticks >= 0, String(ticks));
  });
});
