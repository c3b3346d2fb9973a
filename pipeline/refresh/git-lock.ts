import { readFile, readdir, readlink, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { errnoOf } from '../util/errno.ts';

// Why "is a git process running in this repository" and not "is the lock old": git holds
// index.lock for as long as `git commit` waits for an editor or a large `git add` runs, so no
// age is safe; and a lock left by a killed CI job is seconds old when the next step runs. A
// lock whose writer is gone is stale whatever its age, and /proc says whether it is gone.
// Where there is no /proc (macOS, Windows) nothing is guessed: the error says what to check.

export interface GitProcess {
  pid: number;
  /** Its command line. */
  args: string[];
  /** Its working folder, or null when this user may not read it. */
  cwd: string | null;
}

export interface Repository {
  /** The work tree's top folder and the git folder, both as real paths. */
  top: string;
  gitDir: string;
  /** The index lock git would create, absolute. */
  lock: string;
}

export type LockVerdict = { kind: 'stale' } | { kind: 'held'; by: GitProcess[] } | { kind: 'unknown'; reason: string };

const PROC = '/proc';

const GONE = Symbol('the process ended while it was read');

/** A /proc file of one process: its text, null when it belongs to another user, GONE when the process has ended. */
async function readProc(read: () => Promise<string>): Promise<string | null | typeof GONE> {
  try {
    return await read();
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ESRCH') return GONE;
    if (code === 'EACCES' || code === 'EPERM') return null;
    throw error;
  }
}

/** Every running git process (git and git-* programs), or null when this system has no /proc. */
export async function listGitProcesses(proc = PROC): Promise<GitProcess[] | null> {
  const names = await readdir(proc).catch(() => null);
  if (names === null || !names.includes('self')) return null;
  const found: GitProcess[] = [];
  for (const name of names.filter((n) => /^\d+$/.test(n))) {
    const comm = await readProc(() => readFile(`${proc}/${name}/comm`, 'utf8'));
    if (comm === GONE || comm === null || !/^git(-|$)/.test(comm.trim())) continue;
    const cmdline = await readProc(() => readFile(`${proc}/${name}/cmdline`, 'utf8'));
    const cwd = await readProc(() => readlink(`${proc}/${name}/cwd`));
    // A process that ended while it was read holds no lock any more.
    if (cmdline === GONE || cwd === GONE) continue;
    found.push({ pid: Number(name), args: (cmdline ?? comm.trim()).split('\0').filter(Boolean), cwd });
  }
  return found;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/**
 * Whether a git process may be working in `repo`: its working folder is inside the work tree
 * or the git folder, or an argument names a path inside them (`git -C <repo>`). A process
 * whose folder cannot be read might be, so it counts as holding the lock.
 */
function holdsRepository(candidate: GitProcess, repo: Repository): boolean {
  const cwd = candidate.cwd;
  if (cwd === null) return true;
  const inside = (path: string) => within(path, repo.top) || within(path, repo.gitDir);
  return inside(cwd) || candidate.args.some((arg) => inside(resolve(cwd, arg)));
}

/** Whether `repo`'s index lock is left over from a git process that is no longer running. */
export function judgeLock(repo: Repository, processes: readonly GitProcess[] | null): LockVerdict {
  if (processes === null) return { kind: 'unknown', reason: 'this system has no /proc to tell whether a git process is running' };
  const by = processes.filter((p) => holdsRepository(p, repo));
  return by.length > 0 ? { kind: 'held', by } : { kind: 'stale' };
}

/** The message for a lock that must not be removed automatically: what to check and what to run. */
export function lockAdvice(repo: Repository, verdict: Exclude<LockVerdict, { kind: 'stale' }>): string {
  if (verdict.kind === 'held') {
    const who = verdict.by.map((p) => `pid ${p.pid}${p.cwd === null ? ' (its folder cannot be read)' : ''}: ${p.args.join(' ')}`).join('; ');
    return `git: ${repo.lock} exists and a git process may be using ${repo.top} (${who}). Wait for it to finish or stop it, then run the refresh again; if it is not working in this repository, remove the lock with: rm '${repo.lock}'`;
  }
  return `git: ${repo.lock} exists and ${verdict.reason}. If no git process is running in ${repo.top} (check with: ps aux | grep git), remove the lock with: rm '${repo.lock}', then run the refresh again`;
}

/** The same lock file as when it was judged, so a lock a new git process made since is never removed. */
export async function lockIdentity(path: string): Promise<string | null> {
  const info = await stat(path).catch((error: unknown) => {
    if (errnoOf(error) === 'ENOENT') return null;
    throw error;
  });
  return info ? `${info.ino}:${info.mtimeMs}:${info.size}` : null;
}
