// Most builds change nothing (a contributor's `npm run build`, a deploy that builds before it
// serves), and finding that out by rendering and validating every document takes seconds. A build whose
// inputs, code, options and git HEAD match the last build's, whose dist/ is still exactly what it
// wrote, and whose time has not reached the first moment time alone changes what it renders,
// would write the same bytes: the CLI then stops before rendering (docs/ARCHITECTURE.md, "Build").
//
// Reads are synchronous on purpose: this runs in a command-line process with nothing else to
// do, and a few thousand small synchronous reads take a third of the time of the promise-based
// ones.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_WRITES, buildInputs } from './build-inputs.ts';

/** The project the pipeline's own code and schemas live in: a change to either renders anew. */
const CODE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CODE_INPUTS = ['pipeline', 'schemas', 'package.json', 'package-lock.json'];

const VERSION = 1;

/** Where the last build's fingerprint is kept: outside dist/ (which is served) and state/ (which is committed). */
const fingerprintFile = (root: string): string => join(root, '.cache', 'build-fingerprint.json');

/** What the last complete build saw and wrote. */
interface Fingerprint {
  version: number;
  dist: string;
  base_url: string | null;
  /** git HEAD of the root when the build ran: the change feed diffs against what it published. */
  head: string | null;
  /** sha-256 over every input file's path and digest. */
  inputs: string;
  /** sha-256 over every dist/ file's path and digest, as written. */
  output: string;
  renders_same_until: string | null;
  built_at: string;
}

export interface BuildSettings {
  root: string;
  distDir: string;
  baseUrl: string | null;
}

/** Each input file (relative path → sha-256 hex), read before the build so that an edit made while it runs is seen by the next one. */
export interface InputSnapshot {
  files: Map<string, string>;
  head: string | null;
}

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/** Every file under `path` (a file or a folder) into `into`, keyed by its path relative to `base`; a missing path adds nothing. */
function digestTree(base: string, path: string, into: Map<string, string>): void {
  let names: string[];
  try {
    names = readdirSync(path, { recursive: true, encoding: 'utf8' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'ENOTDIR') throw error;
    into.set(relative(base, path), sha256(readFileSync(path)));
    return;
  }
  for (const name of names) {
    const full = join(path, name);
    try {
      into.set(relative(base, full), sha256(readFileSync(full)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
    }
  }
}

/** One digest for a set of files, independent of the order they were read in. */
function digestOf(files: ReadonlyMap<string, string>): string {
  return sha256(
    [...files]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, digest]) => `${path}\0${digest}\n`)
      .join(''),
  );
}

function gitHead(root: string): string | null {
  try {
    return (
      execFileSync('git', ['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null
    );
  } catch {
    return null; // not a repository, no commit yet, or no git: the feed has no published base either
  }
}

export function snapshotInputs(root: string): InputSnapshot {
  const files = new Map<string, string>();
  for (const path of Object.values(buildInputs(root))) digestTree(root, path, files);
  const code = new Map<string, string>();
  for (const path of CODE_INPUTS) digestTree(CODE_ROOT, join(CODE_ROOT, path), code);
  // Named apart from the root's files, which may live in another folder with the same layout.
  for (const [path, digest] of code) files.set(`code:${path}`, digest);
  return { files, head: gitHead(root) };
}

function distDigest(distDir: string): string {
  const files = new Map<string, string>();
  digestTree(distDir, distDir, files);
  return digestOf(new Map([...files].map(([path, digest]) => [`/${path.split('\\').join('/')}`, digest])));
}

function readFingerprint(root: string): Fingerprint | null {
  try {
    const parsed = JSON.parse(readFileSync(fingerprintFile(root), 'utf8')) as Fingerprint;
    return parsed.version === VERSION ? parsed : null;
  } catch {
    return null; // none yet, or unreadable: a full build writes a new one
  }
}

export type Reuse = { reusable: true; builtAt: string; until: string | null } | { reusable: false; reason: string };

/**
 * Whether a build now would write exactly what dist/ holds. The reason names the first
 * difference found, for the build's progress line.
 */
export function reusableBuild(settings: BuildSettings, inputs: InputSnapshot, now: string): Reuse {
  const last = readFingerprint(settings.root);
  if (last === null) return { reusable: false, reason: 'no earlier build recorded' };
  if (last.dist !== resolve(settings.distDir) || last.base_url !== settings.baseUrl) return { reusable: false, reason: 'built with other options' };
  if (last.head !== inputs.head) return { reusable: false, reason: 'git HEAD moved' };
  if (last.inputs !== digestOf(inputs.files)) return { reusable: false, reason: 'records, state or code changed' };
  if (last.renders_same_until !== null && Date.parse(now) >= Date.parse(last.renders_same_until))
    return { reusable: false, reason: `what the build renders changes with time from ${last.renders_same_until}` };
  if (last.output !== distDigest(settings.distDir)) return { reusable: false, reason: 'dist/ differs from what the last build wrote' };
  return { reusable: true, builtAt: last.built_at, until: last.renders_same_until };
}

/**
 * Records a complete build. The files the build itself rewrites among its inputs (the event
 * log) are read again; every other input keeps the digest read before the build began.
 */
export function recordBuild(
  settings: BuildSettings,
  inputs: InputSnapshot,
  result: { files: readonly { path: string; bytes: Uint8Array }[]; rendersSameUntil: string | null },
  builtAt: string,
): void {
  const files = new Map(inputs.files);
  for (const path of BUILD_WRITES) digestTree(settings.root, buildInputs(settings.root)[path], files);
  const fingerprint: Fingerprint = {
    version: VERSION,
    dist: resolve(settings.distDir),
    base_url: settings.baseUrl,
    head: inputs.head,
    inputs: digestOf(files),
    output: digestOf(new Map(result.files.map((file) => [file.path, sha256(file.bytes)]))),
    renders_same_until: result.rendersSameUntil,
    built_at: builtAt,
  };
  const file = fingerprintFile(settings.root);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(fingerprint, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}
