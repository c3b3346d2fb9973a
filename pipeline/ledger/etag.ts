import { createHash } from 'node:crypto';

/** docs/API.md §2.5: the first 32 hex characters of the sha-256 over the exact bytes served. */
export function etagOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}
