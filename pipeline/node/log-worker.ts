// The request log's thread: the SQLite file is written and read here, so that the server's
// event loop spends on each request only the copy of one small record into the shared ring.
import { parentPort, workerData } from 'node:worker_threads';
import { ringReader } from './log-ring.ts';
import { sqliteLog } from './sqlite-log.ts';
import type { LogWorkerData, LogWorkerReply, LogWorkerRequest } from './threaded-log.ts';

const port = parentPort;
if (port === null) throw new Error('log-worker.ts runs as a worker thread of threaded-log.ts');

const { ring, readEveryMs, ...options } = workerData as LogWorkerData;
const lines: string[] = [];
// Written at the next turn of this thread's loop: the entries have waited only in the ring.
// The ring bounds what waits (the server drops and counts past it), so the file's queue need not.
const log = sqliteLog({ ...options, flushEveryMs: 0, queueLimit: Number.POSITIVE_INFINITY, log: (line) => lines.push(line) });
const reader = ringReader(ring);

/** Takes every entry the server has put in the ring so far, and writes them at once. */
function drain(): void {
  if (reader.drain((entry) => log.record(entry)) > 0) log.flush();
}

function reply(message: LogWorkerReply): void {
  port!.postMessage(message);
}

const sendHealth = () => {
  reply({ op: 'health', health: log.health(), lines: lines.splice(0) });
};

port.on('message', (message: LogWorkerRequest) => {
  // Whatever is asked, what was answered before it is in the file first (whoami counts it).
  drain();
  switch (message.op) {
    case 'drain':
      return;
    case 'daily':
      void log.daily(message.since).then((result) => reply({ op: 'answer', id: message.id, result }));
      return;
    case 'hits':
      void log.hits(message.cursor, message.limit).then((result) => reply({ op: 'answer', id: message.id, result }));
      return;
    case 'visitor':
      void log.visitor(message.hash).then((result) => reply({ op: 'answer', id: message.id, result }));
      return;
    case 'close':
      void log.close().then(() => {
        sendHealth();
        reply({ op: 'closed' });
      });
      return;
  }
});

setInterval(drain, readEveryMs).unref();
// Health (written, dropped, state) is pushed, so that reading it on the server costs nothing.
setInterval(sendHealth, 250).unref();
sendHealth();
