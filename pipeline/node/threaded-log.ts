// The request log as the Node server holds it: entries are gathered on the event loop and sent
// to the log's thread in batches; the SQLite work (log-worker.ts, sqlite-log.ts) happens there.
// Reads are messages to that thread. A thread that cannot start or dies leaves the log
// unavailable and the server serving.

import { Worker } from 'node:worker_threads';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_RETENTION_DAYS,
  type DailyRow,
  type HitsPage,
  LogBusy,
  type LogEntry,
  type LogHealth,
  type RequestLog,
  type Visitor,
} from '../log/types.ts';
import type { SqliteLogOptions } from './sqlite-log.ts';
import { workerSource } from './worker-source.ts';

export type LogWorkerRequest =
  | { op: 'record'; entries: LogEntry[] }
  | { op: 'daily'; id: number; since: string }
  | { op: 'hits'; id: number; cursor: number; limit: number }
  | { op: 'visitor'; id: number; hash: string }
  | { op: 'close' };

export type LogWorkerReply = { op: 'health'; health: LogHealth; lines: string[] } | { op: 'answer'; id: number; result: unknown } | { op: 'closed' };

const BOOTSTRAP = workerSource(new URL('./log-worker.ts', import.meta.url));

/** Entries are handed to the thread at the latest this long after they are queued (ms). */
const HAND_OVER_MS = 20;
const QUEUE_LIMIT = 10_000;
/** A read the thread does not answer within this fails with LogBusy. */
const READ_TIMEOUT_MS = 2_000;
/**
 * A read asked before the thread has said it is up may also wait this long for it to start:
 * loading the thread's code takes seconds on a busy machine, and that is not a busy log.
 */
const START_TIMEOUT_MS = 10_000;

export function threadedLog(options: Omit<SqliteLogOptions, 'now'>): RequestLog {
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
  let queue: LogEntry[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let nextId = 1;
  let dead: string | null = null;
  const waiting = new Map<number, { resolve(value: unknown): void; timer: ReturnType<typeof setTimeout> }>();
  let closed: (() => void) | null = null;
  let started = false;

  const { log: _log, ...workerOptions } = options;
  const worker = new Worker(BOOTSTRAP, { eval: true, workerData: { ...workerOptions, flushEveryMs: workerOptions.flushEveryMs ?? 50 } });
  worker.unref();
  worker.on('message', (message: LogWorkerReply) => {
    if (message.op === 'health') {
      started = true;
      health = message.health;
      for (const line of message.lines) say(line);
    } else if (message.op === 'answer') {
      const pending = waiting.get(message.id);
      if (pending === undefined) return;
      waiting.delete(message.id);
      clearTimeout(pending.timer);
      pending.resolve(message.result);
    } else closed?.();
  });
  const stop = (why: string) => {
    if (dead !== null) return;
    dead = why;
    say(`log: the request log's thread stopped (${why}); requests are answered but not recorded`);
    for (const pending of waiting.values()) pending.resolve(null);
    waiting.clear();
    closed?.();
  };
  worker.on('error', (error) => stop(error.message));
  worker.on('exit', (code) => stop(`exit code ${code}`));

  function handOver(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (queue.length === 0 || dead !== null) return;
    const entries = queue;
    queue = [];
    const message: LogWorkerRequest = { op: 'record', entries };
    worker.postMessage(message);
  }

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
      if (queue.length >= QUEUE_LIMIT) {
        dropped++;
        return;
      }
      queue.push(entry);
      if (timer === null) {
        timer = setTimeout(handOver, HAND_OVER_MS);
        timer.unref();
      }
    },
    daily: (since) => ask<DailyRow[]>((id) => ({ op: 'daily', id, since }), []),
    hits: (cursor, limit) => ask<HitsPage>((id) => ({ op: 'hits', id, cursor, limit }), { hits: [], next_cursor: null }),
    async visitor(hash) {
      // Handed over first: the thread takes messages in order, so it counts them too (its own
      // queue included), and a caller seen a moment ago was seen.
      handOver();
      return ask<Visitor | null>((id) => ({ op: 'visitor', id, hash }), null);
    },
    health(): LogHealth {
      if (dead !== null) return { ...health, state: 'unavailable', reason: `the log's thread stopped: ${dead}`, dropped: health.dropped + dropped };
      return { ...health, dropped: health.dropped + dropped };
    },
    flush: handOver,
    async close() {
      handOver();
      if (dead !== null) return;
      const done = new Promise<void>((resolve) => {
        closed = resolve;
      });
      worker.postMessage({ op: 'close' } satisfies LogWorkerRequest);
      await done;
      // Ended on purpose: its exit is not news (stop() says nothing once dead is set).
      dead = 'closed';
      await worker.terminate();
    },
  };
}
