// What the handler needs from a published tree. Node serves it from a verified in-memory
// snapshot of dist/ (pipeline/node/dist-snapshot.ts); an edge runtime can back it with its
// asset binding. No Node API here.
import { canonicalJson } from '../util/canonical-json.ts';
import type { Coding } from './encoding.ts';
import { etagOfWeb } from '../util/etag-rule.ts';

export interface StoredDocument {
  path: string;
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  /** Strong validator: first 32 hex of sha-256 over `bytes`. */
  etag: string;
  /** ISO time the bytes last changed. */
  lastModified: string;
  /**
   * Where the server serves other bytes than the build wrote (relocated to another base URL,
   * node/relocated-snapshot.ts): the ETag of the file as written, which names the build.
   */
  builtEtag?: string;
  /**
   * The same bytes with a content-coding applied, where the runtime made them (Node does, once
   * per snapshot, in the background). Absent or missing a coding: that coding is not offered.
   */
  encoded?: ReadonlyMap<Coding, Uint8Array<ArrayBuffer>>;
}

export interface DocumentStore {
  get(path: string): Promise<StoredDocument | null>;
  /**
   * The document at a path without waiting, where the store holds its documents in memory;
   * undefined where it cannot answer synchronously (then callers use get()).
   */
  peek?(path: string): StoredDocument | null | undefined;
  /** Time the newest document last changed; the /api/v1 root's generated_at. */
  generatedAt(): Promise<string>;
}

/** A computed JSON answer as a document: canonical bytes and their strong ETag. */
export async function jsonDocument(path: string, value: unknown, lastModified: string): Promise<StoredDocument> {
  return jsonBytesDocument(path, new TextEncoder().encode(canonicalJson(value)), lastModified);
}

/** The same, for JSON already encoded (a caller that measured the bytes first), and perhaps tagged where it was encoded. */
export async function jsonBytesDocument(path: string, bytes: Uint8Array<ArrayBuffer>, lastModified: string, etag?: string): Promise<StoredDocument> {
  return { path, bytes, type: 'application/json', etag: etag ?? (await etagOfWeb(bytes)), lastModified };
}
