// The request log's thread: requests are booked and the SQLite file is written and read here,
// so that the server's event loop spends on each request only the copy of one small record into
// the shared ring, and never builds the tools' data that booking reads.
import { parentPort, workerData } from 'node:worker_threads';
import { buildToolDataOf, type ToolSnapshot } from '../http/tool-data.ts';
import { bookedEntry } from '../log/entry.ts';
import type { ToolData } from '../tools/registry/types.ts';
import { ringReader } from './log-ring.ts';
import { sqliteLog } from './sqlite-log.ts';
import type { LogWorkerData, LogWorkerReply, LogWorkerRequest } from './threaded-log.ts';
import { toolSnapshotFromFolder } from './tool-snapshot-folder.ts';

const port = parentPort;
if (port === null) throw new Error('log-worker.ts runs as a worker thread of threaded-log.ts');

const { ring, readEveryMs, bookFrom, ...options } = workerData as LogWorkerData;
const lines: string[] = [];
// Written at the next turn of this thread's loop: the entries have waited only in the ring.
// The ring bounds what waits (the server drops and counts past it), so the file's queue need not.
const log = sqliteLog({ ...options, flushEveryMs: 0, queueLimit: Number.POSITIVE_INFINITY, log: (line) => lines.push(line) });
const reader = ringReader(ring);

/** The tools' data requests are booked with: the last build the server sent, or the one read from its folder at the start. */
let booking: { key: string | null; data: ToolData | null } = { key: null, data: null };

/** Takes every entry the server has put in the ring so far, books them and writes them at once. */
function drain(): void {
  if (reader.drain((entry) => log.record(bookedEntry(entry, booking.data))) > 0) log.flush();
}

/** Builds the booking data of `snapshot` (null: none; requests then name no crawler) and says so to the server. */
function bookWith(snapshot: ToolSnapshot | null): void {
  let error: string | null = null;
  try {
    booking = { key: snapshot?.key ?? null, data: snapshot === null || log.health().state !== 'ok' ? null : buildToolDataOf(snapshot) };
  } catch (thrown) {
    booking = { key: snapshot?.key ?? null, data: null };
    error = thrown instanceof Error ? thrown.message : String(thrown);
  }
  reply({ op: 'booked', key: booking.key, error });
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
    case 'book':
      bookWith(message.snapshot);
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
// The build the server is about to serve, read from its folder while the server reads all of it.
if (bookFrom !== null) bookWith(await toolSnapshotFromFolder(bookFrom));
