import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { test } from 'node:test';
import { TOOL_SNAPSHOT_PATHS, toolSnapshotFrom } from '../http/tool-data.ts';
import { snapshotStore } from './dist-snapshot.ts';
import { toolSnapshotFromFolder } from './tool-snapshot-folder.ts';

const DIST = join(import.meta.dirname, '..', '..', 'dist');

test("the tools' documents read from a build's folder are named as the server names the build it loads from there", async (t) => {
  const folder = await toolSnapshotFromFolder(DIST);
  assert.ok(folder !== null, 'the committed build holds every document the tools read');
  const only = new Set(TOOL_SNAPSHOT_PATHS);
  const served = await snapshotStore(DIST, { compress: false, only });
  t.after(() => served.close());
  assert.equal((await toolSnapshotFrom(served))?.key, folder.key);
  // Relocated to another base URL, the documents served differ from the files, and so does their
  // name; the name of the build they were made from does not, which is what booking is keyed by.
  const relocated = await snapshotStore(DIST, { compress: false, only, relocateTo: { baseUrl: 'https://index.example.org', siteName: 'Example' } });
  t.after(() => relocated.close());
  assert.notEqual((await toolSnapshotFrom(relocated))?.key, folder.key);
  assert.equal((await toolSnapshotFrom(relocated, 'built'))?.key, folder.key);
});

test('a folder missing one of those documents gives no snapshot, not part of one', async () => {
  assert.equal(await toolSnapshotFromFolder(join(DIST, 'no-such-folder')), null);
});
