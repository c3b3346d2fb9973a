import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyTree } from './copy-tree.ts';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = join(REPO, 'test', 'fixtures');

/** A throwaway project folder holding a copy of a fixture (records/ and state/), or of the repo's own records. */
export async function tempProject(fixture: 'mini' | 'repo' = 'mini'): Promise<{ root: string; dispose(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'crawler-index-'));
  const from = fixture === 'repo' ? REPO : join(FIXTURES, fixture);
  await copyTree(join(from, 'records'), join(root, 'records'));
  await copyTree(join(from, 'state'), join(root, 'state')).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  return { root, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** Every file under dir as path → bytes, paths relative with a leading slash. */
export async function readTree(dir: string): Promise<Map<string, Buffer>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, Buffer>();
  for (const entry of entries.filter((e) => e.isFile())) {
    const full = join(entry.parentPath, entry.name);
    files.set('/' + relative(dir, full).split('\\').join('/'), await readFile(full));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function changedPaths(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => !before.get(p)?.equals(after.get(p) ?? Buffer.alloc(0)) || !before.has(p) || !after.has(p)).sort();
}
