// Checks one request's Web Bot Auth signature (draft-meunier-web-bot-auth-architecture, the
// profile of RFC 9421 HTTP Message Signatures the IETF webbotauth group works from). This
// module applies the profile's rules in a fixed order and says which one failed; the RFC 9421
// work itself (the signature base, its canonicalisation, the structured-field parsing of
// Signature and Signature-Input, and the Ed25519 check through WebCrypto) is http-message-sig's,
// Cloudflare's maintained implementation, which runs unchanged on an edge runtime.
import { isoFromSeconds } from '../../util/seconds.ts';
import { isSignatureError, SignatureErrorCode, verifySignature, webcrypto } from 'http-message-sig';
import { isInnerList, parseDictionary, type Dictionary, type InnerList } from 'structured-headers';
import { readSignatureAgent, type AgentForm } from './agent.ts';
import type { DirectoryKey } from './directory.ts';
import { CLOCK_SKEW_SECONDS, MAX_SIGNATURES } from './limits.ts';
import type { SignedRequest } from './request.ts';

const WEB_BOT_AUTH_TAG = 'web-bot-auth';

/** Why a signature is or is not accepted; one value per rule, in the order they are applied. */
export const REASONS = [
  'verified',
  'malformed-header',
  'too-many-signatures',
  'tag-not-web-bot-auth',
  'missing-parameter',
  'missing-component',
  'created-in-future',
  'expired',
  'unknown-agent',
  'key-not-in-directory',
  'unsupported-algorithm',
  'covered-field-missing',
  'bad-signature',
] as const;
type Reason = (typeof REASONS)[number];

/** A directory the index mirrors, as the verifier needs it: whose keys, from where, as of when. */
export interface MirroredDirectory {
  id: string;
  directory_url: string;
  state: string;
  fetched_at: string | null;
  keys: readonly DirectoryKey[];
}

/**
 * Where the keys come from: the caller's inline directory, or the index's mirror, looked up by
 * the Signature-Agent the request names (the protocol draft keys a lookup on the pair of that
 * URL and the keyid, never on the keyid alone, so a key learned from one agent cannot verify a
 * request that claims another).
 */
export type KeySource = { kind: 'inline'; keys: readonly DirectoryKey[] } | { kind: 'mirror'; find(agentUrl: string): MirroredDirectory | null };

export interface Verdict {
  verified: boolean;
  reason: Reason;
  /** One sentence saying what was found and, when it failed, what to do. */
  message: string;
  /** For malformed-header: the header at fault. */
  field: 'signature' | 'signature-input' | 'signature-agent' | null;
  label: string | null;
  tag: string | null;
  keyid: string | null;
  algorithm: string | null;
  created: number | null;
  expires: number | null;
  covered_components: string[];
  /** For missing-component and missing-parameter: what the profile requires and the signature lacks. */
  missing: string[];
  signature_agent: { value: string; form: AgentForm; member: string | null; url: string } | null;
  key: { thumbprint: string; kty: string; crv: string | null; kid: string | null } | null;
}

/**
 * The verdict on `request` at `now` (seconds since the epoch; the caller's clock, passed in so
 * this stays a pure function and published test vectors can be checked at their own time).
 */
export async function verifyRequest(request: SignedRequest, keys: KeySource, now: number): Promise<Verdict> {
  const verdict = emptyVerdict();
  const fail = (reason: Reason, message: string, extra: Partial<Verdict> = {}): Verdict => ({ ...verdict, ...extra, verified: false, reason, message });

  const inputs = dictionaryOf(request, 'signature-input');
  const signatures = dictionaryOf(request, 'signature');
  if (inputs === null)
    return fail('malformed-header', 'Signature-Input is not a structured-field dictionary of signatures (RFC 9421 4.1).', { field: 'signature-input' });
  if (signatures === null)
    return fail('malformed-header', 'Signature is not a structured-field dictionary of byte sequences (RFC 9421 4.2).', { field: 'signature' });
  if (inputs.size > MAX_SIGNATURES)
    return fail('too-many-signatures', `The request carries ${inputs.size} signatures; at most ${MAX_SIGNATURES} are read.`, { field: 'signature-input' });

  // Web Bot Auth: the signature to check is the one tagged web-bot-auth; a request may carry others.
  const tagged = [...inputs].find(([, member]) => isInnerList(member) && member[1].get('tag') === WEB_BOT_AUTH_TAG);
  if (tagged === undefined) {
    const tags = [...inputs.values()].map((m) => m[1].get('tag')).filter((t): t is string => typeof t === 'string');
    return fail(
      'tag-not-web-bot-auth',
      `No signature has tag="${WEB_BOT_AUTH_TAG}"${tags.length > 0 ? ` (tags seen: ${tags.map((t) => `"${t.slice(0, 40)}"`).join(', ')})` : ' (no signature has a tag)'}; Web Bot Auth signatures must carry it.`,
      { field: 'signature-input', tag: tags[0] ?? null },
    );
  }
  const [label, member] = tagged as [string, InnerList];
  const params = member[1];
  verdict.label = label;
  verdict.tag = WEB_BOT_AUTH_TAG;
  verdict.keyid = stringParam(params, 'keyid');
  verdict.algorithm = stringParam(params, 'alg');
  verdict.created = integerParam(params, 'created');
  verdict.expires = integerParam(params, 'expires');
  verdict.covered_components = member[0].map(([name, componentParams]) => componentText(name, componentParams));
  const signed = signatures.get(label);
  if (signed === undefined)
    return fail('malformed-header', `Signature-Input has a signature labelled ${label} and Signature has none with that label.`, { field: 'signature' });
  if (isInnerList(signed) || !(signed[0] instanceof ArrayBuffer))
    return fail('malformed-header', `Signature's ${label} is not a byte sequence (${label}=:base64:), RFC 9421 4.2.`, { field: 'signature' });

  const missingParams = (['created', 'expires', 'keyid'] as const).filter((name) => (name === 'keyid' ? verdict.keyid : verdict[name]) === null);
  if (missingParams.length > 0)
    return fail('missing-parameter', `The signature lacks ${missingParams.join(', ')}; Web Bot Auth requires created, expires, keyid and tag.`, {
      missing: missingParams,
    });

  // The profile: @authority always; signature-agent whenever the request carries that header.
  const agentHeader = request.fields.filter((f) => f.name === 'signature-agent').map((f) => f.value);
  const agentComponent = member[0].find(([name]) => name === 'signature-agent');
  const missingComponents = [
    ...(member[0].some(([name]) => name === '@authority') ? [] : ['@authority']),
    ...(agentHeader.length > 0 && agentComponent === undefined ? ['signature-agent'] : []),
  ];
  if (missingComponents.length > 0)
    return fail(
      'missing-component',
      `The signature does not cover ${missingComponents.map((c) => `"${c}"`).join(' or ')}; Web Bot Auth signatures must, so that a signature cannot be replayed to another site${missingComponents.includes('signature-agent') ? ' or under another agent' : ''}.`,
      { missing: missingComponents },
    );

  if (agentHeader.length > 0) {
    const selectedKey = agentComponent?.[1].get('key');
    const reading = readSignatureAgent(agentHeader.join(', '), typeof selectedKey === 'string' ? selectedKey : null, label);
    if (!reading.ok) return fail('malformed-header', reading.message, { field: 'signature-agent' });
    verdict.signature_agent = { value: agentHeader.join(', '), form: reading.form, member: reading.member, url: reading.url };
  }

  const created = verdict.created as number;
  const expires = verdict.expires as number;
  if (created > now + CLOCK_SKEW_SECONDS)
    return fail(
      'created-in-future',
      `The signature was created at ${iso(created)}, after this server's time ${iso(now)} (${CLOCK_SKEW_SECONDS} s of clock difference allowed).`,
    );
  if (expires < now - CLOCK_SKEW_SECONDS) return fail('expired', `The signature expired at ${iso(expires)}; this server's time is ${iso(now)}.`);

  let known: readonly DirectoryKey[];
  let from = 'the directory';
  if (keys.kind === 'inline') known = keys.keys;
  else {
    const agent = verdict.signature_agent?.url ?? null;
    const passIt = `pass the agent's directory (${agent ? directoryUrl(agent) : 'its /.well-known/http-message-signatures-directory'}) as directory`;
    if (agent === null)
      return fail(
        'unknown-agent',
        `The request names no Signature-Agent, so the index cannot tell whose keys to check it against (Web Bot Auth requests must send one); ${passIt}.`,
      );
    const mirrored = keys.find(agent);
    if (mirrored === null) return fail('unknown-agent', `The index mirrors no key directory for ${agent}; ${passIt}.`);
    if (mirrored.keys.length === 0)
      return fail(
        'unknown-agent',
        `The index has not fetched ${mirrored.directory_url} successfully yet (state ${mirrored.state}), so it holds no key for ${agent}; ${passIt}.`,
      );
    known = mirrored.keys;
    from = `the mirrored directory ${mirrored.directory_url} (fetched ${mirrored.fetched_at ?? 'at an unknown time'})`;
  }
  const key = known.find((k) => k.thumbprint === verdict.keyid);
  if (key === undefined)
    return fail('key-not-in-directory', `No key in ${from} has the thumbprint ${verdict.keyid}; its keys are ${known.map((k) => k.thumbprint).join(', ')}.`);
  verdict.key = { thumbprint: key.thumbprint, kty: key.kty, crv: key.crv, kid: key.kid };
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519' || (verdict.algorithm !== null && verdict.algorithm !== 'ed25519'))
    return fail(
      'unsupported-algorithm',
      `The key is ${key.kty}${key.crv ? ` ${key.crv}` : ''}${verdict.algorithm ? ` and the signature says alg="${verdict.algorithm}"` : ''}; this verifier checks Ed25519 (alg="ed25519"), the algorithm Web Bot Auth agents sign with.`,
    );

  return checkSignature(request, label, key, now, verdict, fail);
}

/** The RFC 9421 check proper, by the library; its error codes map onto the reasons left. */
async function checkSignature(
  request: SignedRequest,
  label: string,
  key: DirectoryKey,
  now: number,
  verdict: Verdict,
  fail: (reason: Reason, message: string, extra?: Partial<Verdict>) => Verdict,
): Promise<Verdict> {
  let cryptoKey: CryptoKey;
  try {
    cryptoKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  } catch (error) {
    return fail('unsupported-algorithm', `The directory's key ${key.thumbprint} is not a usable Ed25519 public key (${errorText(error)}).`);
  }
  try {
    await verifySignature(
      { kind: 'request', method: request.method, targetUri: request.targetUri, fields: request.fields },
      {
        label,
        policy: {
          algorithms: ['ed25519'],
          requiredComponents: ['@authority'],
          requiredParameters: ['created', 'expires', 'keyid', 'tag'],
          now,
          clockSkew: CLOCK_SKEW_SECONDS,
        },
        resolveVerifier: () => webcrypto.verifier(cryptoKey),
      },
    );
  } catch (error) {
    if (!isSignatureError(error)) throw error;
    if (error.code === SignatureErrorCode.VerificationFailed)
      return fail(
        'bad-signature',
        `The signature does not match the request under key ${key.thumbprint}: the request was changed after signing (method, URI, or a covered header), or it was not signed with this key.`,
      );
    if (error.code === SignatureErrorCode.MissingField)
      return fail('covered-field-missing', `The signature covers a header the request does not carry: ${error.message}.`);
    return fail('malformed-header', `The signature cannot be checked: ${error.message}.`, { field: 'signature-input' });
  }
  return {
    ...verdict,
    verified: true,
    reason: 'verified',
    message: `Signed by key ${key.thumbprint}${verdict.signature_agent ? ` of ${verdict.signature_agent.url}` : ''}, valid until ${iso(verdict.expires as number)}.`,
  };
}

function emptyVerdict(): Verdict {
  return {
    verified: false,
    reason: 'malformed-header',
    message: '',
    field: null,
    label: null,
    tag: null,
    keyid: null,
    algorithm: null,
    created: null,
    expires: null,
    covered_components: [],
    missing: [],
    signature_agent: null,
    key: null,
  };
}

/** The header's dictionary (repeated fields joined as RFC 9110 5.3 allows), or null when it does not parse. */
function dictionaryOf(request: SignedRequest, name: string): Dictionary | null {
  const value = request.fields
    .filter((f) => f.name === name)
    .map((f) => f.value)
    .join(', ');
  try {
    return parseDictionary(value);
  } catch {
    // The caller reports the header as malformed.
    return null;
  }
}

function stringParam(params: Map<string, unknown>, name: string): string | null {
  const value = params.get(name);
  return typeof value === 'string' ? value : null;
}

function integerParam(params: Map<string, unknown>, name: string): number | null {
  const value = params.get(name);
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

function componentText(name: unknown, params: Map<string, unknown>): string {
  const key = params.get('key');
  return `${String(name)}${typeof key === 'string' ? `;key="${key}"` : ''}`;
}

function directoryUrl(agent: string): string {
  const url = new URL(agent);
  // The current drafts let Signature-Agent name the directory itself; the older ones name the origin.
  return url.pathname === '/' ? `${url.origin}/.well-known/http-message-signatures-directory` : agent;
}

/** For a message: the time as ISO 8601, or the number as sent when no Date can hold it. */
function iso(seconds: number): string {
  return isoFromSeconds(seconds) ?? String(seconds);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
