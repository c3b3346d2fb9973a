// Tool calls on worker threads, so that no call holds the event loop that answers documents,
// and a call past its deadline is stopped (the thread is ended) instead of running on.
//
// One call per thread at a time: the calls are CPU-bound, so more would only interleave them.
// Calls wait in one FIFO queue, bounded; a full queue answers `busy` at once.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DocumentStore } from '../http/store.ts';
import { toolSnapshotFrom, type ToolSnapshot } from '../http/tool-data.ts';
import { notReady, type ToolJob, type ToolRun, type ToolRunner } from '../tools/registry/call.ts';
import { workerSource } from './worker-source.ts';

/** Pool → thread: a job, with the documents when the thread holds another build (or none). */
export interface JobMessage {
  id: number;
  job: ToolJob;
  snapshot: ToolSnapshot | null;
}

/** Thread → pool: the job's result; id 0 with no run says the thread has loaded. */
export interface RunMessage {
  id: number;
  run: ToolRun | null;
}

export interface ToolPoolOptions {
  /** Threads; default: one per CPU, at most 4. */
  threads?: number;
  /** How long one call may run on its thread before the thread is ended. */
  deadlineMs?: number;
  /** Calls that may wait for a thread; one more is answered `busy`. */
  maxQueued?: number;
  /** Heap ceiling per thread: an input that would use more ends that thread, not the server. */
  maxHeapMb?: number;
  log?: (line: string) => void;
}

const DEFAULT_DEADLINE_MS = 5_000;
const DEFAULT_MAX_QUEUED = 256;
const DEFAULT_MAX_HEAP_MB = 512;

interface Waiting {
  job: ToolJob;
  snapshot: ToolSnapshot;
  resolve: (run: ToolRun) => void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** ETag key of the documents this thread holds. */
  key: string | null;
  current: { id: number; waiting: Waiting; timer: NodeJS.Timeout } | null;
}

// An absolute URL, so the working directory does not matter.
const BOOTSTRAP = workerSource(new URL('./tool-worker.ts', import.meta.url));

/** After a thread fails to start, no new one is tried for this long (so a broken install cannot spin). */
const RESTART_PAUSE_MS = 1_000;

function cannotStart(message: string): ToolRun {
  return { status: 'failed', message: 'the server could not start a thread to run this call', detail: message };
}

/** A job whose input could not be handed to a thread: the input's fault, answered as a refusal. */
function uncopyable(tool: string, reason: string): ToolRun {
  return {
    status: 'refused',
    field: 'arguments',
    message: `the input of ${tool} cannot be handed to a tool thread (${reason}).`,
    accepted: "parameters that are strings or lists of strings, as the tool's input schema says",
  };
}

function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

export function toolPool(store: DocumentStore, options: ToolPoolOptions = {}): ToolRunner & { threads: number } {
  const size = options.threads ?? defaultThreads();
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  const log = options.log ?? (() => {});
  const threads: (Thread | null)[] = Array.from({ length: size }, () => null);
  const queue: Waiting[] = [];
  let nextId = 1;
  let closed = false;
  let startFailure: { until: number; message: string } | null = null;

  const unavailable = (reason: 'deadline' | 'busy', message: string): ToolRun => ({ status: 'unavailable', reason, message, retryAfterSeconds: 1 });

  function spawn(slot: number): Thread {
    // The thread inherits this process's execArgv, so the loader that runs this file runs it too.
    const worker = new Worker(BOOTSTRAP, { eval: true, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
    const thread: Thread = { worker, ready: false, key: null, current: null };
    worker.on('message', (message: RunMessage) => {
      if (message.run === null) {
        thread.ready = true;
      } else if (thread.current?.id === message.id) {
        clearTimeout(thread.current.timer);
        const { waiting } = thread.current;
        thread.current = null;
        waiting.resolve(message.run);
      }
      pump();
    });
    // An uncaught error or a heap over its ceiling ends the thread; its call fails, a new thread replaces it.
    let lastError = 'it exited';
    worker.on('error', (error) => {
      lastError = error.message;
      log(`tools: a tool thread failed: ${error.message}`);
    });
    worker.on('exit', () => {
      if (threads[slot] === thread) threads[slot] = null;
      if (!thread.ready && !closed) {
        startFailure = { until: Date.now() + RESTART_PAUSE_MS, message: `a tool thread could not start (${lastError})` };
        for (const waiting of queue.splice(0)) waiting.resolve(cannotStart(startFailure.message));
      }
      if (thread.current !== null) {
        clearTimeout(thread.current.timer);
        thread.current.waiting.resolve({
          status: 'failed',
          message: 'the thread running this call ended (out of memory or a fault)',
          detail: `tools: thread ended during ${thread.current.waiting.job.tool}`,
        });
        thread.current = null;
      }
      pump();
    });
    threads[slot] = thread;
    return thread;
  }

  function dispatch(thread: Thread, slot: number, waiting: Waiting): void {
    const id = nextId++;
    const timer = setTimeout(() => {
      if (thread.current?.id !== id) return;
      thread.current = null;
      threads[slot] = null;
      void thread.worker.terminate();
      log(`tools: ${waiting.job.tool} ran past its ${deadlineMs} ms deadline; its thread was ended`);
      waiting.resolve(
        unavailable(
          'deadline',
          `The call ran past its deadline of ${deadlineMs} ms and was stopped. Send less in one call (fewer rules, paths or addresses) or split it.`,
        ),
      );
      pump();
    }, deadlineMs);
    thread.current = { id, waiting, timer };
    const message: JobMessage = { id, job: waiting.job, snapshot: thread.key === waiting.snapshot.key ? null : waiting.snapshot };
    try {
      thread.worker.postMessage(message);
    } catch (error) {
      // The job cannot be copied to the thread (an argument nested thousands of levels deep
      // overflows the structured clone). dispatch runs inside the threads' 'message' listeners,
      // so a throw here would end the process; the call is answered instead, and the thread,
      // which received nothing, stays free for the next one.
      clearTimeout(timer);
      thread.current = null;
      waiting.resolve(uncopyable(waiting.job.tool, (error as Error).message));
      return;
    }
    thread.key = waiting.snapshot.key;
  }

  function pump(): void {
    if (closed) return;
    for (let slot = 0; slot < threads.length && queue.length > 0; slot++) {
      if (threads[slot] === null && startFailure !== null && Date.now() < startFailure.until) continue;
      const thread = threads[slot] ?? spawn(slot);
      // A loop, not an if: a job that could not be handed over leaves the thread free for the next.
      while (thread.ready && thread.current === null && queue.length > 0) dispatch(thread, slot, queue.shift()!);
    }
  }

  return {
    threads: size,
    async run(job) {
      const snapshot = await toolSnapshotFrom(store);
      if (snapshot === null) return notReady();
      if (closed) return unavailable('busy', 'The server is shutting down.');
      if (startFailure !== null && Date.now() < startFailure.until && threads.every((t) => t === null)) return cannotStart(startFailure.message);
      if (queue.length >= maxQueued)
        return unavailable('busy', `${maxQueued} tool call${maxQueued === 1 ? ' is' : 's are'} already waiting; try again in a second.`);
      return new Promise<ToolRun>((resolve) => {
        queue.push({ job, snapshot, resolve });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const waiting of queue.splice(0)) waiting.resolve(unavailable('busy', 'The server is shutting down.'));
      await Promise.all(threads.map((thread) => thread?.worker.terminate()));
    },
  };
}
