// A tool thread: builds the tools' data when the pool sends a build's documents, then runs one
// call, or one A2A message in words (routed and answered), at a time on it and posts the result
// back. An answer made as bytes (HTTP's canonical JSON, MCP's serialized output) is transferred,
// not copied.
import { parentPort } from 'node:worker_threads';
import { executeTool } from '../tools/registry/call.ts';
import { etagOf } from '../util/sha256.ts';
import type { ToolData } from '../tools/registry/types.ts';
import { buildToolDataOf } from '../http/tool-data.ts';
import { KEPT_BUILDS, type FromThread, notRunResult, type ToThread, type Work, type WorkResult } from './tool-messages.ts';
import { executeMessage } from '../tools/registry/message-call.ts';
import { answerBuffers } from '../util/answer-buffers.ts';

const port = parentPort;
if (port === null) throw new Error('tool-worker.ts runs as a worker thread of tool-pool.ts');

/** The data of the last KEPT_BUILDS builds, oldest first (the pool keeps the same list). */
const built = new Map<string, ToolData>();

const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

/** The buffers of an answer made as bytes, handed over rather than copied (a message's tool answers in the structured form: none). */
function bytesOf(result: WorkResult): ArrayBuffer[] {
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

// executeTool and executeMessage never reject (a fault is a `failed` run), so nothing is left unhandled here.
async function execute(work: Work, data: ToolData): Promise<WorkResult> {
  return work.kind === 'tool'
    ? { kind: 'tool', run: await executeTool(work.job, data, buffers.take, etagOf) }
    : { kind: 'message', run: await executeMessage(work.job, data) };
}

function notBuilt(work: Work, key: string): WorkResult {
  return notRunResult(work, {
    status: 'failed',
    message: 'the tool thread holds no data for this build',
    detail: `tool-worker: no data built for ${key}`,
  });
}

post({ kind: 'loaded' });
