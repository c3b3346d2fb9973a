// A tool thread: runs one job at a time on the data the pool sent with it, and posts the
// result back. The canonical JSON bytes of an HTTP answer are transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { executeTool, type ToolRun } from '../tools/registry/call.ts';
import { toolDataOf } from '../http/tool-data.ts';
import type { JobMessage, RunMessage } from './tool-pool.ts';

const port = parentPort;
if (port === null) throw new Error('tool-worker.ts runs as a worker thread of tool-pool.ts');

let snapshot: JobMessage['snapshot'] = null;

port.on('message', async (message: JobMessage) => {
  // The pool sends the documents only when this thread's copy is not the current build.
  if (message.snapshot !== null) snapshot = message.snapshot;
  // executeTool never rejects (a fault in the tool is a `failed` run), so nothing is left unhandled here.
  const run: ToolRun =
    snapshot === null
      ? { status: 'failed', message: 'the tool thread was sent no data', detail: 'tool-worker: no snapshot before the first job' }
      : await executeTool(message.job, toolDataOf(snapshot));
  const reply: RunMessage = { id: message.id, run };
  port.postMessage(reply, run.status === 'answered' && run.form === 'json' ? [run.bytes.buffer] : []);
});

const ready: RunMessage = { id: 0, run: null };
port.postMessage(ready);
