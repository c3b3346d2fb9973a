// What the tool pool and its threads say to each other (node/tool-pool.ts, node/tool-worker.ts).
//
// A thread builds the tools' data (classifier, prefix index…) for a set of documents when the
// pool sends them, before it is given any call on them; a call's deadline then counts the
// call alone (docs/API.md §8.1).
import type { ToolSnapshot } from '../http/tool-data.ts';
import type { ToolJob, ToolRun } from '../tools/registry/call.ts';
import type { MessageJob, MessageRun } from '../tools/registry/message-call.ts';

/** What a thread runs: a tool call, or a message to route to the tool it asks for and run (registry/message-call.ts). */
export type Work = { kind: 'tool'; job: ToolJob } | { kind: 'message'; job: MessageJob };

/** What became of a Work, by its kind. */
export type WorkResult = { kind: 'tool'; run: ToolRun } | { kind: 'message'; run: MessageRun };

/** A run that never reached the work: refused on the way, failed, or not run at all. */
export type NotRun = Extract<ToolRun, { status: 'unavailable' | 'failed' | 'refused' }>;

/** A message that was not run: one that could not be handed over is refused as an input that is not accepted. */
export function messageNotRun(run: NotRun): MessageRun {
  return run.status === 'refused' ? { routed: 'invalid', field: run.field, message: run.message, accepted: run.accepted } : { routed: 'not-run', run };
}

/** `run`, which never reached `work`, as the result of the work's kind (the pool's and the thread's one rule). */
export function notRunResult(work: Work, run: NotRun): WorkResult {
  return work.kind === 'tool' ? { kind: 'tool', run } : { kind: 'message', run: messageNotRun(run) };
}

/** Builds a thread keeps at once: the build being served and the one about to replace it. */
export const KEPT_BUILDS = 2;

/** Pool → thread. */
export type ToThread =
  /** Build the tools' data for these documents, and keep it (dropping the oldest beyond KEPT_BUILDS). */
  | { kind: 'build'; snapshot: ToolSnapshot }
  /** Run this work on the data built for `key`. */
  | { kind: 'job'; id: number; key: string; work: Work }
  /** Buffers of answers already sent, transferred back to be written into again (util/answer-buffers.ts). */
  | { kind: 'reuse'; buffers: ArrayBuffer[] };

/** Thread → pool. */
export type FromThread =
  /** The thread's modules are loaded; it takes messages. */
  | { kind: 'loaded' }
  /** The data for `key` is built (error null) or could not be (the error's message). */
  | { kind: 'built'; key: string; error: string | null }
  | { kind: 'done'; id: number; result: WorkResult };
