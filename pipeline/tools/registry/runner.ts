// Where tool calls run, and what a transport holds while it answers one request. The
// Web-standard handler needs only this: the Node server gives it a pool of worker threads
// (node/tool-pool.ts), where the tools' data is built and every call and message runs, so the
// thread that answers requests never builds or reads that data; any other runtime runs calls
// in place (inProcessRunner).

import { executeTool, type ToolJob, type ToolRun } from './call.ts';
import { executeMessage, type MessageJob, type MessageRun } from './message-call.ts';
import type { Caller, ToolData } from './types.ts';

export interface ToolRunner {
  run(job: ToolJob): Promise<ToolRun>;
  /** Routes a message's text to the tool it asks for and runs that tool (registry/message-call.ts). */
  route(job: MessageJob): Promise<MessageRun>;
  /**
   * Told that an answer's bytes have been sent and are no longer read: a runner on other
   * threads takes their memory back to write later answers into (node/tool-pool.ts); absent,
   * they are left to the garbage collector.
   */
  release?(sent: readonly Uint8Array[]): void;
  close(): Promise<void>;
}

/** What a transport holds while it answers one request: the caller, where calls run, and the addresses to answer with. */
export interface CallContext {
  caller: Caller;
  runner: ToolRunner;
  /** The base URL of the build being served: the addresses in the tools' answers start with it (http/served-build.ts). */
  baseUrl: string;
  /** The origin the handler rewrites the build's base URL to in the answer (http/origin.ts); absent: none. */
  origin?: string;
}

/** Runs every call on the calling thread, with the data `dataOf` gives at the time. */
export function inProcessRunner(dataOf: () => Promise<ToolData | null>): ToolRunner {
  return {
    async run(job) {
      const data = await dataOf();
      if (data === null) return notReady();
      return executeTool(job, data);
    },
    async route(job) {
      const data = await dataOf();
      if (data === null) return { routed: 'not-run', run: notReady() };
      return executeMessage(job, data);
    },
    close: async () => {},
  };
}

export function notReady(): Extract<ToolRun, { status: 'unavailable' }> {
  return {
    status: 'unavailable',
    reason: 'not-ready',
    message: 'The published tree lacks the documents the tools read; rebuild dist/.',
    retryAfterSeconds: 60,
  };
}
