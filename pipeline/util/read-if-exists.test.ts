import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTextIfExists } from './read-if-exists.ts';

test('a missing file is null; a file is its text; a folder in its place is an error, not absence', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'read-if-exists-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  assert.equal(await readTextIfExists(join(dir, 'nothing.json')), null);
  await writeFile(join(dir, 'here.json'), '{}\n');
  assert.equal(await readTextIfExists(join(dir, 'here.json')), '{}\n');
  await assert.rejects(readTextIfExists(dir), (error: NodeJS.ErrnoException) => error.code === 'EISDIR');
});
