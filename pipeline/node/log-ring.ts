// Request-log entries in memory shared by the server's event loop, their only writer, and the
// log's thread, their only reader. An entry is where the thread reads it the moment its answer
// is written: no timer or message stands between them, so an event loop that stalls after an
// answer (a busy machine, a long GC) cannot hold its row back from the file (docs/API.md §4.3a).
//
// The data is a ring of records, each a u32 length and the entry's fields; `head` (where the
// writer writes next) and `tail` (where the reader reads next) are byte offsets kept in a
// separate Int32Array and moved with Atomics only after the bytes they cover are written or
// read. head === tail: empty. The writer never lets head reach tail from behind, so a full
// ring refuses the entry (the caller counts it dropped) instead of overwriting one unread.

import type { AnsweredEntry } from '../log/types.ts';
import { UA_LIMIT_BYTES } from '../tools/classify/heuristic.ts';

const HEAD = 0;
const TAIL = 1;
const NULL_FIELD = 0xffff;
/**
 * A field's length of SAME_FIELD says: the value of the record before. Most requests repeat the
 * last one's method, route, address and User-Agent, so most fields are neither copied in by the
 * server's thread nor decoded by the log's. The writer remembers the last record it wrote, the
 * reader the last it read: the same record, since the ring keeps their order.
 */
const SAME_FIELD = 0xfffe;
/** A record's length of 0 says: the rest of the ring is unused, go on at its start. */
const WRAP = 0;

type Field = 'method' | 'route' | 'address' | 'address_hash' | 'user_agent';
/**
 * The string fields in their order, each with its most bytes (UTF-8); a longer value is cut at a
 * character boundary. The User-Agent goes whole up to the most the classifier reads, and one
 * more character: booking reads it all, and one cut past that limit still reads as too long.
 * The others are route templates, addresses and hashes.
 */
const FIELDS: readonly (readonly [Field, number])[] = [
  ['method', 256],
  ['route', 256],
  ['address', 256],
  ['address_hash', 256],
  ['user_agent', UA_LIMIT_BYTES + 4],
];
const MOST_BYTES: readonly number[] = FIELDS.map(([, most]) => most);

/**
 * An entry's string fields in the order of FIELDS, each read by its name: reading them as
 * `entry[name]` in a loop made every record's write a megamorphic lookup per field.
 */
function fieldsOf(entry: AnsweredEntry): (string | null)[] {
  return [entry.method, entry.route, entry.address, entry.address_hash, entry.user_agent];
}

/** The numbers: at, duration_ms, bytes (f64) and status (u16). */
const NUMBERS_BYTES = 8 + 8 + 8 + 2;
/** The longest record, its length included. */
const RECORD_MAX = 4 + NUMBERS_BYTES + FIELDS.reduce((sum, [, most]) => sum + 2 + most, 0);

export interface LogRing {
  control: SharedArrayBuffer;
  data: SharedArrayBuffer;
}

/** A ring of `bytes` bytes (at least a few records' worth). */
export function logRing(bytes: number): LogRing {
  if (bytes < 4 * RECORD_MAX) throw new Error(`a log ring needs at least ${4 * RECORD_MAX} bytes`);
  return { control: new SharedArrayBuffer(8), data: new SharedArrayBuffer(bytes) };
}

/** The writer's side: `write` copies one entry in, or answers false when the ring is full. */
export function ringWriter(ring: LogRing): { write(entry: AnsweredEntry): boolean } {
  const control = new Int32Array(ring.control);
  const data = Buffer.from(ring.data);
  const size = data.length;
  // Undefined until a first record is written: no field is then the same as before.
  let last: readonly (string | null | undefined)[] = FIELDS.map(() => undefined);
  return {
    write(entry) {
      let head = Atomics.load(control, HEAD);
      const tail = Atomics.load(control, TAIL);
      if (head >= tail) {
        // Room before the end (strictly, so that head never comes back to 0 onto a tail at 0),
        // or at the start once the reader has moved past a record's length.
        if (size - head <= RECORD_MAX) {
          if (tail <= RECORD_MAX) return false;
          if (size - head >= 4) data.writeUInt32LE(WRAP, head);
          head = 0;
        }
      } else if (tail - head <= RECORD_MAX) return false;
      let at = head + 4;
      at = data.writeDoubleLE(entry.at, at);
      at = data.writeDoubleLE(entry.duration_ms, at);
      at = data.writeDoubleLE(entry.bytes, at);
      at = data.writeUInt16LE(entry.status, at);
      const values = fieldsOf(entry);
      for (let i = 0; i < values.length; i++) {
        const value = values[i] as string | null;
        if (value === last[i]) {
          at = data.writeUInt16LE(SAME_FIELD, at);
          continue;
        }
        if (value === null) {
          at = data.writeUInt16LE(NULL_FIELD, at);
          continue;
        }
        const written = data.write(value, at + 2, MOST_BYTES[i]!, 'utf8');
        data.writeUInt16LE(written, at);
        at += 2 + written;
      }
      data.writeUInt32LE(at - head - 4, head);
      Atomics.store(control, HEAD, at);
      last = values;
      return true;
    },
  };
}

/** The reader's side: `drain` hands every entry written so far to `each`, oldest first, and frees their room. */
export function ringReader(ring: LogRing): { drain(each: (entry: AnsweredEntry) => void): number } {
  const control = new Int32Array(ring.control);
  const data = Buffer.from(ring.data);
  const size = data.length;
  const last: (string | null)[] = FIELDS.map(() => null);
  /** Where the next field is read. */
  let field = 0;
  /** The string field `i` of the record being read, at `field`, which it moves past. */
  const text = (i: number): string | null => {
    const bytes = data.readUInt16LE(field);
    field += 2;
    if (bytes === SAME_FIELD) return last[i] ?? null;
    if (bytes === NULL_FIELD) return (last[i] = null);
    const value = data.toString('utf8', field, field + bytes);
    field += bytes;
    return (last[i] = value);
  };
  return {
    drain(each) {
      const head = Atomics.load(control, HEAD);
      let tail = Atomics.load(control, TAIL);
      let count = 0;
      while (tail !== head) {
        const length = size - tail < 4 ? WRAP : data.readUInt32LE(tail);
        if (length === WRAP) {
          tail = 0;
          continue;
        }
        const at = tail + 4;
        field = at + NUMBERS_BYTES;
        // In the order of FIELDS.
        const method = text(0);
        const route = text(1);
        const address = text(2);
        const address_hash = text(3);
        const user_agent = text(4);
        const entry: AnsweredEntry = {
          at: data.readDoubleLE(at),
          method: method ?? '',
          route: route ?? '',
          status: data.readUInt16LE(at + 24),
          bytes: data.readDoubleLE(at + 16),
          duration_ms: data.readDoubleLE(at + 8),
          address,
          address_hash,
          user_agent,
        };
        tail += 4 + length;
        each(entry);
        count++;
      }
      Atomics.store(control, TAIL, tail);
      return count;
    },
  };
}
