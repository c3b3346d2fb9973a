// The headers the build measures the server configs against (records/corpus/README.md): real
// browser User-Agents from two npm packages and the peers' collected crawler headers. Read
// whole and checked for shape; a missing or malformed file stops the build, because a table
// measured against nothing would still look like a clean result.

import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Problem } from './types.ts';

interface BrowserSource {
  package: string;
  version: string;
  file: string;
  distinct: number;
  licence: string;
  licence_file: string;
}

export interface Corpus {
  browsers: { sources: BrowserSource[]; user_agents: string[] };
  /** Every `instances` header of monperrus/crawler-user-agents, in file order. */
  peer_instances: string[];
}

/** Where crawler-user-agents.json comes from (records/corpus/README.md). */
export const PEERS_SOURCE = { package: 'crawler-user-agents', version: '1.60.0', project: 'monperrus/crawler-user-agents', licence: 'MIT' } as const;

const BROWSERS_FILE = 'browsers.json';
const PEERS_FILE = 'crawler-user-agents.json';

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function browsersOf(data: unknown): Corpus['browsers'] | string {
  const doc = data as { sources?: unknown; user_agents?: unknown } | null;
  if (typeof doc !== 'object' || doc === null) return 'not a JSON object';
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) return '`sources` must name where the headers come from';
  if (!isStrings(doc.user_agents) || doc.user_agents.length === 0) return '`user_agents` must be a non-empty array of strings';
  return { sources: doc.sources as BrowserSource[], user_agents: doc.user_agents };
}

function peersOf(data: unknown): string[] | string {
  if (!Array.isArray(data)) return 'not a JSON array';
  const instances: string[] = [];
  for (const entry of data as { instances?: unknown }[]) {
    if (!isStrings(entry?.instances)) return 'an entry has no `instances` array of strings';
    instances.push(...entry.instances);
  }
  return instances;
}

/** Reads records/corpus/; problems are returned, never thrown, like every other record file. */
export async function readCorpus(dir: string, root: string): Promise<{ corpus: Corpus | null; problems: Problem[] }> {
  const problems: Problem[] = [];
  const read = async <T>(name: string, shape: (data: unknown) => T | string): Promise<T | null> => {
    const file = relative(root, join(dir, name)) || name;
    try {
      const result = shape(JSON.parse(await readFile(join(dir, name), 'utf8')) as unknown);
      if (typeof result === 'string') problems.push({ file, path: '', message: result });
      return typeof result === 'string' ? null : result;
    } catch (error) {
      problems.push({ file, path: '', message: `cannot read: ${(error as Error).message}` });
      return null;
    }
  };
  const browsers = await read(BROWSERS_FILE, browsersOf);
  const peer_instances = await read(PEERS_FILE, peersOf);
  return { corpus: browsers === null || peer_instances === null ? null : { browsers, peer_instances }, problems };
}
