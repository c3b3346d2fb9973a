import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Model } from '../model/model.ts';
import { canonicalJson } from '../render/output.ts';
import type { PublishedState } from './diff.ts';
import { EMPTY_LOG, type EventLog } from './types.ts';

/** The facts of a model in the shape they are published, for diffing against HEAD's. */
export function publishedStateOf(model: Model): PublishedState {
  return {
    crawlers: new Map(model.crawlers.map((c) => [c.slug, JSON.parse(JSON.stringify(c)) as Record<string, unknown>])),
    sources: new Map(model.sources.map((s) => [s.id, { state: s.mirror.state, error: s.mirror.error, ipv4: s.mirror.ipv4, ipv6: s.mirror.ipv6 }])),
  };
}

export async function readEventLog(path: string): Promise<EventLog> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  return text === null ? EMPTY_LOG : (JSON.parse(text) as EventLog);
}

/** Writes the log only when its bytes change, so an unchanged build leaves state/ untouched. */
export async function writeEventLog(path: string, log: EventLog): Promise<boolean> {
  const text = canonicalJson(log);
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === text) return false;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return true;
}
