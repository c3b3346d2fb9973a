import { isoFromSeconds } from '../../util/seconds.ts';
import { InputRefused } from '../registry/limits.ts';
import { defineTool } from '../registry/types.ts';
import { crawlersForAgent } from '../signatures/crawlers.ts';
import { findMirroredDirectory } from '../signatures/mirror.ts';
import { DIRECTORY_ACCEPTED, parseDirectory, RFC_9421_TEST_KEY_X } from '../signatures/directory.ts';
import { CLOCK_SKEW_SECONDS, MAX_AGENT_BYTES, MAX_DIRECTORY_BYTES, MAX_HEAD_BYTES, MAX_SIGNATURE_FIELD_BYTES, MAX_URI_BYTES } from '../signatures/limits.ts';
import {
  AUTHORITY_ACCEPTED,
  HEAD_ACCEPTED,
  METHOD_ACCEPTED,
  requestFromHead,
  requestFromParts,
  signatureAccepted,
  URL_ACCEPTED,
  type RequestParts,
} from '../signatures/request.ts';
import { REASONS, verifyRequest, type KeySource } from '../signatures/verify.ts';

/** The separate request parameters, refused beside a raw head (one request, said once). */
const PART_NAMES = ['method', 'url', 'authority', 'path', 'signature', 'signature_input', 'signature_agent'] as const;

/** The RFC 9421 B.1.4 test key: published with its private half, so a signature by it proves nothing about who signed. */

export const verifySignatureTool = defineTool({
  name: 'verify_signature',
  path: 'verify-signature',
  title: 'Is this signed request really from its agent?',
  description: `Checks a request's Web Bot Auth signature (HTTP Message Signatures, RFC 9421, as the IETF webbotauth drafts profile them) without a key or an account: give the request's method, URL and its Signature, Signature-Input and Signature-Agent headers, or the raw request head as one text, and the agent's key directory as directory. Answers verified or not and why (${REASONS.join(', ')}), the signer (the Signature-Agent URL, and whether it came as the current dictionary form or the older bare string), the key id (the JWK thumbprint, RFC 7638) and the crawler records it maps to (by the Signature-Agent a record documents, else by its key directory's origin). The keys come from the index's mirror of the directory the Signature-Agent names; for an agent it does not mirror, pass that directory as directory (without it the answer is unknown-agent, naming the directory to fetch). Checked at this server's time, allowing ${CLOCK_SKEW_SECONDS} s of clock difference; Ed25519 keys.`,
  params: [
    {
      name: 'request',
      kind: 'string',
      required: false,
      maxBytes: MAX_HEAD_BYTES,
      description:
        'The whole request head as one text: the request line, then the header lines (Host, Signature, Signature-Input, Signature-Agent...). Instead of the separate parameters.',
      http: 'POST it as the raw body, or URL-encode it in the query string.',
      accepted: `${HEAD_ACCEPTED}; at most ${MAX_HEAD_BYTES} bytes`,
      example:
        'GET /path HTTP/1.1\nHost: example.com\nSignature-Agent: agent1="https://agent.example"\nSignature-Input: sig1=("@authority" "signature-agent";key="agent1");created=...;expires=...;keyid="...";tag="web-bot-auth"\nSignature: sig1=:...:',
    },
    {
      name: 'method',
      kind: 'string',
      required: false,
      maxBytes: 32,
      description: 'The request method (default GET).',
      accepted: METHOD_ACCEPTED,
    },
    {
      name: 'url',
      kind: 'string',
      required: false,
      maxBytes: MAX_URI_BYTES,
      description: 'The request target as an absolute URI: the site it was sent to (@authority) and its path and query.',
      accepted: URL_ACCEPTED,
      example: 'https://example.com/path/to/resource',
    },
    {
      name: 'authority',
      kind: 'string',
      required: false,
      maxBytes: 262,
      description: 'Instead of url: the Host the request was sent to (read as https).',
      accepted: AUTHORITY_ACCEPTED,
    },
    {
      name: 'path',
      kind: 'string',
      required: false,
      maxBytes: MAX_URI_BYTES,
      description: 'With authority: the path and query (default /).',
      accepted: 'a path starting with /, with its query if any',
    },
    {
      name: 'signature',
      kind: 'string',
      required: false,
      maxBytes: MAX_SIGNATURE_FIELD_BYTES,
      description: "The Signature header's value.",
      accepted: signatureAccepted('Signature'),
    },
    {
      name: 'signature_input',
      kind: 'string',
      required: false,
      maxBytes: MAX_SIGNATURE_FIELD_BYTES,
      description: "The Signature-Input header's value.",
      accepted: signatureAccepted('Signature-Input'),
    },
    {
      name: 'signature_agent',
      kind: 'string',
      required: false,
      maxBytes: MAX_AGENT_BYTES,
      description:
        'The Signature-Agent header\'s value, in either form: agent1="https://agent.example" (current drafts) or "https://agent.example" (older ones).',
      accepted: `the Signature-Agent header's value, at most ${MAX_AGENT_BYTES} bytes`,
    },
    {
      name: 'directory',
      kind: 'string',
      required: false,
      maxBytes: MAX_DIRECTORY_BYTES,
      description: "The agent's key directory, to test an agent the index does not mirror: the JSON its /.well-known/http-message-signatures-directory serves.",
      accepted: DIRECTORY_ACCEPTED,
    },
  ],
  postBody: 'request',
  outputSchema: {
    type: 'object',
    required: ['verified', 'reason', 'message', 'request', 'signature', 'signer', 'keyid', 'key', 'crawlers', 'keys_from', 'checked_at'],
    properties: {
      verified: { type: 'boolean' },
      reason: { type: 'string', enum: [...REASONS], description: 'verified, or the first Web Bot Auth rule the signature breaks' },
      message: { type: 'string' },
      field: { type: ['string', 'null'], description: 'For malformed-header: the header at fault' },
      missing: { type: 'array', items: { type: 'string' }, description: 'For missing-component and missing-parameter: what the signature lacks' },
      request: { type: 'object', required: ['method', 'target_uri'] },
      signature: { type: 'object', description: 'The signature checked: label, tag, alg, created, expires (ISO 8601) and covered components' },
      signer: {
        type: ['object', 'null'],
        required: ['value', 'form', 'url'],
        properties: {
          form: { enum: ['dictionary', 'string'], description: 'dictionary: agent1="https://..." (current drafts); string: "https://..." (older drafts)' },
        },
      },
      keyid: { type: ['string', 'null'], description: 'The JWK thumbprint (RFC 7638) the signature names' },
      key: { type: ['object', 'null'] },
      test_key: { type: 'boolean', description: 'The key is the RFC 9421 published test key, whose private half anyone has' },
      crawlers: {
        type: 'array',
        description: "The records the signer is: by the Signature-Agent a record documents (matched_by signature-agent), else by its key directory's origin",
        items: { type: 'object', required: ['slug', 'name', 'operator', 'status', 'directory', 'matched_by'] },
      },
      keys_from: { enum: ['inline', 'mirror'] },
      checked_at: { type: 'string', format: 'date-time' },
    },
  },
  examples: [
    {
      description: 'The Web Bot Auth draft test vector, with its directory',
      input: {
        url: 'https://example.com/path/to/resource',
        signature: 'sig1=:QKN4fTdIYfh82fvoZCQiQA1weuozfCS/Led2zTMbewMMqH8PI2Wsy/5c4ao6B6D09nraNQdBNOADg8aM1MqfCg==:',
        signature_input:
          'sig1=("@authority");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="zIW8+cdmA3vdYagbxojpONwa/l0EKJ/O3/wD486VvsQjO/RxPaSt6ZxvQaMcQzNnqKN/mQ6hpGiFro2L2qkz5A==";tag="web-bot-auth"',
        directory: `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"${RFC_9421_TEST_KEY_X}"}]}`,
      },
    },
  ],
  run: async (input, { data }) => {
    const head = input['request'];
    const parts: RequestParts = Object.fromEntries(PART_NAMES.flatMap((name) => (input[name] === undefined ? [] : [[name, input[name]]])));
    if (head !== undefined) {
      const mixed = PART_NAMES.find((name) => input[name] !== undefined);
      if (mixed !== undefined)
        throw new InputRefused(
          mixed,
          `give the request either as request (the raw head) or as separate parameters, not both; ${mixed} was given beside request.`,
          HEAD_ACCEPTED,
        );
    }
    const request = head !== undefined ? requestFromHead(head) : requestFromParts(parts);
    const directory = input['directory'];
    const keys: KeySource =
      directory === undefined
        ? { kind: 'mirror', find: (agent) => findMirroredDirectory(data.signatureAgents, agent) }
        : { kind: 'inline', keys: await parseDirectory(directory) };
    // The one read of the clock: a signature is valid or not at the time it is checked.
    const now = Math.floor(Date.now() / 1000);
    const verdict = await verifyRequest(request, keys, now);
    const isoOf = isoFromSeconds;
    const testKey = keys.kind === 'inline' && verdict.key !== null && keys.keys.some((k) => k.thumbprint === verdict.keyid && k.jwk.x === RFC_9421_TEST_KEY_X);
    return {
      verified: verdict.verified,
      reason: verdict.reason,
      message: testKey
        ? `${verdict.message} The key is the RFC 9421 published test key (B.1.4): anyone can sign with it, so it proves nothing about who sent the request.`
        : verdict.message,
      field: verdict.field,
      missing: verdict.missing,
      request: { method: request.method, target_uri: request.targetUri },
      signature: {
        label: verdict.label,
        tag: verdict.tag,
        alg: verdict.algorithm,
        created: isoOf(verdict.created),
        expires: isoOf(verdict.expires),
        covered_components: verdict.covered_components,
      },
      signer: verdict.signature_agent,
      keyid: verdict.keyid,
      key: verdict.key,
      test_key: testKey,
      crawlers: verdict.signature_agent === null ? [] : crawlersForAgent(data.crawlers, verdict.signature_agent.url),
      keys_from: keys.kind,
      checked_at: new Date(now * 1000).toISOString(),
    };
  },
  summarize: (o) => {
    const who = o.signer
      ? `${o.signer.url} (Signature-Agent in the ${o.signer.form === 'dictionary' ? 'dictionary form' : 'older bare-string form'})`
      : 'no Signature-Agent';
    const records = o.crawlers.length > 0 ? ` Crawler record: ${o.crawlers.map((c) => c.name).join(', ')}.` : '';
    return `${o.verified ? 'Verified' : `Not verified (${o.reason})`}: ${o.message} Signer: ${who}; key id ${o.keyid ?? 'none'}.${records}`;
  },
});
