import { readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readDirectoryState, readMirrorState } from '../state/mirror.ts';
import { checkRecords } from '../records/check.ts';
import { readRecordFiles } from '../records/load.ts';
import type { DirectoryRow, SourceRow } from '../records/types.ts';
import { BuildError } from '../records/build-error.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { acceptList, type MirrorEntry } from '../upstream/accept.ts';
import { makeAttempt } from '../upstream/attempt.ts';
import { FORMATS } from '../upstream/parse.ts';
import type { FetchOptions, FetchOutcome } from '../upstream/fetch.ts';
import { sha256Hex } from '../util/sha256.ts';
import { refreshSource } from '../upstream/refresh-source.ts';
import { writeFileAtomic } from '../util/atomic-file.ts';
import { acceptDirectory, DIRECTORY_MEDIA_TYPE, type DirectoryEntry } from '../upstream/directory.ts';
import { refreshDirectory } from '../upstream/refresh-directory.ts';
import { readCheckedTimes, recordChecks, writeCheckedTimes } from '../state/checked.ts';

export interface MirrorOptions {
  root: string;
  /** Read `<dir>/<source-id>.<ext>` instead of the network (offline import). */
  upstreamDir?: string;
  /** Fetch `<base>/<source-id>` instead of each operator's URL. */
  upstreamBase?: string;
  /** Refresh only these source ids. */
  only?: readonly string[];
  now: string;
  fetch?: Omit<FetchOptions, 'validators'>;
  log?: (line: string) => void;
}

interface Outcome<Kind extends string, Entry> {
  kind: Kind;
  id: string;
  entry: Entry | undefined;
  /** Whether what we publish for this source (prefixes or keys, state, error) changed. */
  changed: boolean;
  /** Whether this attempt was accepted (a 200 with a good list, or a 304), changed or not. */
  accepted: boolean;
  skipped?: string;
}

export type SourceOutcome = Outcome<'list', MirrorEntry> | Outcome<'directory', DirectoryEntry>;

/**
 * What a refresh may commit. Attempts that change none of these (a new creationTime, a
 * repeated identical failure, a later fetch time) are not written, so a refresh that found
 * nothing new writes nothing and git log stays a record of real changes.
 */
function material(entry: MirrorEntry | undefined): string {
  return entry ? JSON.stringify([entry.state, entry.ipv4, entry.ipv6, entry.error]) : 'none';
}

/**
 * The same rule for a key directory: its keys as published, and the response they came from
 * (a new directory signature is news: it is what lets a redistributed copy be checked).
 */
function directoryMaterial(entry: DirectoryEntry | undefined): string {
  return entry ? JSON.stringify([entry.state, entry.keys, entry.response, entry.error]) : 'none';
}

/** A local copy of an upstream body (--upstream-dir), as the fetch of it would have answered; null when there is none. */
async function localCopy(file: string, url: string, contentType: string): Promise<Extract<FetchOutcome, { kind: 'ok' }> | null> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (bytes === null) return null;
  const body = new Uint8Array(bytes);
  return { kind: 'ok', bytes: body, sha256: sha256Hex(body), status: 200, etag: null, lastModified: null, contentType, finalUrl: url, attempts: 1 };
}

async function fromDirectory(source: SourceRow, previous: MirrorEntry | undefined, dir: string, now: string): Promise<MirrorEntry | null> {
  const format = FORMATS[source.format];
  const outcome = await localCopy(join(dir, `${source.id}.${format.extension}`), source.url, format.mediaType);
  return outcome === null ? null : acceptList(previous, makeAttempt(source, outcome, 'upstream-dir'), now);
}

async function directoryFromFile(row: DirectoryRow, previous: DirectoryEntry | undefined, dir: string, now: string): Promise<DirectoryEntry | null> {
  const outcome = await localCopy(join(dir, `${row.id}.json`), row.url, DIRECTORY_MEDIA_TYPE);
  return outcome === null ? null : acceptDirectory(previous, row, outcome, now);
}

/** One kind of source: where its state lives, how one row is refreshed, and what of an entry is news. */
interface SourceKind<Kind extends string, Row extends { id: string }, Entry extends { state: string; error: string | null; last_success: string | null }> {
  kind: Kind;
  /** The folder under state/ holding one <id>.json per source. */
  folder: string;
  read(dir: string): Promise<Map<string, Entry>>;
  /** The next entry, or null when the offline import has no copy of this source. */
  refreshOne(row: Row, before: Entry | undefined): Promise<Entry | null>;
  material(entry: Entry | undefined): string;
}

/** Refreshes every row of one kind together, applies "last good wins", and writes only the entries that changed. */
async function refreshKind<Kind extends string, Row extends { id: string }, Entry extends { state: string; error: string | null; last_success: string | null }>(
  kind: SourceKind<Kind, Row, Entry>,
  rows: readonly Row[],
  options: MirrorOptions,
  log: (line: string) => void,
): Promise<Outcome<Kind, Entry>[]> {
  const dir = join(options.root, 'state', kind.folder);
  const previous = await kind.read(dir);
  const outcomes = await Promise.all(
    rows.map(async (row): Promise<Outcome<Kind, Entry>> => {
      const before = previous.get(row.id);
      const entry = await kind.refreshOne(row, before);
      if (entry === null) return { kind: kind.kind, id: row.id, entry: before, changed: false, accepted: false, skipped: 'no local copy' };
      const changed = kind.material(entry) !== kind.material(before);
      const accepted = entry.state === 'ok' && entry.last_success === options.now;
      return { kind: kind.kind, id: row.id, entry: changed ? entry : before, changed, accepted };
    }),
  );
  await mkdir(dir, { recursive: true });
  for (const outcome of outcomes) {
    const entry = outcome.entry;
    if (outcome.changed && entry) await writeFileAtomic(join(dir, `${outcome.id}.json`), canonicalJson(entry));
    log(
      `${outcome.id}: ${outcome.skipped ?? entry?.state ?? 'never-fetched'}${outcome.changed ? ' (changed)' : ''}${entry?.state === 'failed' ? `: ${entry.error}` : ''}`,
    );
  }
  return outcomes;
}

/** `<base>/<id>` when the maintainer pointed the refresh at a local mirror or a test server. */
function overrideUrl(options: MirrorOptions, id: string): string | undefined {
  return options.upstreamBase ? `${options.upstreamBase.replace(/\/+$/, '')}/${id}` : undefined;
}

function prefixLists(options: MirrorOptions): SourceKind<'list', SourceRow, MirrorEntry> {
  return {
    kind: 'list',
    folder: 'mirror',
    read: readMirrorState,
    refreshOne: (row, before) =>
      options.upstreamDir
        ? fromDirectory(row, before, options.upstreamDir, options.now)
        : refreshSource(row, before, { now: options.now, fetchUrl: overrideUrl(options, row.id), fetch: options.fetch }),
    material,
  };
}

function keyDirectories(options: MirrorOptions): SourceKind<'directory', DirectoryRow, DirectoryEntry> {
  return {
    kind: 'directory',
    folder: 'signature-agents',
    read: readDirectoryState,
    refreshOne: (row, before) => {
      if (options.upstreamDir) return directoryFromFile(row, before, options.upstreamDir, options.now);
      const fetchUrl = overrideUrl(options, row.id);
      return refreshDirectory(row, before, { now: options.now, ...(fetchUrl ? { fetchUrl } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) });
    },
    material: directoryMaterial,
  };
}

/** Fetches every source of records/sources.yaml, prefix lists and key directories alike. */
export async function refreshMirror(options: MirrorOptions): Promise<SourceOutcome[]> {
  const log = options.log ?? (() => {});
  const checked = checkRecords(await readRecordFiles(join(options.root, 'records'), options.root));
  if (!checked.ok) throw new BuildError(checked.problems);
  const { sources, directories } = checked.records;
  const unknown = (options.only ?? []).filter((id) => ![...sources, ...directories].some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`unknown source id: ${unknown.join(', ')} (see records/sources.yaml)`);
  const wanted = <T extends { id: string }>(rows: readonly T[]) => rows.filter((row) => !options.only || options.only.includes(row.id));
  // Sources are independent; fetching them together keeps a refresh within a minute even
  // when a few upstreams time out.
  const [lists, keys] = await Promise.all([
    refreshKind(prefixLists(options), wanted(sources), options, log),
    refreshKind(keyDirectories(options), wanted(directories), options, log),
  ]);
  // The one thing a refresh that found every list unchanged writes (docs/API.md §2.3).
  const checkedPath = join(options.root, 'state', 'checked.json');
  const checks = recordChecks(
    await readCheckedTimes(checkedPath),
    lists.filter((o) => o.accepted).map((o) => o.id),
    options.now,
    sources.map((s) => s.id),
  );
  await writeCheckedTimes(checkedPath, checks);
  return [...lists, ...keys];
}
