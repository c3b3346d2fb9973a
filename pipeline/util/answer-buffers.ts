// The memory of sent answers, written into again.
//
// A large answer (verify of 500 addresses: half a megabyte) is written on a tool thread and its
// buffer handed to the answering thread. Left there, each one counts as external memory until
// it is collected, and at about 120 MB/s V8 started a full collection on that thread every
// third of a second (28 in 10 s under --trace-gc). Handed back once sent, it leaves that
// thread's count at once (one in 10 s) and is written into again on the tool thread. An MCP
// answer spliced together on the answering thread is kept there the same way (http/mcp.ts).
// So no thread allocates or collects a buffer per large answer (docs/API.md §8.1).

/** Buffers smaller than this are not worth handing back: one message each would cost more. */
export const REUSED_MIN_BYTES = 64 * 1024;
/** Buffers kept for reuse by one thread, and their bytes at most; more are left to the collector. */
const KEPT_BUFFERS = 16;
const KEPT_BYTES = 16 * 1024 * 1024;

export interface AnswerBuffers {
  /** `length` bytes: in a kept buffer no more than twice as large, or new. */
  take(length: number): Uint8Array<ArrayBuffer>;
  /** Keeps buffers given back, within the bounds above. */
  keep(buffers: readonly ArrayBuffer[]): void;
  /** Buffers kept now (for tests). */
  readonly size: number;
}

export function answerBuffers(): AnswerBuffers {
  const kept: ArrayBuffer[] = [];
  let keptBytes = 0;
  return {
    take(length) {
      if (length >= REUSED_MIN_BYTES) {
        // The smallest kept buffer that holds the answer, if it wastes no more than the answer's own size.
        let best = -1;
        for (let i = 0; i < kept.length; i++) {
          const size = kept[i]!.byteLength;
          if (size >= length && size <= 2 * length && (best === -1 || size < kept[best]!.byteLength)) best = i;
        }
        if (best !== -1) {
          const [buffer] = kept.splice(best, 1) as [ArrayBuffer];
          keptBytes -= buffer.byteLength;
          return new Uint8Array(buffer, 0, length);
        }
      }
      return new Uint8Array(length);
    },
    keep(buffers) {
      for (const buffer of buffers) {
        if (buffer.byteLength < REUSED_MIN_BYTES || kept.length >= KEPT_BUFFERS || keptBytes + buffer.byteLength > KEPT_BYTES) continue;
        kept.push(buffer);
        keptBytes += buffer.byteLength;
      }
    },
    get size() {
      return kept.length;
    },
  };
}
