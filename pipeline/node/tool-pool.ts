// Tool calls on worker threads, so that no call holds the event loop that answers documents,
// and a call past its deadline is stopped (the thread is ended) instead of running on.
//
// An A2A message in words is work of the same kind (tools/registry/message-call.ts): reading it
// needs the tools' data, which only these threads hold, and it waits in the lane its text's size
// gives.
//
// One call per thread at a time: the calls are CPU-bound, so more would only interleave them.
// Calls wait in two FIFO queues, one per lane (node/tool-lanes.ts), each bounded; a full queue
// answers `busy` at once. Separate lanes rather than per-client fairness or a cost budget
// (docs/API.md §8.1, "Tool calls: lanes and queues"): the cost of a call is known from its input
// before it runs, and one reserved thread is enough for the small calls, which take well under
// a millisecond, while the large ones cannot take it, however many are sent. The general
// threads take large calls first and small ones when no large call waits; the reserved thread
// takes small calls only.
//
// Each thread builds the tools' data (classifier, prefix index) for a build when it starts and
// when a new build is prepared, before it takes a call on that build: a call's deadline counts
// the call alone, however long a large prefix list takes to index. Calls that arrive meanwhile
// wait in their queue.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DocumentStore } from '../http/store.ts';
import { toolSnapshotFrom, type ToolSnapshot } from '../http/tool-data.ts';
import { notReady, type ToolRunner } from '../tools/registry/runner.ts';
import { LIGHT_INPUT_CHARS, laneOf, type Lane } from './tool-lanes.ts';
import { KEPT_BUILDS, messageNotRun, type FromThread, type NotRun, notRunResult, type ToThread, type Work, type WorkResult } from './tool-messages.ts';
import { REUSED_MIN_BYTES } from '../util/answer-buffers.ts';
import { workerEntry, workerSource } from './worker-source.ts';

export interface ToolPoolOptions {
  /** Threads that run any call, large ones first; default: one per CPU but one, at least 1 and at most 4. */
  threads?: number;
  /** Threads that run only light calls, so that a small call never waits behind large ones; default 1. */
  lightThreads?: number;
  /** How long one call may run on its thread before the thread is ended. */
  deadlineMs?: number;
  /** Light calls that may wait for a thread; one more is answered `busy`. */
  maxQueued?: number;
  /** Heavy calls that may wait for a thread; one more is answered `busy`. Each holds at most one request body (1 MiB). */
  maxQueuedHeavy?: number;
  /** How long a thread may take to build the tools' data for one build; past it, calls on that build answer `not_ready`. */
  buildDeadlineMs?: number;
  /** Heap ceiling per thread: an input that would use more ends that thread, not the server. */
  maxHeapMb?: number;
  log?: (line: string) => void;
}

const DEFAULT_DEADLINE_MS = 5_000;
const DEFAULT_MAX_QUEUED = 256;
const DEFAULT_MAX_QUEUED_HEAVY = 64;
const DEFAULT_BUILD_DEADLINE_MS = 120_000;
const DEFAULT_MAX_HEAP_MB = 512;
/**
 * Each thread's young generation. A large call (verify of 500 addresses) makes megabytes that
 * die when it ends; in V8's default for a thread (about 16 MB in use) they were still alive at
 * a scavenge every third call and were promoted, and the old generation was collected every
 * 24th call. With 64 MB no call's objects reach the old generation, and the threads answered
 * such calls about a third faster (docs/API.md §8.1). Memory is taken only as it is used.
 */
const YOUNG_GENERATION_MB = 64;

interface Waiting {
  work: Work;
  snapshot: ToolSnapshot;
  settle: (result: WorkResult) => void;
}

function settleNotRun(waiting: Waiting, run: NotRun): void {
  waiting.settle(notRunResult(waiting.work, run));
}

/** What the log calls a work: its tool, or the message it routes. */
function nameOf(work: Work): string {
  return work.kind === 'tool' ? work.job.tool : 'an A2A message';
}

interface Thread {
  worker: Worker;
  /** `any` threads take heavy calls first, then light ones; `light` threads take light calls only. */
  takes: 'any' | 'light';
  ready: boolean;
  /** Keys of the builds whose data this thread holds, oldest first (at most KEPT_BUILDS). */
  built: string[];
  building: { key: string; timer: NodeJS.Timeout } | null;
  current: { id: number; waiting: Waiting; timer: NodeJS.Timeout } | null;
}

// An absolute URL, so the working directory does not matter.
const BOOTSTRAP = workerSource(workerEntry('tool-worker', import.meta.url));

/** After a thread fails to start, no new one is tried for this long (so a broken install cannot spin). */
const RESTART_PAUSE_MS = 1_000;

/** Builds whose data could not be made, remembered so that their calls are answered at once. */
const REMEMBERED_FAILURES = 8;

function cannotStart(message: string): NotRun {
  return { status: 'failed', message: 'the server could not start a thread to run this call', detail: message };
}

/** A job whose input could not be handed to a thread: the input's fault, answered as a refusal. */
function uncopyable(work: Work, reason: string): NotRun {
  return {
    status: 'refused',
    field: 'arguments',
    message: `the input of ${nameOf(work)} cannot be handed to a tool thread (${reason}).`,
    accepted: "parameters that are strings or lists of strings, as the tool's input schema says",
  };
}

/**
 * One general thread per CPU but one (at least 1, at most 4): with the small calls' thread the
 * pool then has as many threads as CPUs, so that while large calls keep every general thread
 * busy the main thread (documents, reading requests) and a small call still find a CPU. Two
 * general threads on a 2-core machine took the p99 of classify under a flood of large calls
 * from tens to hundreds of milliseconds, for no more large calls answered.
 */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A ToolRunner over worker threads; `prepare` builds a coming build's data on every thread before it is served. */
export interface ToolPool extends ToolRunner {
  prepare(next: DocumentStore): Promise<void>;
  /** Transfers the buffers of sent answers back to a thread, which writes later answers into them (util/answer-buffers.ts). */
  release(sent: readonly Uint8Array[]): void;
}

export function toolPool(store: DocumentStore, options: ToolPoolOptions = {}): ToolPool {
  const general = options.threads ?? defaultThreads();
  const light = options.lightThreads ?? 1;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const buildDeadlineMs = options.buildDeadlineMs ?? DEFAULT_BUILD_DEADLINE_MS;
  const maxQueued: Record<Lane, number> = { light: options.maxQueued ?? DEFAULT_MAX_QUEUED, heavy: options.maxQueuedHeavy ?? DEFAULT_MAX_QUEUED_HEAVY };
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  const log = options.log ?? (() => {});
  const takes = (slot: number): Thread['takes'] => (slot < general ? 'any' : 'light');
  const threads: (Thread | null)[] = Array.from({ length: general + light }, () => null);
  const queues: Record<Lane, Waiting[]> = { light: [], heavy: [] };
  /** The build the threads should hold: the one served, or the one being prepared. */
  let latest: ToolSnapshot | null = null;
  const failedBuilds = new Map<string, NotRun>();
  let preparing: { key: string; resolve: () => void }[] = [];
  let nextId = 1;
  /** Which thread the next buffers given back go to: each in turn. */
  let nextReuse = 0;
  let closed = false;
  let startFailure: { until: number; message: string } | null = null;

  const unavailable = (reason: 'deadline' | 'busy', message: string): NotRun => ({ status: 'unavailable', reason, message, retryAfterSeconds: 1 });
  const waitingCalls = () => [...queues.light.splice(0), ...queues.heavy.splice(0)];

  function buildFailed(key: string, run: NotRun): void {
    failedBuilds.set(key, run);
    for (const old of failedBuilds.keys()) if (failedBuilds.size > REMEMBERED_FAILURES) failedBuilds.delete(old);
  }

  /** Resolves each prepare() whose build every live thread now holds (or that cannot be built). */
  function settlePreparing(): void {
    preparing = preparing.filter((waiter) => {
      const done = closed || failedBuilds.has(waiter.key) || threads.every((t) => t === null || t.built.includes(waiter.key));
      if (done) waiter.resolve();
      return !done;
    });
  }

  function spawn(slot: number): Thread {
    // The thread inherits this process's execArgv, so the loader that runs this file runs it too.
    const worker = new Worker(BOOTSTRAP, { eval: true, resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    const thread: Thread = { worker, takes: takes(slot), ready: false, built: [], building: null, current: null };
    worker.on('message', (message: FromThread) => {
      switch (message.kind) {
        case 'loaded':
          thread.ready = true;
          break;
        case 'built':
          if (thread.building?.key !== message.key) break;
          clearTimeout(thread.building.timer);
          thread.building = null;
          if (message.error === null) {
            thread.built = [...thread.built, message.key].slice(-KEPT_BUILDS);
          } else {
            log(`tools: the tools' data could not be built: ${message.error}`);
            buildFailed(message.key, { status: 'failed', message: "the tools' data of this build could not be built", detail: message.error });
          }
          settlePreparing();
          break;
        case 'done':
          if (thread.current?.id !== message.id) break;
          clearTimeout(thread.current.timer);
          {
            const { waiting } = thread.current;
            thread.current = null;
            waiting.settle(message.result);
          }
          break;
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
        for (const waiting of waitingCalls()) settleNotRun(waiting, cannotStart(startFailure.message));
      }
      if (thread.building !== null) {
        clearTimeout(thread.building.timer);
        buildFailed(thread.building.key, {
          status: 'failed',
          message: "the thread building the tools' data of this build ended (out of memory or a fault)",
          detail: `tools: thread ended while building: ${lastError}`,
        });
        thread.building = null;
      }
      if (thread.current !== null) {
        clearTimeout(thread.current.timer);
        settleNotRun(thread.current.waiting, {
          status: 'failed',
          message: 'the thread running this call ended (out of memory or a fault)',
          detail: `tools: thread ended during ${nameOf(thread.current.waiting.work)}`,
        });
        thread.current = null;
      }
      settlePreparing();
      pump();
    });
    threads[slot] = thread;
    return thread;
  }

  /** Sends a build's documents to a thread; it takes no call until it has built their data. */
  function build(thread: Thread, slot: number, snapshot: ToolSnapshot): void {
    const { key } = snapshot;
    const timer = setTimeout(() => {
      if (thread.building?.key !== key) return;
      thread.building = null;
      threads[slot] = null;
      void thread.worker.terminate();
      const message = `Building the tools' data of this build took more than ${buildDeadlineMs} ms, so no tool call can run on it; the operator has to publish a smaller build.`;
      log(`tools: ${message}`);
      buildFailed(key, { status: 'unavailable', reason: 'not-ready', message, retryAfterSeconds: 60 });
      settlePreparing();
      pump();
    }, buildDeadlineMs);
    thread.building = { key, timer };
    const message: ToThread = { kind: 'build', snapshot };
    thread.worker.postMessage(message);
  }

  function dispatch(thread: Thread, slot: number, waiting: Waiting): void {
    const id = nextId++;
    const timer = setTimeout(() => {
      if (thread.current?.id !== id) return;
      thread.current = null;
      threads[slot] = null;
      void thread.worker.terminate();
      log(`tools: ${nameOf(waiting.work)} ran past its ${deadlineMs} ms deadline; its thread was ended`);
      settleNotRun(
        waiting,
        unavailable(
          'deadline',
          `The call ran past its deadline of ${deadlineMs} ms and was stopped. Send less in one call (fewer rules, paths or addresses) or split it.`,
        ),
      );
      pump();
    }, deadlineMs);
    thread.current = { id, waiting, timer };
    const message: ToThread = { kind: 'job', id, key: waiting.snapshot.key, work: waiting.work };
    try {
      thread.worker.postMessage(message);
    } catch (error) {
      // The job cannot be copied to the thread (an argument nested thousands of levels deep
      // overflows the structured clone). dispatch runs inside the threads' 'message' listeners,
      // so a throw here would end the process; the call is answered instead, and the thread,
      // which received nothing, stays free for the next one.
      clearTimeout(timer);
      thread.current = null;
      settleNotRun(waiting, uncopyable(waiting.work, (error as Error).message));
    }
  }

  /** The queue a free thread serves next: a general thread's is the heavy one while it holds calls. */
  function queueFor(thread: Thread): Waiting[] {
    return thread.takes === 'any' && queues.heavy.length > 0 ? queues.heavy : queues.light;
  }

  /** Gives a free thread its next call, or the data it lacks for that call or for the latest build. */
  function serve(thread: Thread, slot: number): void {
    // A loop: a call answered without running (uncopyable, or its build failed) leaves the thread free for the next.
    while (thread.ready && thread.building === null && thread.current === null) {
      const queue = queueFor(thread);
      const head = queue[0];
      if (head === undefined) {
        if (latest !== null && !thread.built.includes(latest.key) && !failedBuilds.has(latest.key)) build(thread, slot, latest);
        return;
      }
      const failed = failedBuilds.get(head.snapshot.key);
      if (failed !== undefined) {
        queue.shift();
        settleNotRun(head, failed);
      } else if (!thread.built.includes(head.snapshot.key)) {
        build(thread, slot, head.snapshot);
      } else {
        queue.shift();
        dispatch(thread, slot, head);
      }
    }
  }

  function pump(): void {
    if (closed) return;
    for (let slot = 0; slot < threads.length; slot++) {
      if (threads[slot] === null && startFailure !== null && Date.now() < startFailure.until) continue;
      serve(threads[slot] ?? spawn(slot), slot);
    }
  }

  // The threads start now and build the current build's data before the first call arrives.
  void toolSnapshotFrom(store).then((snapshot) => {
    latest ??= snapshot;
    pump();
  });

  /** Queues work in its lane for the next free thread; what cannot be queued is answered at once. */
  async function enqueue(work: Work, lane: Lane): Promise<WorkResult | NotRun> {
    const snapshot = await toolSnapshotFrom(store);
    if (snapshot === null) return notReady();
    if (closed) return unavailable('busy', 'The server is shutting down.');
    if (startFailure !== null && Date.now() < startFailure.until && threads.every((t) => t === null)) return cannotStart(startFailure.message);
    const queue = queues[lane];
    if (queue.length >= maxQueued[lane]) {
      // Tool calls and A2A messages share the lanes: the count is of both, so it names neither.
      const waiting = `${maxQueued[lane]} ${lane === 'light' ? '' : 'large '}request${maxQueued[lane] === 1 ? ' is' : 's are'} already waiting for the tool threads`;
      const large = lane === 'light' ? '' : ` (over ${LIGHT_INPUT_CHARS} characters of input; smaller ones are not held up by them)`;
      return unavailable('busy', `${waiting}${large}; try again in a second.`);
    }
    latest ??= snapshot;
    return new Promise<WorkResult>((settle) => {
      queue.push({ work, snapshot, settle });
      pump();
    });
  }

  return {
    async run(job) {
      const result = await enqueue({ kind: 'tool', job }, laneOf(job.params));
      if (!('kind' in result)) return result;
      if (result.kind !== 'tool') throw new Error('tool pool: a tool call was answered as a message');
      return result.run;
    },
    async route(job) {
      // A message's lane is its text's size, as a call's is its input's.
      const result = await enqueue({ kind: 'message', job }, laneOf({ texts: job.texts }));
      if (!('kind' in result)) return messageNotRun(result);
      if (result.kind !== 'message') throw new Error('tool pool: a message was answered as a tool call');
      return result.run;
    },
    release(sent) {
      // Detached ones (byteLength 0: given back already) and small ones are left where they are.
      const buffers = [...new Set(sent.map((bytes) => bytes.buffer))].filter(
        (buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer && buffer.byteLength >= REUSED_MIN_BYTES,
      );
      const live = threads.filter((thread): thread is Thread => thread?.ready === true);
      if (buffers.length === 0 || live.length === 0 || closed) return;
      const thread = live[nextReuse++ % live.length]!;
      const message: ToThread = { kind: 'reuse', buffers };
      try {
        thread.worker.postMessage(message, buffers);
      } catch {
        // Called once an answer has left, from its response's 'close': a thread that cannot take
        // the buffers now (it is ending) leaves them to the collector, and nothing may throw there.
      }
    },
    async prepare(next) {
      const snapshot = await toolSnapshotFrom(next);
      if (snapshot === null || closed) return;
      latest = snapshot;
      // A prepare superseded by a newer build has nothing left to wait for.
      for (const waiter of preparing.splice(0)) waiter.resolve();
      await new Promise<void>((resolve) => {
        preparing.push({ key: snapshot.key, resolve });
        pump();
        settlePreparing();
      });
    },
    async close() {
      closed = true;
      for (const waiting of waitingCalls()) settleNotRun(waiting, unavailable('busy', 'The server is shutting down.'));
      settlePreparing();
      await Promise.all(
        threads.map((thread) => {
          if (thread === null) return undefined;
          if (thread.building !== null) clearTimeout(thread.building.timer);
          if (thread.current !== null) clearTimeout(thread.current.timer);
          return thread.worker.terminate();
        }),
      );
    },
  };
}
