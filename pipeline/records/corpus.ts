// The headers the build measures the server configs and the classifier against
// (records/corpus/README.md): real browser User-Agents from two npm packages, real app headers
// and real bot headers from matomo device-detector's test fixtures, and the peers' collected
// crawler headers (monperrus/crawler-user-agents, arcjet/well-known-bots). Read
// whole and checked for shape; a missing or malformed file stops the build, because a table
// measured against nothing would still look like a clean result.

import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Problem } from './types.ts';

/** Where a file's headers come from: a package and version, or a project and commit (records/corpus/README.md). */
type HeaderSource = Record<string, string | number>;

/** A real bot header with the name and category the fixture gives it (null where it gives none). */
interface NamedBot {
  user_agent: string;
  name: string;
  category: string | null;
}

export interface Corpus {
  browsers: { sources: HeaderSource[]; user_agents: string[] };
  /** Apps' own headers (messengers, editors, media players): people, not crawlers. */
  apps: { sources: HeaderSource[]; user_agents: string[] };
  /** Real bot headers, the recall set of the classifier. */
  bots: { sources: HeaderSource[]; bots: NamedBot[] };
  /** Every `instances` header of monperrus/crawler-user-agents, in file order. */
  peer_instances: string[];
  /** Its entries: each pattern with its headers (the crosswalk maps each pattern to a record). */
  peer_patterns: { pattern: string; instances: string[] }[];
  /** arcjet/well-known-bots: each entry's id with the real headers it accepts (`instances.accepted`). */
  well_known_bots: { id: string; instances: string[] }[];
}

/** Where crawler-user-agents.json comes from (records/corpus/README.md). */
export const PEERS_SOURCE = { package: 'crawler-user-agents', version: '1.60.0', project: 'monperrus/crawler-user-agents', licence: 'MIT' } as const;

const BROWSERS_FILE = 'browsers.json';
const APPS_FILE = 'apps.json';
const BOTS_FILE = 'bots.json';
const PEERS_FILE = 'crawler-user-agents.json';
const WELL_KNOWN_BOTS_FILE = 'well-known-bots.json';

/** Where well-known-bots.json comes from (records/corpus/README.md). */
export const WELL_KNOWN_BOTS_SOURCE = {
  project: 'arcjet/well-known-bots',
  commit: '0637e27abef588368a29bb041b6e1e9af2e81f90',
  file: 'well-known-bots.json',
  licence: 'MIT',
} as const;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** A `{sources, user_agents}` file: browsers.json and apps.json. */
function headersOf(data: unknown): Corpus['browsers'] | string {
  const doc = data as { sources?: unknown; user_agents?: unknown } | null;
  if (typeof doc !== 'object' || doc === null) return 'not a JSON object';
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) return '`sources` must name where the headers come from';
  if (!isStrings(doc.user_agents) || doc.user_agents.length === 0) return '`user_agents` must be a non-empty array of strings';
  return { sources: doc.sources as HeaderSource[], user_agents: doc.user_agents };
}

function botsOf(data: unknown): Corpus['bots'] | string {
  const doc = data as { sources?: unknown; bots?: unknown } | null;
  if (typeof doc !== 'object' || doc === null) return 'not a JSON object';
  if (!Array.isArray(doc.sources) || doc.sources.length === 0) return '`sources` must name where the headers come from';
  const valid = (bot: unknown): bot is NamedBot => {
    const b = bot as Partial<NamedBot> | null;
    return typeof b?.user_agent === 'string' && typeof b.name === 'string' && (b.category === null || typeof b.category === 'string');
  };
  if (!Array.isArray(doc.bots) || doc.bots.length === 0 || !doc.bots.every(valid)) return '`bots` must be a non-empty array of {user_agent, name, category}';
  return { sources: doc.sources as HeaderSource[], bots: doc.bots };
}

function peersOf(data: unknown): Corpus['peer_patterns'] | string {
  if (!Array.isArray(data)) return 'not a JSON array';
  const entries: Corpus['peer_patterns'] = [];
  for (const entry of data as { pattern?: unknown; instances?: unknown }[]) {
    if (typeof entry?.pattern !== 'string') return 'an entry has no `pattern` string';
    if (!isStrings(entry.instances)) return 'an entry has no `instances` array of strings';
    entries.push({ pattern: entry.pattern, instances: entry.instances });
  }
  return entries;
}

function wellKnownBotsOf(data: unknown): Corpus['well_known_bots'] | string {
  if (!Array.isArray(data)) return 'not a JSON array';
  const entries: Corpus['well_known_bots'] = [];
  for (const entry of data as { id?: unknown; instances?: { accepted?: unknown } }[]) {
    if (typeof entry?.id !== 'string') return 'an entry has no `id` string';
    // An entry may give no headers at all; the crosswalk counts it as unplaced.
    const accepted = entry.instances?.accepted ?? [];
    if (!isStrings(accepted)) return `entry ${entry.id}: \`instances.accepted\` must be an array of strings`;
    entries.push({ id: entry.id, instances: accepted });
  }
  return entries;
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
  const browsers = await read(BROWSERS_FILE, headersOf);
  const apps = await read(APPS_FILE, headersOf);
  const bots = await read(BOTS_FILE, botsOf);
  const peer_patterns = await read(PEERS_FILE, peersOf);
  const well_known_bots = await read(WELL_KNOWN_BOTS_FILE, wellKnownBotsOf);
  const complete = browsers !== null && apps !== null && bots !== null && peer_patterns !== null && well_known_bots !== null;
  const peer_instances = peer_patterns?.flatMap((entry) => entry.instances) ?? [];
  return { corpus: complete ? { browsers, apps, bots, peer_instances, peer_patterns, well_known_bots } : null, problems };
}
