import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, basename } from 'node:path';

export interface DistFile {
  path: string;
  bytes: Uint8Array;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((e) => e.isFile()).map((e) => '/' + relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
}

/** True when `dir` already holds exactly these files with exactly these bytes. */
export async function sameTree(dir: string, files: readonly DistFile[]): Promise<boolean> {
  const existing = await listFiles(dir);
  if (existing.length !== files.length) return false;
  const wanted = new Set(files.map((f) => f.path));
  if (existing.some((path) => !wanted.has(path))) return false;
  for (const file of files) {
    const current = await readFile(join(dir, file.path));
    if (!Buffer.from(file.bytes).equals(current)) return false;
  }
  return true;
}

/**
 * Writes the whole tree beside `dir`, then swaps it in with two renames, so an interrupted
 * build leaves the old tree whole and a reader never sees a mix of old and new files.
 * Returns false when the tree was already identical and nothing was written.
 */
export async function writeDist(dir: string, files: readonly DistFile[]): Promise<boolean> {
  if (await sameTree(dir, files)) return false;
  const parent = dirname(dir);
  const staging = join(parent, `.${basename(dir)}-next-${process.pid}`);
  const retired = join(parent, `.${basename(dir)}-old-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    for (const file of files) {
      const target = join(staging, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.bytes);
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  await rm(retired, { recursive: true, force: true });
  await rename(dir, retired).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dir);
  await rm(retired, { recursive: true, force: true });
  return true;
}
