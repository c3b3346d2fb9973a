// sha-256 as lowercase hex, and the ETag rule of docs/API.md §2.5 (its first 32 characters).
// Node's crypto is synchronous and used wherever Node runs (the build, the refresh); the Web
// Crypto form is for the handler, which must also run on edge runtimes.
import { createHash } from 'node:crypto';
import { ETAG_HEX_CHARACTERS } from './etag-rule.ts';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** docs/API.md §2.5: the first 32 hex characters of the sha-256 over the exact bytes served. */
export function etagOf(bytes: Uint8Array): string {
  return sha256Hex(bytes).slice(0, ETAG_HEX_CHARACTERS);
}
