/** How many hex characters of a document's sha-256 make its ETag (docs/API.md §2.5). */
export const ETAG_HEX_CHARACTERS = 32;

/** The same ETag as util/sha256.ts etagOf, with Web Crypto: for code that must run without Node. */
export async function etagOfWeb(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, ETAG_HEX_CHARACTERS);
}
