// The request log's thread: the SQLite file is written and read here, so that the server's
// event loop spends on each request only the push of one small object.
import { parentPort, workerData } from 'node:worker_threads';
import { sqliteLog, type SqliteLogOptions } from './sqlite-log.ts';
import type { LogWorkerReply, LogWorkerRequest } from './threaded-log.ts';

const port = parentPort;
if (port === null) throw new Error('log-worker.ts runs as a worker thread of threaded-log.ts');

const options = workerData as Omit<SqliteLogOptions, 'log' | 'now'>;
const lines: string[] = [];
const log = sqliteLog({ ...options, log: (line) => lines.push(line) });

function reply(message: LogWorkerReply): void {
  port!.postMessage(message);
}

const sendHealth = () => {
  reply({ op: 'health', health: log.health(), lines: lines.splice(0) });
};

port.on('message', (message: LogWorkerRequest) => {
  switch (message.op) {
    case 'record':
      for (const entry of message.entries) log.record(entry);
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
      log.close();
      sendHealth();
      reply({ op: 'closed' });
      return;
  }
});

// Health (written, dropped, state) is pushed, so that reading it on the server costs nothing.
setInterval(sendHealth, 250).unref();
sendHealth();
