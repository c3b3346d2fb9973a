// The large-list run (large-list.ts) on a worker thread whose stack is small, so that the list a
// spread cannot pass there is a few tens of thousands of prefixes instead of the ~120,000 of a
// main thread: every stage still meets a list it could not spread, for a third of the work.
// test/large-list.test.ts starts it with largeListOnThread.

import { parentPort, Worker } from 'node:worker_threads';
import { workerSource } from '../../pipeline/node/worker-source.ts';

/** What the thread reports: the spread limit it measured on its own stack, and the run's upstream body size. */
export interface ThreadRun {
  limit: number;
  bodyBytes: number;
}

/**
 * The thread's stack. A spread breaks there at ~38,000 arguments (~120,000 on a main thread);
 * twice the 0.25 MB on which Node 20 cannot even load the modules, so the stages have room.
 */
const STACK_MB = 0.5;

/** Runs spreadLimit and largeListRun(limit) on a thread with a STACK_MB stack; rejects with the thread's error. */
export async function largeListOnThread(): Promise<ThreadRun> {
  const worker = new Worker(workerSource(new URL(import.meta.url)), { eval: true, resourceLimits: { stackSizeMb: STACK_MB } });
  try {
    return await new Promise<ThreadRun>((resolve, reject) => {
      worker.once('message', (message: { ok: true; run: ThreadRun } | { ok: false; error: string }) =>
        message.ok ? resolve(message.run) : reject(new Error(message.error)),
      );
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the large-list thread exited with ${code} before it reported`)));
    });
  } finally {
    await worker.terminate();
  }
}

// On the thread: measure, run, report. The stages are loaded here only, not on the main thread.
if (parentPort !== null) {
  const port = parentPort;
  try {
    const { largeListRun, spreadLimit } = await import('./large-list.ts');
    const limit = spreadLimit();
    const { bodyBytes } = await largeListRun(limit);
    port.postMessage({ ok: true, run: { limit, bodyBytes } });
  } catch (error) {
    port.postMessage({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
