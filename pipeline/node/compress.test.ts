import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { StoredDocument } from '../http/store.ts';
import { ENCODED_LINE, Encoder } from './compress.ts';

/** A compressible JSON document of about `size` bytes, different for each n. */
function documentOf(n: number, size = 32 * 1024): StoredDocument {
  const rows = Array.from({ length: Math.ceil(size / 40) }, (_, i) => ({ n, i, name: `crawler-${(i * 7919 + n) % 997}` }));
  const bytes = new Uint8Array(new TextEncoder().encode(JSON.stringify(rows)));
  const etag = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return { path: `/d/${n}.json`, bytes, type: 'application/json', etag, lastModified: '2026-01-01T00:00:00Z' };
}

function attach(encoder: Encoder, documents: StoredDocument[]): void {
  for (const document of documents) document.encoded = encoder.encodedFor(document);
}

const encodedCount = (documents: StoredDocument[]) => documents.filter((d) => (d.encoded?.size ?? 0) > 0).length;

describe('Encoder', () => {
  it('gives every compressible document br and gzip forms that decode to its bytes, and skips small ones', async () => {
    const encoder = new Encoder();
    const documents = [documentOf(1), documentOf(2), { ...documentOf(3, 200), path: '/small.json' }];
    attach(encoder, documents);
    const lines: string[] = [];
    await encoder.encodeAll(documents, (line) => lines.push(line));
    assert.equal(lines.length, 1, 'one line when the pass is whole');
    assert.match(lines[0] ?? '', new RegExp(`^${ENCODED_LINE} 2 documents \\(br and gzip\\) in \\d+\\.\\d s$`));
    lines.length = 0;
    await encoder.encodeAll(documents, (line) => lines.push(line));
    assert.deepEqual(lines, [], 'a pass that had nothing left to encode says nothing');
    for (const document of documents.slice(0, 2)) {
      assert.deepEqual(brotliDecompressSync(document.encoded?.get('br') ?? new Uint8Array()), Buffer.from(document.bytes));
      assert.deepEqual(gunzipSync(document.encoded?.get('gzip') ?? new Uint8Array()), Buffer.from(document.bytes));
    }
    assert.equal(documents[2]?.encoded?.size, 0, 'under 1 KiB is served as it is');
  });

  it('stop() ends the pass after the document in hand, so a closed server stops spending a core', async () => {
    const encoder = new Encoder();
    const documents = Array.from({ length: 12 }, (_, n) => documentOf(n));
    attach(encoder, documents);
    const pass = encoder.encodeAll(documents, () => {});
    encoder.stop();
    await pass;
    assert.ok(encodedCount(documents) <= 1, `${encodedCount(documents)} of 12 documents were encoded after stop()`);
  });

  it('a new pass (a new build) takes over from the old one, and between them every document is encoded', async () => {
    const encoder = new Encoder();
    const documents = Array.from({ length: 8 }, (_, n) => documentOf(n));
    attach(encoder, documents);
    const first = encoder.encodeAll(documents, () => {});
    // The new pass takes the documents from the other end, so that what it encodes while the old
    // pass finishes its document in hand (both run on the thread pool) is never the old pass's next.
    const second = encoder.encodeAll([...documents].reverse(), () => {});
    await first;
    assert.equal(documents[1]?.encoded?.size, 0, 'the superseded pass ended after its first document');
    await second;
    assert.equal(encodedCount(documents), 8);
  });
});
