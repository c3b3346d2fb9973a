// A build published for one base URL, served by a server told its own (BASE_URL, docs/API.md
// §1.3): every stored document that names the build's base URL names the server's instead, and
// the ledger lists the bytes served and their ETags. An agent that discovers the API through
// the api-catalog, host-meta, llms.txt, the sitemap, OpenAPI's servers, the feeds or a tool's
// MCP address then stays on the server it was pointed at. The snapshot in, a new one out;
// nothing else is read or changed.
import type { StoredDocument } from '../http/store.ts';
import { type Ledger, LEDGER_JSON, LEDGER_TXT, ledgerJson, ledgerText } from '../ledger/ledger.ts';
import { etagOf } from '../util/sha256.ts';

/** How long relocation runs before it lets the event loop answer requests. */
const SLICE_MS = 10;

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The two forms in which a build writes its own address: the base URL, and its host alone
 * (apis.json's `aid`, swagger.json's `host`). Both are replaced in one pass, the URL first where
 * both match, so a host that contains the old one is not replaced again. A base URL with a path
 * is written as a path in one more place, swagger.json's `basePath`, which keeps the build's.
 */
function addressReplacer(from: string, to: string): (text: string) => string {
  const fromHost = new URL(from).host;
  const toHost = new URL(to).host;
  const pattern = new RegExp(`${escapeRegex(from)}|${escapeRegex(fromHost)}`, 'g');
  return (text) => text.replace(pattern, (found) => (found === from ? to : toHost));
}

/**
 * The documents with the address `from` replaced by `to` wherever it occurs, each with the ETag
 * of its new bytes, and the two ledger documents written again from the ledger those bytes make
 * (the ledger's own rendering, so they read as a build for `to` would have written them).
 */
export async function relocateDocuments(
  documents: ReadonlyMap<string, StoredDocument>,
  ledger: Ledger,
  relocation: { from: string; to: string; siteName: string },
): Promise<{ documents: Map<string, StoredDocument>; ledger: Ledger }> {
  const { from, to } = relocation;
  const replace = addressReplacer(from, to);
  // Every document that names the base URL also names its host; one that names neither is kept as it is.
  const needle = Buffer.from(new URL(from).host);
  const moved = new Map<string, StoredDocument>();
  // A new build is relocated while the server answers from the previous one: the work is done
  // in slices, so that no request waits behind all of it (a whole tree takes about 300 ms).
  let slice = performance.now();
  for (const [path, document] of documents) {
    if (performance.now() - slice > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
    if (
      path === LEDGER_JSON ||
      path === LEDGER_TXT ||
      Buffer.from(document.bytes.buffer, document.bytes.byteOffset, document.bytes.byteLength).indexOf(needle) === -1
    ) {
      moved.set(path, document);
      continue;
    }
    const bytes = utf8.encode(replace(decoder.decode(document.bytes))) as Uint8Array<ArrayBuffer>;
    moved.set(path, {
      path,
      bytes,
      type: document.type,
      etag: etagOf(bytes),
      lastModified: document.lastModified,
      builtEtag: document.builtEtag ?? document.etag,
    });
  }
  const entries = ledger.documents.map((entry) => {
    const document = moved.get(entry.path);
    if (document === undefined || document === documents.get(entry.path)) return entry;
    // A page's etag is null in the ledger (its live counters make each answer differ); its file's tag moves instead.
    return { ...entry, bytes: document.bytes.length, ...(entry.etag === null ? { file_etag: document.etag } : { etag: document.etag }) };
  });
  const relocated: Ledger = {
    ...ledger,
    counts: { ...ledger.counts, bytes: entries.reduce((sum, entry) => sum + entry.bytes, 0) },
    documents: entries,
  };
  for (const [path, text] of [
    [LEDGER_JSON, ledgerJson(relocated)],
    [LEDGER_TXT, ledgerText(relocated, relocation.siteName)],
  ] as const) {
    const stored = documents.get(path);
    if (stored === undefined) continue;
    const bytes = utf8.encode(text) as Uint8Array<ArrayBuffer>;
    moved.set(path, { ...stored, bytes, etag: etagOf(bytes) });
  }
  return { documents: moved, ledger: relocated };
}
