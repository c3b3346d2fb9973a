import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { LEDGER_JSON } from '../ledger/ledger.ts';
import { syncDirectory, writeDurably, writeFileAtomic } from '../util/atomic-file.ts';
import { inParallel } from '../util/in-parallel.ts';

export interface DistFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * The folders a swap leaves beside `dir` while it runs: `next` is the new tree being written,
 * `old` the previous tree between the two renames. Named after the writing process so a
 * recovery can tell a killed writer's leftovers from a running writer's.
 */
export type LeftoverRole = 'next' | 'old';

export function leftoverPath(dir: string, role: LeftoverRole, pid: number): string {
  return join(dirname(dir), `.${basename(dir)}-${role}-${pid}`);
}

/** The role and writer of a name beside `dir`, or null when the name is not a leftover of `dir`. */
export function parseLeftover(dir: string, name: string): { role: LeftoverRole; pid: number } | null {
  const prefix = `.${basename(dir)}-`;
  if (!name.startsWith(prefix)) return null;
  const match = /^(next|old)-(\d+)$/.exec(name.slice(prefix.length));
  if (!match) return null;
  return { role: match[1] === 'next' ? 'next' : 'old', pid: Number(match[2]) };
}

/** Files written and flushed at once: enough to keep the disk's queue full, few enough to hold few descriptors. */
const WRITES_AT_ONCE = 16;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((e) => e.isFile()).map((e) => '/' + relative(dir, join(e.parentPath, e.name)).split('\\').join('/'));
}

/** True when `dir` already holds exactly these files with exactly these bytes. */
async function sameTree(dir: string, files: readonly DistFile[]): Promise<boolean> {
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
 * The ledger is written last and atomically: a staging tree holding a ledger holds every
 * file the ledger lists, which is how `recoverDist` knows it is complete after a kill.
 * Returns false when the tree was already identical and nothing was written.
 */
export async function writeDist(dir: string, files: readonly DistFile[]): Promise<boolean> {
  if (await sameTree(dir, files)) return false;
  const staging = leftoverPath(dir, 'next', process.pid);
  const retired = leftoverPath(dir, 'old', process.pid);
  await rm(staging, { recursive: true, force: true });
  try {
    const ledger = files.find((f) => f.path === LEDGER_JSON);
    const rest = files.filter((f) => f !== ledger);
    const folders = [...new Set(rest.map((f) => dirname(join(staging, f.path))))].sort();
    for (const folder of folders) await mkdir(folder, { recursive: true });
    // Each flush waits on the disk, not the CPU: one at a time, ~1,400 files took seconds.
    await inParallel(rest, WRITES_AT_ONCE, (file) => writeDurably(join(staging, file.path), file.bytes));
    await inParallel(folders, WRITES_AT_ONCE, syncDirectory);
    if (ledger) await writeFileAtomic(join(staging, ledger.path), ledger.bytes);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // A kill between these two renames leaves no dir; recoverDist puts the new tree in place.
  await rm(retired, { recursive: true, force: true });
  await rename(dir, retired).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, dir);
  await syncDirectory(dirname(dir));
  await rm(retired, { recursive: true, force: true });
  return true;
}
