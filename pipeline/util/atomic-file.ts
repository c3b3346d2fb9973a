import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoOf } from './errno.ts';
import { isOtherLiveProcess } from './process.ts';

// A temporary file sits beside its target (a rename is only atomic within one file system)
// and is named after the target and the writing process, so a leftover of a killed writer
// can be told apart from the temporary file of a writer that is still running.
const tempName = (target: string, pid: number) => `.${basename(target)}.${pid}.tmp`;
const TEMP = /^\.(.+)\.(\d+)\.tmp$/;
// How platforms that cannot flush a folder say so (Windows: EISDIR or EPERM on open).
const UNSYNCABLE_DIRECTORY = new Set(['EISDIR', 'EPERM', 'EINVAL', 'ENOTSUP', 'EBADF']);

/**
 * Replaces `path` with `data` so that, whenever the process is killed, the file holds either
 * the whole old content or the whole new content: the bytes go to a temporary file in the
 * same folder, are flushed to disk, and the temporary file is renamed over the target.
 * The folder is flushed too, so the rename itself survives a power cut where the platform
 * allows it.
 */
/** Writes and flushes one file (no rename): its bytes are on disk when this resolves. */
export async function writeDurably(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  await removeStaleTemps(path);
  const temp = join(dir, tempName(path, process.pid));
  try {
    await writeDurably(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/**
 * Flushes a folder's entries (renames, new and removed names) to disk. Windows cannot open a
 * folder for this and some file systems refuse it; there the rename is as durable as the
 * platform makes it, which still never leaves a partial file.
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!UNSYNCABLE_DIRECTORY.has(errnoOf(error) ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

/** Removes temporary files for `path` left by writers that were killed before their rename. */
async function removeStaleTemps(path: string): Promise<void> {
  const dir = dirname(path);
  const target = basename(path);
  for (const name of await readdir(dir)) {
    const match = TEMP.exec(name);
    if (match?.[1] === target && !isOtherLiveProcess(Number(match[2]))) await rm(join(dir, name), { force: true });
  }
}
