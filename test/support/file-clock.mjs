// Preloaded into every test file's process by scripts/test.sh (node --import), so the run can
// end with its slowest files: at exit each process appends its wall time since it started, and
// its file, to $TEST_FILE_TIMES. The runner's own events cannot give this on Node 20, which
// reports a file's results in file order rather than when the file ends. Plain JavaScript: the
// preload runs beside tsx, not through it.

import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

const out = process.env.TEST_FILE_TIMES;
const file = process.argv[1];
if (out !== undefined && out !== '' && file !== undefined && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.on('exit', () => {
    // One short line per write: appends from concurrent processes do not interleave.
    appendFileSync(out, `${(performance.now() / 1000).toFixed(1)}\t${relative(process.cwd(), file)}\n`);
  });
}
