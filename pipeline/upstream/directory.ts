// "Last good wins" for Web Bot Auth key directories: decides, from the previous mirror entry and
// one fetch, which keys the mirror serves next. Pure but for WebCrypto's SHA-256 (the key
// thumbprints); the clock is the `now` argument.
//
// The protocol draft's discovery rules are the fetch's (200 only, no redirects, public
// addresses); this module adds what a mirror owes its readers: a failed or unusable fetch never
// evicts the keys served, the RFC 9421 test key and private key material are never published,
// and the response as served (body and its own signature headers) is kept, so that a copy
// redistributed from here can still be checked against the directory's signature.

import { isoFromSeconds } from '../util/seconds.ts';
import type { FetchOutcome } from './fetch.ts';
import { refusedAttempt, type AttemptRecord } from './last-good.ts';
import { checkDirectorySignatures, type DirectorySignature } from './directory-signature.ts';
import { parseDirectory, RFC_9421_TEST_KEY_X } from '../tools/signatures/directory.ts';
import { InputRefused } from '../tools/registry/limits.ts';
import { boundFindings, quote } from '../util/quote.ts';

export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

/** Response headers kept with the body: the directory's own signature and what it covers. */
export const DIRECTORY_SIGNATURE_HEADERS = ['signature', 'signature-input', 'content-digest'] as const;

/** The largest directory accepted. Real ones hold one to three keys in under 1 KiB. */
export const MAX_DIRECTORY_RESPONSE_BYTES = 65_536;

/** The JWK members a public key may carry that the mirror republishes; anything else is dropped. */
const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'kid', 'alg', 'use', 'nbf', 'exp'] as const;

/** Members that only a private key has (RFC 7518 6.2.2, 6.3.2; RFC 8037 2). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

export interface MirroredKey {
  /** RFC 7638 thumbprint, base64url: the keyid a Web Bot Auth signature names. */
  thumbprint: string;
  kty: string;
  crv: string | null;
  kid: string | null;
  /** The key's validity as the directory states it (JWK nbf/exp, seconds), ISO 8601; null when not stated. */
  not_before: string | null;
  expires: string | null;
  /** The public JWK as published, private members never included. */
  jwk: Record<string, string | number>;
}

/** The response the keys came from, as served: enough to check the directory's own signature again. */
interface DirectoryResponse {
  /** The body, byte for byte (UTF-8 text, as JSON must be). */
  body: string;
  content_type: string | null;
  /** The authority it was fetched from (the @authority;req a directory signature covers). */
  authority: string;
  signature: string | null;
  signature_input: string | null;
  content_digest: string | null;
  /** The directory's own signatures, checked when it was fetched. */
  signatures: DirectorySignature[];
}

export interface DirectoryEntry extends AttemptRecord {
  id: string;
  url: string;
  keys: MirroredKey[];
  response: DirectoryResponse | null;
}

export function neverFetchedDirectory(id: string, url: string): DirectoryEntry {
  return {
    id,
    url,
    state: 'never-fetched',
    keys: [],
    response: null,
    upstream_sha256: null,
    last_attempt: null,
    last_success: null,
    last_change: null,
    error: null,
    findings: [],
  };
}

/** What one fetch of the directory at `url` makes of the entry served before it. */
export async function acceptDirectory(
  previous: DirectoryEntry | undefined,
  source: { id: string; url: string },
  outcome: FetchOutcome,
  now: string,
): Promise<DirectoryEntry> {
  const base = previous ?? neverFetchedDirectory(source.id, source.url);
  const findings: string[] = [];
  const reject = (reason: string): DirectoryEntry =>
    refusedAttempt({ ...base, id: source.id, url: source.url }, now, reason, findings, { count: base.keys.length, one: 'key', many: 'keys' });

  if (outcome.kind === 'error') return reject(`Fetch failed (${outcome.code}): ${outcome.message}`);
  // Directories are fetched unconditionally, so a 304 is an upstream fault, not "unchanged".
  if (outcome.kind === 'not-modified') return reject('The directory answered 304 Not Modified to a request that was not conditional; only a 200 counts.');

  const mediaType = (outcome.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType !== DIRECTORY_MEDIA_TYPE)
    findings.push(
      outcome.contentType === null
        ? `The response has no Content-Type; expected ${DIRECTORY_MEDIA_TYPE}.`
        : `The response is labelled ${quote(outcome.contentType)}; expected ${DIRECTORY_MEDIA_TYPE}.`,
    );
  let body: string;
  try {
    body = new TextDecoder('utf-8', { fatal: true }).decode(outcome.bytes);
  } catch {
    return reject('The body is not UTF-8 text, so it is no JSON key directory.');
  }
  if (body.trim() === '') return reject('The directory is empty.');
  const privateMember = privateMaterial(body);
  if (privateMember !== null)
    return reject(`A key in the directory carries the private member "${privateMember}"; a directory that leaks a private key is never republished.`);
  let parsed: Awaited<ReturnType<typeof parseDirectory>>;
  try {
    parsed = await parseDirectory(body);
  } catch (error) {
    if (error instanceof InputRefused) return reject(`Not a key directory: ${error.message}`);
    throw error;
  }
  const published = parsed.filter((key) => key.jwk.x !== RFC_9421_TEST_KEY_X);
  if (published.length < parsed.length)
    findings.push('The directory lists the RFC 9421 published test key (B.1.4), whose private half is public; it is not served.');
  if (published.length === 0) return reject('The directory lists only the RFC 9421 published test key, which proves nothing.');
  const keys = published.map(mirroredKey).sort((a, b) => (a.thumbprint < b.thumbprint ? -1 : a.thumbprint > b.thumbprint ? 1 : 0));

  const kept = outcome.kept ?? {};
  const signature = kept['signature'] ?? null;
  const signatureInput = kept['signature-input'] ?? null;
  const contentDigest = kept['content-digest'] ?? null;
  const signatures = await checkDirectorySignatures(
    { body: outcome.bytes, url: outcome.finalUrl, signature, signatureInput, contentDigest },
    published,
    Math.floor(Date.parse(now) / 1000),
  );
  if (signature === null)
    findings.push('The response carries no Signature: the directory does not sign itself, so a copy of these keys proves nothing about who published them.');
  else if (!signatures.some((s) => s.verified))
    findings.push(
      `None of the response's signatures tagged ${JSON.stringify('http-message-signatures-directory')} verifies with a key of the directory (${signatures.map((s) => `${s.label}: ${s.reason}`).join(', ') || 'none is so tagged'}).`,
    );
  const changed = base.last_success === null || keys.map((k) => k.thumbprint).join() !== base.keys.map((k) => k.thumbprint).join();
  return {
    id: source.id,
    url: source.url,
    state: 'ok',
    keys,
    response: {
      body,
      content_type: outcome.contentType,
      authority: new URL(outcome.finalUrl).host,
      signature,
      signature_input: signatureInput,
      content_digest: contentDigest,
      signatures,
    },
    upstream_sha256: outcome.sha256,
    last_attempt: now,
    last_success: now,
    last_change: changed ? now : base.last_change,
    error: null,
    findings: boundFindings(findings),
  };
}

function mirroredKey(key: Awaited<ReturnType<typeof parseDirectory>>[number]): MirroredKey {
  const source = key.jwk as Record<string, unknown>;
  const jwk: Record<string, string | number> = {};
  for (const member of PUBLIC_MEMBERS) {
    const value = source[member];
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) jwk[member] = value;
  }
  return {
    thumbprint: key.thumbprint,
    kty: key.kty,
    crv: key.crv,
    kid: key.kid,
    not_before: isoFromSeconds(source['nbf']),
    expires: isoFromSeconds(source['exp']),
    jwk,
  };
}

/** The first private-key member any key of the directory carries, or null. Read before parsing so no private half is ever kept. */
function privateMaterial(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null; // parseDirectory says what is wrong with it
  }
  const keys = typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { keys?: unknown }).keys) ? (parsed as { keys: unknown[] }).keys : [];
  for (const key of keys) {
    if (typeof key !== 'object' || key === null) continue;
    const found = PRIVATE_MEMBERS.find((member) => member in key);
    if (found !== undefined) return found;
  }
  return null;
}
