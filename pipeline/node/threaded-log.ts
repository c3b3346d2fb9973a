// The request log as the Node server holds it: each answered request is copied into memory the
// log's thread shares (log-ring.ts), and the booking and the SQLite work (log-worker.ts,
// sqlite-log.ts) happen on that thread. Reads are messages to it. A thread that cannot start or
// dies leaves the log unavailable and the server serving.
//
// Booking reads the tools' data (the classifier, the prefix index) of the build being served,
// which the thread builds itself: from the build's folder as it starts, while the server loads
// the same build, and again from each build the server prepares (prepare()). The server waits
// for the first before it listens, so the first request is booked like any other.
//
// How long an answered request waits before it is in the file, which is all a kill -9 can lose
// (docs/API.md §4.3a): the thread takes what the ring holds every READ_EVERY_MS and writes it at
// once, in one transaction (behind at most one slice of removals, sqlite-log.ts EVICT_SLICE_MS).
// Nothing waits on the server's event loop, so a loop that stalls after an answer holds nothing
// back. A committed transaction is in the WAL, which a killed process does not lose.

import { Worker } from 'node:worker_threads';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_RETENTION_DAYS,
  type AnsweredEntry,
  type DailyRow,
  type HitsPage,
  LogBusy,
  type LogHealth,
  type RequestLog,
  type VisitorLookup,
} from '../log/types.ts';
import { type LogRing, logRing, ringWriter } from './log-ring.ts';
import type { ToolSnapshot } from '../http/tool-data.ts';
import type { SqliteLogOptions } from './sqlite-log.ts';
import { workerEntry, workerSource } from './worker-source.ts';

export type LogWorkerRequest =
  | { op: 'drain' }
  | { op: 'daily'; id: number; since: string }
  | { op: 'hits'; id: number; cursor: number; limit: number }
  | { op: 'visitor'; id: number; hash: string }
  | { op: 'book'; snapshot: ToolSnapshot | null }
  | { op: 'close' };

export type LogWorkerReply =
  | { op: 'health'; health: LogHealth; lines: string[] }
  | { op: 'answer'; id: number; result: unknown }
  | { op: 'booked'; key: string | null; error: string | null }
  | { op: 'closed' };

/** What the thread is started with; `bookFrom`: the dist/ folder whose tools' documents it books with first. */
export type LogWorkerData = Omit<SqliteLogOptions, 'log' | 'now' | 'flushEveryMs'> & { ring: LogRing; readEveryMs: number; bookFrom: string | null };

const BOOTSTRAP = workerSource(workerEntry('log-worker', import.meta.url));

/**
 * The thread takes what the ring holds this often (ms). Each take is one transaction, whose
 * commit rewrites the file's last pages whatever it holds: under load, taking every 20 ms
 * instead of 5 cost that thread 4.8-5.2 µs a request instead of 5.0-7.3 (by hand, wrk on one
 * document). It stays well inside the 100 ms a kill -9 may lose (docs/API.md §4.3a).
 */
export const READ_EVERY_MS = 20;
/** Entries waiting in the ring; past it the next ones are dropped and counted (about 16,000 requests of 250 bytes). */
const RING_BYTES = 4 * 1024 * 1024;
/** A read the thread does not answer within this fails with LogBusy. */
const READ_TIMEOUT_MS = 2_000;
/**
 * A read asked before the thread has said it is up may also wait this long for it to start:
 * loading the thread's code takes seconds on a busy machine, and that is not a busy log.
 */
const START_TIMEOUT_MS = 10_000;

/**
 * The log's options; `flushEveryMs` is how often the thread takes what the ring holds (default
 * READ_EVERY_MS); `bookFrom`, the dist/ folder the server is about to serve: the thread builds
 * its booking data from it as it starts.
 */
export type ThreadedLogOptions = Omit<SqliteLogOptions, 'now' | 'queueLimit'> & { bookFrom?: string };

export interface ThreadedLog extends Omit<RequestLog, 'record'> {
  /** Queues one answered request, to be booked and written on the log's thread; never throws and never waits. */
  record(entry: AnsweredEntry): void;
  /**
   * Resolves once the thread books requests with the tools' data of `snapshot` (null: with
   * none), the build about to be served: at once when it already does, as after a start whose
   * folder held this build. A thread that does not say so within START_TIMEOUT_MS is said in
   * one line and waited for no longer.
   */
  prepare(snapshot: ToolSnapshot | null): Promise<void>;
  /**
   * Resolves once the thread has opened the file (or found that it cannot): from then on,
   * answered requests reach the file within the bound above. A thread still not up after
   * START_TIMEOUT_MS is said in one line and waited for no longer (rows wait in the ring).
   */
  ready(): Promise<void>;
}

export function threadedLog(options: ThreadedLogOptions): ThreadedLog {
  const say = options.log ?? (() => {});
  let health: LogHealth = {
    state: 'ok',
    reason: null,
    written: 0,
    dropped: 0,
    evicted: 0,
    retention_days: options.retentionDays ?? DEFAULT_RETENTION_DAYS,
    max_bytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
  };
  let dropped = 0;
  let nextId = 1;
  let dead: string | null = null;
  const waiting = new Map<number, { resolve(value: unknown): void; timer: ReturnType<typeof setTimeout> }>();
  let closed: (() => void) | null = null;
  let started = false;
  let markReady: () => void = () => {};
  const isReady = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  /** The build the thread books with, as it last said (undefined: it has not said yet). */
  let bookedKey: string | null | undefined;
  /** The build the server last prepared. */
  let preparedKey: string | null | undefined;
  const bookingWaiters: (() => void)[] = [];
  const bookingSaid = () => {
    for (const resolve of bookingWaiters.splice(0)) resolve();
  };

  const ring = logRing(RING_BYTES);
  const writer = ringWriter(ring);
  const { log: _log, flushEveryMs, ...fileOptions } = options;
  const { bookFrom, ...sqliteOptions } = fileOptions;
  const workerData: LogWorkerData = { ...sqliteOptions, ring, readEveryMs: flushEveryMs ?? READ_EVERY_MS, bookFrom: bookFrom ?? null };
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData });
  worker.unref();
  worker.on('message', (message: LogWorkerReply) => {
    if (message.op === 'health') {
      started = true;
      markReady();
      health = message.health;
      for (const line of message.lines) say(line);
    } else if (message.op === 'answer') {
      const pending = waiting.get(message.id);
      if (pending === undefined) return;
      waiting.delete(message.id);
      clearTimeout(pending.timer);
      pending.resolve(message.result);
    } else if (message.op === 'booked') {
      bookedKey = message.key;
      if (message.error !== null) say(`log: the tools' data could not be built for booking (${message.error}); requests are recorded naming no crawler`);
      bookingSaid();
    } else closed?.();
  });
  const stop = (why: string) => {
    if (dead !== null) return;
    dead = why;
    say(`log: the request log's thread stopped (${why}); requests are answered but not recorded`);
    for (const pending of waiting.values()) pending.resolve(null);
    waiting.clear();
    markReady();
    bookingSaid();
    closed?.();
  };

  /**
   * Waits for the thread's reports until `done` holds, the thread stops, or START_TIMEOUT_MS has
   * passed (said in one line: rows then wait in the ring, and are booked once it has built).
   */
  async function untilBooked(done: () => boolean): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!done() && dead === null) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(0, deadline - Date.now()));
      });
      const said = new Promise<'said'>((resolve) => bookingWaiters.push(() => resolve('said')));
      const outcome = await Promise.race([said, late]);
      clearTimeout(timer);
      if (outcome === 'late') {
        say(
          `log: the request log's thread has not built the tools' data for booking after ${START_TIMEOUT_MS / 1000} s; serving, its rows wait in memory until it has`,
        );
        return;
      }
    }
  }
  worker.on('error', (error) => stop(error.message));
  worker.on('exit', (code) => stop(`exit code ${code}`));

  function ask<T>(request: (id: number) => LogWorkerRequest, empty: T): Promise<T> {
    if (dead !== null) return Promise.resolve(empty);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          waiting.delete(id);
          reject(new LogBusy(`the request log did not answer within ${READ_TIMEOUT_MS / 1000} s`));
        },
        started ? READ_TIMEOUT_MS : START_TIMEOUT_MS + READ_TIMEOUT_MS,
      );
      waiting.set(id, { resolve: (value) => resolve((value ?? empty) as T), timer });
      worker.postMessage(request(id));
    });
  }

  return {
    record(entry) {
      if (dead !== null || health.state !== 'ok') return;
      if (!writer.write(entry)) dropped++;
    },
    async prepare(snapshot) {
      const key = snapshot?.key ?? null;
      preparedKey = key;
      // A thread told a folder says first what it found there, which may be this very build.
      if (bookFrom !== undefined) await untilBooked(() => bookedKey !== undefined);
      // Done, or a later build is being prepared and this one is no longer wanted.
      if (bookedKey === key || preparedKey !== key || dead !== null) return;
      worker.postMessage({ op: 'book', snapshot } satisfies LogWorkerRequest);
      await untilBooked(() => bookedKey === key || preparedKey !== key);
    },
    async ready() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), START_TIMEOUT_MS);
      });
      if ((await Promise.race([isReady, late])) === 'late')
        say(`log: the request log's thread is not up after ${START_TIMEOUT_MS / 1000} s; serving, its rows wait in memory until it is`);
      clearTimeout(timer);
    },
    daily: (since) => ask<DailyRow[]>((id) => ({ op: 'daily', id, since }), []),
    hits: (cursor, limit) => ask<HitsPage>((id) => ({ op: 'hits', id, cursor, limit }), { hits: [], next_cursor: null }),
    // The thread takes what the ring holds before it answers any message: a caller seen a
    // moment ago was seen.
    visitor: (hash) => ask<VisitorLookup>((id) => ({ op: 'visitor', id, hash }), { counted: true, visitor: null }),
    health(): LogHealth {
      if (dead !== null) return { ...health, state: 'unavailable', reason: `the log's thread stopped: ${dead}`, dropped: health.dropped + dropped };
      return { ...health, dropped: health.dropped + dropped };
    },
    flush() {
      if (dead === null) worker.postMessage({ op: 'drain' } satisfies LogWorkerRequest);
    },
    async close() {
      if (dead !== null) return;
      const done = new Promise<void>((resolve) => {
        closed = resolve;
      });
      worker.postMessage({ op: 'close' } satisfies LogWorkerRequest);
      await done;
      // Ended on purpose: its exit is not news (stop() says nothing once dead is set).
      dead = 'closed';
      bookingSaid();
      await worker.terminate();
    },
  };
}
