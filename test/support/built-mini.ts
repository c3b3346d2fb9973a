import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from '../../pipeline/publish/build.ts';
import { copyTree } from './copy-tree.ts';
import { tempProject } from './project.ts';

/** When the shared mini build is made; a test that needs another moment builds its own. */
export const MINI_BUILT_AT = '2026-01-01T00:00:00Z';

/**
 * The folder npm test builds the mini fixture into once per run (scripts/test.sh runs this file
 * before the tests), so the ~60 tests that serve the mini fixture copy one build instead of each
 * making its own. A test file run on its own (node --test) builds its copy instead.
 */
const SHARED = 'CRAWLER_INDEX_TEST_MINI';

/** A throwaway project holding the mini fixture built at MINI_BUILT_AT: records/, state/ and dist/. */
export async function builtMini(): Promise<{ root: string; dispose(): Promise<void> }> {
  const shared = process.env[SHARED];
  if (shared === undefined || shared === '') {
    const project = await tempProject('mini');
    await build({ root: project.root, now: MINI_BUILT_AT });
    return project;
  }
  // A build that never happened would otherwise surface as puzzling failures in every test using it.
  if (!existsSync(join(shared, 'dist', 'documents.json'))) throw new Error(`${SHARED}=${shared} holds no build of the mini fixture; unset it or run npm test`);
  const root = await mkdtemp(join(tmpdir(), 'crawler-index-'));
  for (const name of await readdir(shared)) await copyTree(join(shared, name), join(root, name));
  return { root, dispose: () => rm(root, { recursive: true, force: true }) };
}

// `node --import tsx test/support/built-mini.ts <folder>`: makes the shared build in <folder>.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = process.argv[2];
  if (folder === undefined) throw new Error('usage: built-mini.ts <empty folder to build the mini fixture in>');
  const project = await tempProject('mini');
  await build({ root: project.root, now: MINI_BUILT_AT });
  await cp(project.root, folder, { recursive: true });
  await project.dispose();
}
