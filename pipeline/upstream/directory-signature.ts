// Checks the directory's own signatures: the protocol draft asks a directory server to sign its
// response once per key (tag "http-message-signatures-directory", covering @authority;req and
// content-digest, with created, expires and keyid), which proves the key holders published this
// key set under this authority. A verifier that takes keys from a copy rather than from the
// directory must check that proof before attributing a request to the directory's origin; the
// mirror checks it at fetch time and publishes the result beside the headers, so a reader can
// rely on it or check again. The RFC 9421 work is http-message-sig's, as for request signatures.
import { isoFromSeconds } from '../util/seconds.ts';
import { component, isSignatureError, verifySignature, webcrypto } from 'http-message-sig';
import { isInnerList, parseDictionary, type Dictionary } from 'structured-headers';
import type { DirectoryKey } from '../tools/signatures/directory.ts';
import { CLOCK_SKEW_SECONDS, MAX_SIGNATURES } from '../tools/signatures/limits.ts';

const DIRECTORY_TAG = 'http-message-signatures-directory';

export interface DirectorySignature {
  label: string;
  keyid: string | null;
  verified: boolean;
  /** verified, or the first rule broken: no-such-key, unsupported-key, bad-digest, a library error code, bad-signature. */
  reason: string;
  created: string | null;
  expires: string | null;
  /** Whether the signature covers content-digest and the digest matches the body: only then is the key set itself signed. */
  covers_body: boolean;
}

interface SignedResponse {
  body: Uint8Array;
  /** The URL the directory was fetched from: its authority is what @authority;req names. */
  url: string;
  signature: string | null;
  signatureInput: string | null;
  contentDigest: string | null;
}

/** One check per signature tagged for the directory, at `now` (seconds); [] when the response carries none. */
export async function checkDirectorySignatures(response: SignedResponse, keys: readonly DirectoryKey[], now: number): Promise<DirectorySignature[]> {
  if (response.signature === null || response.signatureInput === null) return [];
  const inputs = dictionary(response.signatureInput);
  if (inputs === null) return [];
  const tagged = [...inputs].filter(([, member]) => isInnerList(member) && member[1].get('tag') === DIRECTORY_TAG).slice(0, MAX_SIGNATURES);
  const digestOk = response.contentDigest === null ? false : await digestMatches(response.contentDigest, response.body);
  const fields = [
    { name: 'signature', value: response.signature },
    { name: 'signature-input', value: response.signatureInput },
    ...(response.contentDigest === null ? [] : [{ name: 'content-digest', value: response.contentDigest }]),
  ];
  const request = { kind: 'request' as const, method: 'GET', targetUri: response.url, fields: [] };
  return Promise.all(
    tagged.map(async ([label, member]): Promise<DirectorySignature> => {
      const params = isInnerList(member) ? member[1] : new Map();
      const keyid = typeof params.get('keyid') === 'string' ? (params.get('keyid') as string) : null;
      const coversDigest = isInnerList(member) && member[0].some(([name]) => name === 'content-digest');
      const result = (verified: boolean, reason: string): DirectorySignature => ({
        label,
        keyid,
        verified,
        reason,
        created: isoFromSeconds(params.get('created')),
        expires: isoFromSeconds(params.get('expires')),
        covers_body: verified && coversDigest && digestOk,
      });
      const key = keys.find((k) => k.thumbprint === keyid);
      if (key === undefined) return result(false, 'no-such-key');
      if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return result(false, 'unsupported-key');
      if (coversDigest && !digestOk) return result(false, 'bad-digest');
      try {
        const cryptoKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.jwk.x }, { name: 'Ed25519' }, false, ['verify']);
        await verifySignature(
          { kind: 'response', status: 200, fields, request },
          {
            label,
            policy: {
              algorithms: ['ed25519'],
              requiredComponents: [component('@authority', { req: true })],
              requiredParameters: ['created', 'expires', 'keyid', 'tag'],
              now,
              clockSkew: CLOCK_SKEW_SECONDS,
            },
            resolveVerifier: () => webcrypto.verifier(cryptoKey),
          },
        );
        return result(true, 'verified');
      } catch (error) {
        if (isSignatureError(error)) return result(false, error.code === 'VerificationFailed' ? 'bad-signature' : error.code);
        // A key WebCrypto cannot import is no key this signature could be checked with.
        return result(false, 'unsupported-key');
      }
    }),
  );
}

/** RFC 9530 Content-Digest: true when a sha-256 or sha-512 member matches the body. */
async function digestMatches(header: string, body: Uint8Array): Promise<boolean> {
  const digests = dictionary(header);
  if (digests === null) return false;
  for (const [name, algorithm] of [
    ['sha-256', 'SHA-256'],
    ['sha-512', 'SHA-512'],
  ] as const) {
    const member = digests.get(name);
    if (member === undefined || isInnerList(member) || !(member[0] instanceof ArrayBuffer)) continue;
    const actual = new Uint8Array(await crypto.subtle.digest(algorithm, new Uint8Array(body)));
    const claimed = new Uint8Array(member[0]);
    return actual.length === claimed.length && actual.every((byte, i) => byte === claimed[i]);
  }
  return false;
}

function dictionary(value: string): Dictionary | null {
  try {
    return parseDictionary(value);
  } catch {
    // Not a structured dictionary: no signature can be read from it.
    return null;
  }
}
