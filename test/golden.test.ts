import { strict as assert } from 'node:assert';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { builtMini } from './support/built-mini.ts';
import { FIXTURES, readTree } from './support/project.ts';

// One golden tree for every output format, rendered from the frozen fixture in
// test/fixtures/mini at 2026-01-01T00:00:00Z: the build npm test makes once per run
// (test/support/built-mini.ts). After an intended change: UPDATE_GOLDEN=1 npm test, then review the diff.
const GOLDEN = join(FIXTURES, '..', 'golden', 'mini');

test('every output of the mini fixture matches its golden file', async (t) => {
  const project = await builtMini();
  t.after(() => project.dispose());
  const dist = join(project.root, 'dist');
  if (process.env['UPDATE_GOLDEN'] === '1') {
    await rm(GOLDEN, { recursive: true, force: true });
    await cp(dist, GOLDEN, { recursive: true });
  }
  const actual = await readTree(dist);
  const golden = await readTree(GOLDEN);
  assert.deepEqual([...actual.keys()], [...golden.keys()], 'the same set of files');
  for (const [path, bytes] of golden) {
    assert.equal(actual.get(path)?.toString('utf8'), bytes.toString('utf8'), `${path} differs from test/golden/mini${path}`);
  }
});
