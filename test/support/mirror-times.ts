// Test support: when a project's mirrored lists were accepted. What verify-crawler may conclude
// from a list depends on its copy's age at the time of the call (docs/API.md §6.4), so a test
// that runs against the real clock sets the times relative to it, and gets the same verdicts
// whatever day it runs.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

interface EntryTimes {
  state?: 'ok' | 'failed';
  /** When the copy in use was accepted. */
  accepted: Date;
  error?: string | null;
}

/** Rewrites state/mirror/<id>.json of each id given (every list holding prefixes, for '*'). */
export async function setMirrorTimes(root: string, times: Record<string, EntryTimes>): Promise<void> {
  const dir = join(root, 'state', 'mirror');
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json'))) {
    const path = join(dir, name);
    const entry = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown> & { id: string; ipv4: string[]; ipv6: string[] };
    const wanted = times[entry.id] ?? (entry.ipv4.length + entry.ipv6.length > 0 ? times['*'] : undefined);
    if (wanted === undefined) continue;
    const accepted = iso(wanted.accepted);
    const state = wanted.state ?? 'ok';
    Object.assign(entry, {
      state,
      last_success: accepted,
      last_change: accepted,
      last_attempt: state === 'ok' ? accepted : iso(new Date()),
      error: wanted.error ?? null,
    });
    await writeFile(path, `${JSON.stringify(entry, null, 2)}\n`);
  }
}

export const hoursAgo = (hours: number): Date => new Date(Date.now() - hours * 3_600_000);

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
