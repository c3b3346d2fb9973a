// A tool thread: builds the tools' data when the pool sends a build's documents, then runs one
// call, one A2A message in words (routed and answered) or one MCP POST (answered whole, the MCP
// SDK loaded here at the first) at a time on it and posts the result back. An answer made as
// bytes (HTTP's canonical JSON, MCP's answer) is transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { executeTool, type ToolRun } from '../tools/registry/call.ts';
import { etagOf } from '../util/sha256.ts';
import type { ToolData } from '../tools/registry/types.ts';
import { buildToolDataOf } from '../http/tool-data.ts';
import { KEPT_BUILDS, type FromThread, type ToThread, type Work, type WorkResult } from './tool-messages.ts';
import { executeMessage } from '../tools/registry/message-call.ts';
import type { ToolRunner } from '../tools/registry/runner.ts';
import { answerBuffers } from '../util/answer-buffers.ts';

const port = parentPort;
if (port === null) throw new Error('tool-worker.ts runs as a worker thread of tool-pool.ts');

/** The data of the last KEPT_BUILDS builds, oldest first (the pool keeps the same list). */
const built = new Map<string, ToolData>();

const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** The buffers of an answer made as bytes, handed over rather than copied (a message's tool answers in the structured form: none). */
function bytesOf(result: WorkResult): ArrayBuffer[] {
  if (result.kind === 'mcp') return 'body' in result.run ? [result.run.body.buffer] : [];
  if (result.kind !== 'tool') return [];
  const { run } = result;
  if (run.status !== 'answered') return [];
  if (run.form === 'json') return [run.bytes.buffer];
  // Its two forms of the output are views into the answer's one buffer.
  if (run.form === 'serialized') return [run.answer.buffer];
  return [];
}

/** The buffers of sent answers, written into again. */
const buffers = answerBuffers();

port.on('message', async (message: ToThread) => {
  if (message.kind === 'reuse') {
    buffers.keep(message.buffers);
    return;
  }
  if (message.kind === 'build') {
    const { key } = message.snapshot;
    try {
      built.set(key, buildToolDataOf(message.snapshot));
      for (const old of built.keys()) if (built.size > KEPT_BUILDS) built.delete(old);
      post({ kind: 'built', key, error: null });
    } catch (error) {
      post({ kind: 'built', key, error: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  const data = built.get(message.key);
  const result: WorkResult = data === undefined ? notBuilt(message.work, message.key) : await execute(message.work, data);
  post({ kind: 'done', id: message.id, result }, bytesOf(result));
});

/** The tools as an MCP exchange on this thread calls them: here, writing into this thread's buffers. The answer's bytes leave with the reply, so none is released here. */
function runnerOn(data: ToolData): ToolRunner {
  return {
    run: (job) => executeTool(job, data, buffers.take, etagOf),
    route: (job) => executeMessage(job, data),
    close: async () => {},
  };
}

/** The MCP module, loaded at this thread's first MCP exchange: the SDK and its schemas are a fifth of a second. */
let mcpModule: Promise<typeof import('../http/mcp.ts')> | undefined;

// executeTool and executeMessage never reject (a fault is a `failed` run), and an exchange's
// fault is caught, so nothing is left unhandled here.
async function execute(work: Work, data: ToolData): Promise<WorkResult> {
  switch (work.kind) {
    case 'tool':
      return { kind: 'tool', run: await executeTool(work.job, data, buffers.take, etagOf) };
    case 'message':
      return { kind: 'message', run: await executeMessage(work.job, data) };
    case 'mcp':
      try {
        mcpModule ??= import('../http/mcp.ts');
        return { kind: 'mcp', run: await (await mcpModule).answerExchange(work.job, runnerOn(data)) };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { kind: 'mcp', run: { status: 'failed', message, detail: error instanceof Error ? (error.stack ?? message) : message } };
      }
  }
}

function notBuilt(work: Work, key: string): WorkResult {
  const run: Extract<ToolRun, { status: 'failed' }> = {
    status: 'failed',
    message: 'the tool thread holds no data for this build',
    detail: `tool-worker: no data built for ${key}`,
  };
  if (work.kind === 'tool') return { kind: 'tool', run };
  return work.kind === 'message' ? { kind: 'message', run: { routed: 'not-run', run } } : { kind: 'mcp', run };
}

post({ kind: 'loaded' });
