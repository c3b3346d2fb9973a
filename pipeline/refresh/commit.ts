import { simpleGit } from 'simple-git';
import type { ChangeEvent, EventLog } from '../changes/types.ts';

/** One line per kind of change, for a commit subject a maintainer can scan in git log. */
export function commitMessage(events: readonly ChangeEvent[]): string {
  if (events.length === 0) return 'refresh: rebuild with no change events';
  const parts = events.slice(0, 6).map((e) => {
    if (e.kind === 'ranges.changed') return `${e.subject.id} +${(e.added?.ipv4.length ?? 0) + (e.added?.ipv6.length ?? 0)}/-${(e.removed?.ipv4.length ?? 0) + (e.removed?.ipv6.length ?? 0)}`;
    return `${e.subject.id} ${e.kind.split('.')[1]}`;
  });
  const subject = `refresh: ${parts.join(', ')}${events.length > 6 ? `, and ${events.length - 6} more` : ''}`;
  const body = events.map((e) => `- [${e.cursor}] ${e.kind} ${e.subject.id}: ${e.summary}`).join('\n');
  return `${subject}\n\n${body}\n`;
}

/** The events recorded against the current HEAD: what a commit of this refresh adds. */
export function newestBatch(log: EventLog, head: string): ChangeEvent[] {
  if (log.last_base !== head || log.last_batch_start === null) return [];
  const start = log.last_batch_start;
  return log.events.filter((e) => e.cursor >= start);
}

/** Commits dist/ and state/ when their staged diff is not empty; returns the new commit or null. */
export async function commitRefresh(root: string, log: EventLog): Promise<string | null> {
  const git = simpleGit(root);
  const head = (await git.revparse(['HEAD'])).trim();
  await git.add(['--all', 'dist', 'state']);
  const staged = await git.diff(['--cached', '--name-only', '--', 'dist', 'state']);
  if (staged.trim() === '') return null;
  const result = await git.commit(commitMessage(newestBatch(log, head)), ['dist', 'state']);
  return result.commit || null;
}
