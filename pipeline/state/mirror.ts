import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MirrorEntry } from '../upstream/accept.ts';
import { isRecord } from '../util/guards.ts';
import { readStateJson, restoreFromGit } from './state-file.ts';

function isMirrorEntry(value: unknown): value is MirrorEntry {
  return (
    isRecord(value) && typeof value['id'] === 'string' && typeof value['state'] === 'string' && Array.isArray(value['ipv4']) && Array.isArray(value['ipv6'])
  );
}

/** Reads state/mirror/<id>.json. A missing folder means no source has been fetched yet. */
export async function readMirrorState(dir: string): Promise<Map<string, MirrorEntry>> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const entries = new Map<string, MirrorEntry>();
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const path = join(dir, name);
    const entry = await readStateJson(path, {
      expected: 'a mirror entry (an object with id, state, ipv4 and ipv6)',
      is: isMirrorEntry,
      remedy: restoreFromGit(path, 'delete it and run `npm run refresh` to fetch that list again'),
    });
    if (entry) entries.set(entry.id, entry);
  }
  return entries;
}
