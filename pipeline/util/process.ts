import { errnoOf } from './errno.ts';

/**
 * True when `pid` is a running process other than this one. Leftovers named after a writer's
 * process id are only stale when that writer is gone; this process is never "another writer"
 * because it only looks for leftovers before it starts writing. A reused id keeps a stale
 * leftover a little longer, which is harmless; removing a live writer's files is not.
 */
export function isOtherLiveProcess(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errnoOf(error) === 'EPERM';
  }
}
