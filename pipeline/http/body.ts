/** The outcome of reading a request body under a size limit. */
export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false };

// Past the limit the rest of an upload is read and dropped, up to this many bytes, so that the
// 413 reaches the client and its connection stays usable (a server that stops reading leaves
// the client writing into a full socket). A larger upload is cut off.
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

/** Reads at most `limit` bytes of the body; a declared or actual size over the limit is refused. */
export async function readBody(request: Request, limit: number): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (request.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = request.body.getReader();
  if (declared > limit) return drain(reader, 0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) return drain(reader, received);
    chunks.push(value);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, bytes };
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, received: number): Promise<BodyResult> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { ok: false };
    received += value.byteLength;
    if (received > DRAIN_LIMIT_BYTES) {
      await reader.cancel();
      return { ok: false };
    }
  }
}
