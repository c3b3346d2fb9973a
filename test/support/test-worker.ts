// One of npm test's worker processes (scripts/test.sh starts several under `node --test`). A worker
// takes the next test file from the run's queue, imports it inside a suite of its own, and takes
// the next one when that suite has ended. A file's top-level hooks belong to its suite, so they
// run around its own tests only, and the modules the files share load once per worker instead of
// once per file: starting node and tsx and loading the pipeline cost 1.5-2 s of CPU per process,
// more than many files spend testing (docs/ARCHITECTURE.md §6). Taking files one at a time, the
// slowest first, keeps the workers busy until the queue is empty. Each file stays runnable alone
// with `node --import tsx --test <file>`.
//
// The queue is a folder ($CRAWLER_INDEX_TEST_QUEUE): `files` lists the files in the order to take
// them; a worker owns file i once it has created `taken-i` (exclusive create, so two workers
// never take the same file). As each file ends, the worker appends its wall time, the CPU it used
// (its threads and the processes it waited for) and its name to `times`; at exit it appends its
// own total under the name `(worker)`, so the run can print its slowest files and all its CPU.

import { AsyncResource } from 'node:async_hooks';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, describe } from 'node:test';
import { pathToFileURL } from 'node:url';

function queueFolder(): string {
  const folder = process.env.CRAWLER_INDEX_TEST_QUEUE;
  if (folder === undefined || folder === '') {
    throw new Error('test/support/test-worker.ts runs under scripts/test.sh, which names its queue in $CRAWLER_INDEX_TEST_QUEUE');
  }
  return folder;
}
const queue = queueFolder();
const files = readFileSync(join(queue, 'files'), 'utf8')
  .split('\n')
  .filter((line) => line !== '');
let cursor = 0;

/** The next file no worker has taken yet, now this worker's, or undefined once all are taken. */
function takeNext(): string | undefined {
  for (; cursor < files.length; cursor++) {
    try {
      closeSync(openSync(join(queue, `taken-${cursor}`), 'wx'));
      return files[cursor++];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return undefined;
}

/** Seconds of CPU of the child processes this one waited for (Linux: /proc/self/stat), or 0 where unknown. */
function childrenCpuSeconds(): number {
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

interface Reading {
  wall: number;
  cpu: number;
}

function read(): Reading {
  const own = process.cpuUsage();
  return { wall: performance.now() / 1000, cpu: (own.user + own.system) / 1e6 + childrenCpuSeconds() };
}

function record(name: string, since: Reading): void {
  const now = read();
  // One short line per write: appends from concurrent workers do not interleave.
  appendFileSync(join(queue, 'times'), `${(now.wall - since.wall).toFixed(1)}\t${(now.cpu - since.cpu).toFixed(1)}\t${name}\n`);
}

// The next file's suite must be a top-level one, not a child of the suite that just ended:
// registering it through a function bound here, outside every test, gives it the root as parent.
const atTopLevel = AsyncResource.bind((then: () => void) => then());

function runNext(): void {
  const file = takeNext();
  if (file === undefined) return;
  describe(file, async () => {
    const started = read();
    try {
      await import(pathToFileURL(resolve(file)).href);
    } catch (error) {
      // A file that cannot even load fails as its suite; the worker goes on with the queue.
      record(file, started);
      atTopLevel(runNext);
      throw error;
    }
    // Registered after the file's own hooks, so the file's teardown is inside its time.
    after(() => {
      record(file, started);
      atTopLevel(runNext);
    });
  });
}

const born = { wall: 0, cpu: 0 };
process.on('exit', () => record('(worker)', born));
runNext();
