// Waiting for a server to be at rest before it is measured. After a load that made garbage (the
// warm-up's tool calls), V8 goes on collecting for seconds once the load stops, and a server
// measured meanwhile answered documents a fifth slower on this machine: a figure of that
// moment, not of the server. Read from /proc, so Linux only; elsewhere nothing is waited for.
import { readFile } from 'node:fs/promises';

/** utime + stime, in clock ticks, out of /proc/<pid>/stat text; null if it is not such text. */
export function cpuTicksFromStat(stat: string): number | null {
  // The command name, in parentheses, may hold spaces and parentheses: fields are read after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5), counted from 1 with the pid and the name as the first two.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return stat.includes(')') && Number.isInteger(utime) && Number.isInteger(stime) ? utime + stime : null;
}

async function cpuTicks(pid: number): Promise<number | null> {
  try {
    return cpuTicksFromStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** A window of WINDOW_MS in which a process used at most QUIET_TICKS ticks (at 100 per second, 4 % of a CPU) counts as quiet. */
const WINDOW_MS = 500;
const QUIET_TICKS = 2;

/**
 * Resolves once every process has had two quiet windows in a row, or after `maxMs`; answers
 * how long it waited, and whether all came to rest.
 */
export async function settle(pids: readonly number[], maxMs = 20_000): Promise<{ waitedMs: number; quiet: boolean }> {
  const started = performance.now();
  let previous = await Promise.all(pids.map(cpuTicks));
  if (previous.some((ticks) => ticks === null)) return { waitedMs: 0, quiet: false };
  let quietWindows = 0;
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const now = await Promise.all(pids.map(cpuTicks));
    const quiet = now.every((ticks, i) => ticks !== null && ticks - (previous[i] ?? 0) <= QUIET_TICKS);
    previous = now;
    quietWindows = quiet ? quietWindows + 1 : 0;
    if (quietWindows === 2) return { waitedMs: Math.round(performance.now() - started), quiet: true };
  }
  return { waitedMs: Math.round(performance.now() - started), quiet: false };
}
