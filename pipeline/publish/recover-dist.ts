import { readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { etagOf } from '../util/sha256.ts';
import { LEDGER_JSON, LEDGER_TXT } from '../ledger/ledger.ts';
import { isRecord } from '../util/guards.ts';
import { errnoOf } from '../util/errno.ts';
import { isOtherLiveProcess } from '../util/process.ts';
import { syncDirectory } from '../util/atomic-file.ts';
import { parseLeftover, type LeftoverRole } from './write-dist.ts';

interface Leftover {
  path: string;
  role: LeftoverRole;
  /** The process that wrote it. */
  pid: number;
}

/** What a recovery of one dist folder does, decided by looking only. */
export interface RecoveryPlan {
  dir: string;
  /** Renamed to `dir`: the complete tree a stopped build left when it took `dir` away. */
  restore: Leftover | null;
  /** Leftovers of stopped builds that are not needed. */
  remove: Leftover[];
  /** Leftovers of builds still running; never touched. */
  running: Leftover[];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return false;
      throw error;
    },
  );
}

/**
 * True when `dir` holds a documents.json that parses and every document it lists with the
 * listed size and ETag, plus documents.txt. writeDist writes the ledger last, so a staging
 * tree that passes holds everything; a tree cut short, or one half removed, does not.
 */
export async function isCompleteTree(dir: string): Promise<boolean> {
  let ledger: unknown;
  try {
    ledger = JSON.parse(await readFile(join(dir, LEDGER_JSON), 'utf8'));
  } catch {
    return false; // absent or cut short: not a finished tree, which is the answer sought
  }
  if (!isRecord(ledger) || !Array.isArray(ledger['documents']) || !(await exists(join(dir, LEDGER_TXT)))) return false;
  for (const entry of ledger['documents']) {
    if (!isRecord(entry) || typeof entry['path'] !== 'string') return false;
    const bytes = await readFile(join(dir, entry['path'])).catch(() => null);
    if (bytes === null || bytes.length !== entry['bytes']) return false;
    if (entry['etag'] !== null && etagOf(bytes) !== entry['etag']) return false;
  }
  return true;
}

async function listLeftovers(dir: string): Promise<Leftover[]> {
  const parent = dirname(dir);
  const names = await readdir(parent).catch((error: unknown) => {
    if (errnoOf(error) === 'ENOENT') return [];
    throw error;
  });
  return names.sort().flatMap((name) => {
    const parsed = parseLeftover(dir, name);
    return parsed ? [{ path: join(parent, name), ...parsed }] : [];
  });
}

/** A `next` tree is newer than any `old` one; among trees of one role, the latest ledger wins. */
async function newestComplete(leftovers: readonly Leftover[]): Promise<Leftover | null> {
  const complete: { leftover: Leftover; written: number }[] = [];
  for (const leftover of leftovers) {
    if (await isCompleteTree(leftover.path)) complete.push({ leftover, written: (await stat(join(leftover.path, LEDGER_JSON))).mtimeMs });
  }
  complete.sort((a, b) => (a.leftover.role !== b.leftover.role ? (a.leftover.role === 'next' ? -1 : 1) : b.written - a.written));
  return complete[0]?.leftover ?? null;
}

/**
 * Decides what to do with the folders a stopped writeDist left beside `dir`. The kill points:
 *   writing the new tree          dir whole, partial `next`              → keep dir, remove `next`
 *   new tree written, not swapped dir whole, complete `next`             → keep dir, remove `next`
 *   between the two renames       no dir, complete `next`, whole `old`   → restore `next`
 *   after the second rename       dir whole (new), `old` whole or partly removed → remove `old`
 * So when dir exists it is always the tree to keep; when it does not, the newest complete
 * `next` is the build that was finishing, and a complete `old` is the previous build.
 */
export async function planDistRecovery(dir: string): Promise<RecoveryPlan> {
  const leftovers = await listLeftovers(dir);
  const running = leftovers.filter((l) => isOtherLiveProcess(l.pid));
  const stale = leftovers.filter((l) => !running.includes(l));
  const restore = running.length === 0 && !(await exists(dir)) ? await newestComplete(stale) : null;
  return { dir, restore, remove: stale.filter((l) => l !== restore), running };
}

/** One line saying what a plan does, or null when there is nothing to do. */
export function describePlan(plan: RecoveryPlan): string | null {
  const name = (l: Leftover) => basename(l.path);
  const parts: string[] = [];
  if (plan.restore) {
    const what = plan.restore.role === 'next' ? 'the new tree' : 'the previous tree';
    parts.push(`restored ${plan.dir} from ${name(plan.restore)}, ${what} left by a build (pid ${plan.restore.pid}) stopped while swapping it in`);
  }
  if (plan.remove.length > 0) parts.push(`removed ${plan.remove.map(name).join(', ')} left by a stopped build`);
  if (plan.running.length > 0 && parts.length > 0) parts.push(`left ${plan.running.map(name).join(', ')} alone (its build is running)`);
  return parts.length > 0 ? `dist: ${parts.join('; ')}` : null;
}

/**
 * Puts a dist folder back in order after a build was killed mid-swap, and removes what stopped
 * builds left beside it. Call before reading `dir` (a build, before it reads the previous
 * ledger, so last_modified dates survive; the server, before it loads the tree). Returns one
 * line saying what it did, or null when there was nothing to recover.
 */
export async function recoverDist(dir: string): Promise<string | null> {
  const plan = await planDistRecovery(dir);
  if (plan.restore) await rename(plan.restore.path, dir);
  for (const leftover of plan.remove) await rm(leftover.path, { recursive: true, force: true });
  if (plan.restore || plan.remove.length > 0) await syncDirectory(dirname(dir));
  return describePlan(plan);
}
