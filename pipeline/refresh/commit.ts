import { realpath, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import type { ChangeEvent, EventLog } from '../changes/types.ts';
import { messageOf } from '../util/errno.ts';
import { judgeLock, listGitProcesses, lockAdvice, lockIdentity, type Repository } from './git-lock.ts';

/** One line per kind of change, for a commit subject a maintainer can scan in git log. */
function commitMessage(events: readonly ChangeEvent[]): string {
  if (events.length === 0) return 'refresh: rebuild with no change events';
  const parts = events.slice(0, 6).map((e) => {
    if (e.kind === 'ranges.changed')
      return `${e.subject.id} +${(e.added_count?.ipv4 ?? 0) + (e.added_count?.ipv6 ?? 0)}/-${(e.removed_count?.ipv4 ?? 0) + (e.removed_count?.ipv6 ?? 0)}`;
    return `${e.subject.id} ${e.kind.split('.')[1]}`;
  });
  const subject = `refresh: ${parts.join(', ')}${events.length > 6 ? `, and ${events.length - 6} more` : ''}`;
  const body = events.map((e) => `- [${e.cursor}] ${e.kind} ${e.subject.id}: ${e.summary}`).join('\n');
  return `${subject}\n\n${body}\n`;
}

/** The events recorded against the current HEAD: what a commit of this refresh adds. */
function newestBatch(log: EventLog, head: string): ChangeEvent[] {
  if (log.last_base !== head || log.last_batch_start === null) return [];
  const start = log.last_batch_start;
  return log.events.filter((e) => e.cursor >= start);
}

async function commitOnce(git: SimpleGit, log: EventLog): Promise<string | null> {
  const head = (await git.revparse(['HEAD'])).trim();
  await git.add(['--all', 'dist', 'state']);
  const staged = await git.diff(['--cached', '--name-only', '--', 'dist', 'state']);
  if (staged.trim() === '') return null;
  const result = await git.commit(commitMessage(newestBatch(log, head)), ['dist', 'state']);
  return result.commit || null;
}

// git's own words when index.lock exists: "Unable to create '<path>/index.lock': File exists."
const INDEX_LOCKED = /index\.lock'?: File exists/;

async function repositoryOf(git: SimpleGit, root: string): Promise<Repository> {
  const path = async (args: string[]) => resolve(root, (await git.revparse(args)).trim());
  return {
    // Real paths, because /proc reports a process's folder with every symlink resolved.
    top: await realpath(await path(['--show-toplevel'])),
    gitDir: await realpath(await path(['--absolute-git-dir'])),
    lock: await path(['--git-path', 'index.lock']),
  };
}

/** The refresh cannot commit for a reason the operator must settle; the message says what to do. */
export class CommitBlocked extends Error {
  override name = 'CommitBlocked';
}

/**
 * Clears an index.lock that a killed git process left, so one killed refresh does not fail
 * every later one. Removes it only when no git process may be working in the repository and
 * the file is still the one judged; otherwise throws with what to check and what to run.
 */
async function clearStaleIndexLock(git: SimpleGit, root: string, note: (line: string) => void): Promise<void> {
  const repo = await repositoryOf(git, root);
  const judged = await lockIdentity(repo.lock);
  if (judged === null) return; // released since git complained: just try again
  const verdict = judgeLock(repo, await listGitProcesses());
  if (verdict.kind !== 'stale') throw new CommitBlocked(lockAdvice(repo, verdict));
  if ((await lockIdentity(repo.lock)) !== judged) return;
  await rm(repo.lock, { force: true });
  note(`git: removed ${repo.lock}, left by a git process that is no longer running; committing again`);
}

/**
 * Commits dist/ and state/ when their staged diff is not empty; returns the new commit or null.
 * A stale index.lock (see git-lock.ts) is removed and the commit tried once more.
 */
export async function commitRefresh(root: string, log: EventLog, note: (line: string) => void = () => {}): Promise<string | null> {
  const git = simpleGit(root);
  try {
    return await commitOnce(git, log);
  } catch (error) {
    if (!INDEX_LOCKED.test(messageOf(error))) throw error;
    await clearStaleIndexLock(git, root, note);
    return commitOnce(git, log);
  }
}
