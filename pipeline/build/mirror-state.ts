import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MirrorEntry } from '../upstream/accept.ts';

/** Reads state/mirror/<id>.json. A missing folder means no source has been fetched yet. */
export async function readMirrorState(dir: string): Promise<Map<string, MirrorEntry>> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const entries = new Map<string, MirrorEntry>();
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const entry = JSON.parse(await readFile(join(dir, name), 'utf8')) as MirrorEntry;
    entries.set(entry.id, entry);
  }
  return entries;
}
