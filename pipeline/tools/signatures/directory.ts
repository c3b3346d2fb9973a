// A key directory (draft-meunier-http-message-signatures-directory): JSON shaped like a JWKS,
// {"keys": [JWK, ...]}. Web Bot Auth names a key by its JWK thumbprint (RFC 7638), so each key
// is indexed by that. Only the digest is WebCrypto's; the canonical member set is RFC 7638 3.2.
import { InputRefused } from '../registry/limits.ts';
import { MAX_DIRECTORY_BYTES, MAX_DIRECTORY_KEYS } from './limits.ts';

export interface DirectoryKey {
  /** The RFC 7638 thumbprint, base64url: what a Web Bot Auth signature's keyid names. */
  thumbprint: string;
  kty: string;
  crv: string | null;
  /** The key's own kid, when the directory gives one (informative: keyid must be the thumbprint). */
  kid: string | null;
  jwk: JsonWebKey;
}

export const DIRECTORY_ACCEPTED = `a key directory as JSON, {"keys": [JWK, ...]} (the body of /.well-known/http-message-signatures-directory), at most ${MAX_DIRECTORY_BYTES} bytes and ${MAX_DIRECTORY_KEYS} keys`;

/**
 * The x of the Ed25519 key RFC 9421 publishes with its private half (B.1.4, test-key-ed25519):
 * anyone can sign with it, so a signature by it proves nothing and a mirror never serves it.
 */
export const RFC_9421_TEST_KEY_X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs';

/** RFC 7638 3.2: the required members of each key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  OKP: ['crv', 'kty', 'x'],
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
};

/** Parses and indexes a directory; anything that is not one is refused, naming `directory`. */
export async function parseDirectory(text: string): Promise<DirectoryKey[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new InputRefused('directory', 'directory is not JSON.', DIRECTORY_ACCEPTED);
  }
  if (!isObject(parsed) || !Array.isArray(parsed['keys'])) throw new InputRefused('directory', 'directory has no "keys" array.', DIRECTORY_ACCEPTED);
  const keys: unknown[] = parsed['keys'];
  if (keys.length === 0) throw new InputRefused('directory', 'directory lists no key.', DIRECTORY_ACCEPTED);
  if (keys.length > MAX_DIRECTORY_KEYS)
    throw new InputRefused('directory', `directory lists ${keys.length} keys; at most ${MAX_DIRECTORY_KEYS}.`, DIRECTORY_ACCEPTED);
  return Promise.all(keys.map((key, index) => indexKey(key, index)));
}

async function indexKey(key: unknown, index: number): Promise<DirectoryKey> {
  const where = `directory key ${index + 1}`;
  if (!isObject(key) || typeof key['kty'] !== 'string') throw new InputRefused('directory', `${where} is not a JWK with a "kty".`, DIRECTORY_ACCEPTED);
  const kty = key['kty'];
  const members = THUMBPRINT_MEMBERS[kty];
  if (members === undefined) throw new InputRefused('directory', `${where} has kty "${kty.slice(0, 20)}"; accepted: OKP, EC, RSA.`, DIRECTORY_ACCEPTED);
  const canonical: Record<string, string> = {};
  for (const member of members) {
    const value = key[member];
    if (typeof value !== 'string' || value === '') throw new InputRefused('directory', `${where} (${kty}) lacks "${member}".`, DIRECTORY_ACCEPTED);
    canonical[member] = value;
  }
  return {
    thumbprint: await thumbprint(canonical),
    kty,
    crv: typeof key['crv'] === 'string' ? key['crv'] : null,
    kid: typeof key['kid'] === 'string' ? key['kid'] : null,
    jwk: key as JsonWebKey,
  };
}

/** RFC 7638 3.1: SHA-256 of the members' JSON with no white space, keys in order (members is built in that order). */
async function thumbprint(members: Record<string, string>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(members)));
  return base64url(new Uint8Array(digest));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
