import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MirrorEntry } from '../upstream/accept.ts';
import type { DirectoryEntry } from '../upstream/directory.ts';
import { isRecord } from '../util/guards.ts';
import { readStateJson, restoreFromGit, type StateShape } from './state-file.ts';

function isMirrorEntry(value: unknown): value is MirrorEntry {
  return (
    isRecord(value) && typeof value['id'] === 'string' && typeof value['state'] === 'string' && Array.isArray(value['ipv4']) && Array.isArray(value['ipv6'])
  );
}

function isDirectoryEntry(value: unknown): value is DirectoryEntry {
  return isRecord(value) && typeof value['id'] === 'string' && typeof value['state'] === 'string' && Array.isArray(value['keys']);
}

/** Reads `<dir>/<id>.json`, one entry per source. A missing folder means no source has been fetched yet. */
async function readEntries<T extends { id: string }>(dir: string, shape: (path: string) => StateShape<T>): Promise<Map<string, T>> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const entries = new Map<string, T>();
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const path = join(dir, name);
    const entry = await readStateJson(path, shape(path));
    if (entry) entries.set(entry.id, entry);
  }
  return entries;
}

/** Reads state/mirror/<id>.json: the prefix lists. */
export function readMirrorState(dir: string): Promise<Map<string, MirrorEntry>> {
  return readEntries(dir, (path) => ({
    expected: 'a mirror entry (an object with id, state, ipv4 and ipv6)',
    is: isMirrorEntry,
    remedy: restoreFromGit(path, 'delete it and run `npm run refresh` to fetch that list again'),
  }));
}

/** Reads state/signature-agents/<id>.json: the key directories. */
export function readDirectoryState(dir: string): Promise<Map<string, DirectoryEntry>> {
  return readEntries(dir, (path) => ({
    expected: 'a key directory entry (an object with id, state and keys)',
    is: isDirectoryEntry,
    remedy: restoreFromGit(path, 'delete it and run `npm run refresh` to fetch that directory again'),
  }));
}
