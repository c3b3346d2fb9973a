// Preloaded into every test file's process by scripts/test.sh (node --import), so the run can
// end with its slowest files: at exit each process appends its wall time since it started, the
// CPU time it and the child processes it waited for used, and its file, to $TEST_FILE_TIMES.
// The runner's own events cannot give this on Node 20, which reports a file's results in file
// order rather than when the file ends. On two cores the suite is CPU-bound, so the CPU column
// is the one to bring down. Plain JavaScript: the preload runs beside tsx, not through it.

import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const out = process.env.TEST_FILE_TIMES;
const file = process.argv[1];

/** Seconds of CPU of the child processes this one waited for (Linux: /proc/self/stat), or 0 where unknown. */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): cutime and
    // cstime are fields 16 and 17, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

if (out !== undefined && out !== '' && file !== undefined && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.on('exit', () => {
    const own = process.cpuUsage();
    const cpu = (own.user + own.system) / 1e6 + childrenCpuSeconds();
    // One short line per write: appends from concurrent processes do not interleave.
    appendFileSync(out, `${(performance.now() / 1000).toFixed(1)}\t${cpu.toFixed(1)}\t${relative(process.cwd(), file)}\n`);
  });
}
