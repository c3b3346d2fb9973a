import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCheckedTimes, recordChecks, writeCheckedTimes } from './checked.ts';

test('a check moves only the sources checked; a source gone from sources.yaml is dropped; ids stay sorted', () => {
  const before = new Map([
    ['b-list', '2026-12-01T00:00:00Z'],
    ['gone-list', '2026-11-01T00:00:00Z'],
    ['a-list', '2026-12-01T00:00:00Z'],
  ]);
  const after = recordChecks(before, ['c-list', 'a-list'], '2026-12-01T06:00:00Z', ['a-list', 'b-list', 'c-list']);
  assert.deepEqual(
    [...after],
    [
      ['a-list', '2026-12-01T06:00:00Z'],
      ['b-list', '2026-12-01T00:00:00Z'],
      ['c-list', '2026-12-01T06:00:00Z'],
    ],
  );
});

test('the file is written only when a time changes, and a damaged one names itself and the remedy', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'checked-'));
  try {
    const path = join(dir, 'checked.json');
    assert.deepEqual([...(await readCheckedTimes(path))], [], 'no file: no check recorded');
    const times = new Map([['a-list', '2026-12-01T06:00:00Z']]);
    assert.equal(await writeCheckedTimes(path, times), true);
    assert.equal(await writeCheckedTimes(path, times), false);
    assert.deepEqual([...(await readCheckedTimes(path))], [...times]);
    await writeFile(path, '{"a-list": 1}');
    await assert.rejects(readCheckedTimes(path), /checked\.json.*is not an object mapping source ids.*git checkout HEAD/s);
    assert.equal(await readFile(path, 'utf8'), '{"a-list": 1}');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
