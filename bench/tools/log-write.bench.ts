// Benchmark: the request log's thread writing rows, as node/log-worker.ts does: each batch (the
// rows a busy server answers between two of the thread's reads) copied into the shared ring,
// taken out, booked with the committed build's tools' data and written in one transaction, with
// the daily aggregate and whoami's count. Once with every row from one address (what wrk on
// loopback sends), once from many (what a public server sees). Baseline, measured in the same
// run on the same rows, booked beforehand: better-sqlite3 inserting them one by one into a
// table of the same columns with their texts and no index, one transaction per batch (the plain
// way to write them; the log writes their texts as numbers, many rows to a statement).
// Run: npx tsx bench/tools/log-write.bench.ts

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildToolDataOf, TOOL_SNAPSHOT_PATHS } from '../../pipeline/http/tool-data.ts';
import { bookedEntry } from '../../pipeline/log/entry.ts';
import type { AnsweredEntry, LogEntry } from '../../pipeline/log/types.ts';
import type { ToolData } from '../../pipeline/tools/registry/types.ts';
import { logRing, ringReader, ringWriter } from '../../pipeline/node/log-ring.ts';
import { Database } from '../../pipeline/node/sqlite-driver.ts';
import { sqliteLog } from '../../pipeline/node/sqlite-log.ts';
import { READ_EVERY_MS } from '../../pipeline/node/threaded-log.ts';
import { time } from '../figure.ts';

/** Rows a busy server answers between two of the thread's reads, at 30,000 requests a second. */
const BATCH = Math.round((30_000 * READ_EVERY_MS) / 1000);
const SALT = randomBytes(32);
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

export interface LogWriteFigure {
  rows: number;
  addresses: number;
  /** Our log's thread, every row from one address. */
  oneAddressMs: number;
  /** Our log's thread, rows from `addresses` addresses in turn. */
  manyAddressesMs: number;
  /** better-sqlite3 INSERTs of the many-address rows into a table without an index. */
  baselineMs: number;
}

/** A salted hash of address number `n`, made as the server makes one (node/server.ts): 32 hex characters in no order. */
function hashOf(n: number): string {
  return createHash('sha256').update(SALT).update(String(n)).digest('hex').slice(0, 32);
}

/** IPv4 address number `n`, in 10.0.0.0/8. */
const addressOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

function rowsFrom(count: number, addresses: number, at: number): AnsweredEntry[] {
  const hashes = Array.from({ length: Math.min(count, addresses) }, (_, n) => hashOf(n));
  return Array.from({ length: count }, (_, i) => ({
    at: at + i,
    method: 'GET',
    route: '/crawler/{slug}.json',
    status: 200,
    bytes: 2903,
    duration_ms: 0.12,
    address: addressOf(i % hashes.length),
    address_hash: hashes[i % hashes.length]!,
    user_agent: GPTBOT,
  }));
}

/** The tools' data of the committed build, which the log's thread books with. */
function bookingData(): ToolData {
  const dist = join(import.meta.dirname, '..', '..', 'dist');
  return buildToolDataOf({ key: 'bench', bytes: TOOL_SNAPSHOT_PATHS.map((path) => new Uint8Array(readFileSync(join(dist, path)))) });
}

function ourLog(file: string, rows: readonly AnsweredEntry[], data: ToolData): number {
  const log = sqliteLog({ file, flushEveryMs: 0, queueLimit: Number.POSITIVE_INFINITY });
  const ring = logRing(4 * 1024 * 1024);
  const writer = ringWriter(ring);
  const reader = ringReader(ring);
  const ms = time(() => {
    for (let start = 0; start < rows.length; start += BATCH) {
      for (const row of rows.slice(start, start + BATCH)) writer.write(row);
      reader.drain((entry) => log.record(bookedEntry(entry, data)));
      log.flush();
    }
  });
  void log.close();
  return ms;
}

function bareInserts(file: string, rows: readonly LogEntry[]): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE hits (id INTEGER PRIMARY KEY, at INTEGER, method TEXT, route TEXT, status INTEGER, bytes INTEGER,
    duration_ms REAL, crawler TEXT, category TEXT, verdict TEXT, address_hash TEXT, user_agent TEXT)`);
  const insert = db.prepare(
    'INSERT INTO hits (at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const batch = db.transaction((part: readonly LogEntry[]) => {
    for (const r of part) insert.run(r.at, r.method, r.route, r.status, r.bytes, r.duration_ms, r.crawler, r.category, r.verdict, r.address_hash, r.user_agent);
  });
  const ms = time(() => {
    for (let start = 0; start < rows.length; start += BATCH) batch(rows.slice(start, start + BATCH));
  });
  db.close();
  return ms;
}

/** Runs of each figure, taken in turn; the fastest counts, as for the other tool figures (bench/tools.ts). */
const RUNS = 3;

export function benchLogWrites(rows = 100_000, addresses = 50_000): LogWriteFigure {
  const scratch = mkdtempSync(join(tmpdir(), 'log-write-bench-'));
  let files = 0;
  const fresh = () => join(scratch, `log-${files++}.db`);
  try {
    const at = Date.now();
    const data = bookingData();
    const many = rowsFrom(rows, addresses, at);
    const one = rowsFrom(rows, 1, at);
    const booked = many.map((row) => bookedEntry(row, data));
    // Warm-up, so that no figure pays for JIT compilation.
    ourLog(fresh(), many.slice(0, 5_000), data);
    bareInserts(fresh(), booked.slice(0, 5_000));
    const best = { oneAddressMs: Infinity, manyAddressesMs: Infinity, baselineMs: Infinity };
    // Each run into a new file, the three in turn, so that a slow spell of the machine meets them alike.
    for (let run = 0; run < RUNS; run++) {
      best.manyAddressesMs = Math.min(best.manyAddressesMs, ourLog(fresh(), many, data));
      best.baselineMs = Math.min(best.baselineMs, bareInserts(fresh(), booked));
      best.oneAddressMs = Math.min(best.oneAddressMs, ourLog(fresh(), one, data));
    }
    return { rows, addresses, ...best };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('log-write.bench.ts')) console.log(benchLogWrites());
