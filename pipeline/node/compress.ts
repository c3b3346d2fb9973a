import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Coding } from '../http/encoding.ts';
import type { StoredDocument } from '../http/store.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** How the line that ends a pass of encoding starts. */
export const ENCODED_LINE = 'dist: compressed';

/** Below this, headers outweigh what compression saves. */
const MIN_BYTES = 1024;

function isCompressible(type: string): boolean {
  return type.startsWith('text/') || /^application\/(?:[\w.+-]*\+)?(?:json|xml|yaml)\b/.test(type);
}

type Encoded = Map<Coding, Uint8Array<ArrayBuffer>>;

/**
 * Encodes each document once: brotli at its best quality and gzip at level 9, on libuv's
 * thread pool, one document at a time so that serving keeps the other core. Results are kept
 * by the identity ETag, so a rebuild re-encodes only the documents whose bytes changed.
 */
export class Encoder {
  private readonly byEtag = new Map<string, Encoded>();
  /** Bumped by every encodeAll and by stop(): a pass whose number is no longer current ends before its next document. */
  private pass = 0;

  /** The (initially empty) map a document's encodings appear in; shared by every snapshot holding these bytes. */
  encodedFor(document: StoredDocument): Encoded {
    let encoded = this.byEtag.get(document.etag);
    if (!encoded) {
      encoded = new Map();
      this.byEtag.set(document.etag, encoded);
    }
    return encoded;
  }

  /**
   * Fills in the encodings of these documents; resolves when all are done, or when a newer pass
   * or stop() takes over (a new build supersedes the old one's queue). Never rejects.
   */
  async encodeAll(documents: Iterable<StoredDocument>, log: (line: string) => void): Promise<void> {
    const pass = ++this.pass;
    const started = performance.now();
    let made = 0;
    for (const document of documents) {
      if (pass !== this.pass) return;
      if (!isCompressible(document.type) || document.bytes.byteLength < MIN_BYTES) continue;
      const encoded = this.encodedFor(document);
      if (encoded.size > 0) continue;
      try {
        const br = await brotli(document.bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: document.bytes.byteLength },
        });
        const gz = await gzipAsync(document.bytes, { level: 9 });
        // Offer a coding only where it saves bytes. Copied once into plain ArrayBuffers.
        if (br.byteLength < document.bytes.byteLength) encoded.set('br', new Uint8Array(br));
        if (gz.byteLength < document.bytes.byteLength) encoded.set('gzip', new Uint8Array(gz));
        made++;
      } catch (error) {
        log(`dist: ${document.path} is served uncompressed: ${(error as Error).message}`);
      }
    }
    // Said once the pass is whole: until then the server spends a core on it (npm run bench waits for this line).
    if (made > 0) log(`${ENCODED_LINE} ${made} documents (br and gzip) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  /**
   * Ends the current pass after the document in hand: a closed server stops spending a core on
   * documents it will never serve (brotli at its best quality takes seconds over a whole tree).
   */
  stop(): void {
    this.pass++;
  }

  /** Forgets encodings no document of the current snapshot uses. */
  retainOnly(etags: ReadonlySet<string>): void {
    for (const etag of this.byEtag.keys()) if (!etags.has(etag)) this.byEtag.delete(etag);
  }
}
