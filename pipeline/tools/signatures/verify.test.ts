import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { verifySignature, webcrypto } from 'http-message-sig';
import { InputRefused } from '../registry/limits.ts';
import { parseDirectory } from './directory.ts';
import { requestFromHead, requestFromParts } from './request.ts';
import { verifyRequest } from './verify.ts';
import { findMirroredDirectory } from './mirror.ts';

// Published vectors, checked at their own time (the verifier takes `now`):
// - RFC 9421 Appendix B.1.4 (test-key-ed25519) and B.2.6 (a request signed with it);
// - Cloudflare's Web Bot Auth vectors, packages/web-bot-auth/test/test_data/web_bot_auth_architecture_v2.json
//   in github.com/cloudflare/web-bot-auth (commit 1ec81a8), the Ed25519 and RSA-PSS entries;
// - RFC 8037 Appendix A.3, the thumbprint of its Ed25519 key.
const RFC_KEY = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
const RFC_KEY_THUMBPRINT = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U';
const VECTOR_TIME = 1735689600 + 60;
const TARGET = 'https://example.com/path/to/resource';
const VECTOR_SIG1 = {
  signature: 'sig1=:QKN4fTdIYfh82fvoZCQiQA1weuozfCS/Led2zTMbewMMqH8PI2Wsy/5c4ao6B6D09nraNQdBNOADg8aM1MqfCg==:',
  signature_input:
    'sig1=("@authority");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="zIW8+cdmA3vdYagbxojpONwa/l0EKJ/O3/wD486VvsQjO/RxPaSt6ZxvQaMcQzNnqKN/mQ6hpGiFro2L2qkz5A==";tag="web-bot-auth"',
};
const VECTOR_SIG2 = {
  signature: 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
  signature_input:
    'sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"',
  signature_agent: 'agent2="https://signature-agent.test"',
};
const RSA_VECTOR = {
  signature:
    'sig1=:hWPaj85MWQiRkzU4jnIKvdPQiDfMCPIoxOP8nZveNc3aFQ7r/UmXWCwGNImw588iRvTFey5TR3fVEgnXpcttlyK+u5pN831z9Wlr+IMNfub4uEM3SuO+SKFygJZyLG0pf7OAiRcU4C0gyx1BS/+z9ydQTRzDLr88wCkBBRqwGRrSi8HTwxkqg1jugobh93hcnU6gV8MK1n+VnhRprIgl2RQSO6q5cfbB4OS8C4t/8ndW0lYmP2SWzKZJXnpX5Wrj17PuLqnVW6MO8pJnLAMXNvxUdx32KHeq/cHFrzZazZsua3UOoP+k+niHwoQ8bBWj1Vi4mM1mYJK+fk366cCLsQ==:',
  signature_input:
    'sig1=("@authority");created=1735689600;keyid="oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA";alg="rsa-pss-sha512";expires=4889289600;nonce="JojDFWJ90jf+gZhdKeTyJYsu1XvNPZSFAGhvYq5SuV3gneOEUAhq+xl792WGuD1W+Dr6NRmx+m+t06NsYnL4iA==";tag="web-bot-auth"',
  key: {
    kty: 'RSA',
    e: 'AQAB',
    n: 'r4tmm3r20Wd_PbqvP1s2-QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct-Lh1GH45x28Rw3Ry53mm-oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHqgDsznjPFmTOtCEcN2Z1FpWgchwuYLPL-Wokqltd11nqqzi-bJ9cvSKADYdUAAN5WUtzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4aOT9v6d-nb4bnNkQVklLQ3fVAvJm-xdDOp9LCNCN48V2pnDOkFV6-U9nV5oyc6XI2w',
  },
};
const RFC_B26_HEAD = [
  'POST /foo?param=Value&Pet=dog HTTP/1.1',
  'Host: example.com',
  'Date: Tue, 20 Apr 2021 02:07:55 GMT',
  'Content-Type: application/json',
  'Content-Digest: sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
  'Content-Length: 18',
  'Signature-Input: sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
  'Signature: sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:',
  '',
  '{"hello": "world"}',
].join('\r\n');

const rfcDirectory = async () => ({ kind: 'inline' as const, keys: await parseDirectory(JSON.stringify({ keys: [RFC_KEY] })) });

test('key ids are RFC 7638 thumbprints: the RFC 8037 A.3 key and the RFC 9421 B.1.4 key give their published values', async () => {
  const [rfc8037] = await parseDirectory('{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}');
  assert.equal(rfc8037?.thumbprint, 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  const [rfc9421] = await parseDirectory(JSON.stringify({ keys: [{ ...RFC_KEY, kid: 'test-key-ed25519', use: 'sig' }] }));
  assert.equal(rfc9421?.thumbprint, RFC_KEY_THUMBPRINT, 'members outside RFC 7638 3.2 do not change the thumbprint');
});

test("the Web Bot Auth draft's Ed25519 vectors verify, with and without a dictionary Signature-Agent", async () => {
  const plain = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG1 }), await rfcDirectory(), VECTOR_TIME);
  assert.equal(plain.reason, 'verified', plain.message);
  assert.equal(plain.keyid, RFC_KEY_THUMBPRINT);
  assert.equal(plain.signature_agent, null);

  const agent = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG2 }), await rfcDirectory(), VECTOR_TIME);
  assert.equal(agent.reason, 'verified', agent.message);
  assert.deepEqual(agent.signature_agent, { value: VECTOR_SIG2.signature_agent, form: 'dictionary', member: 'agent2', url: 'https://signature-agent.test' });
  assert.deepEqual(agent.covered_components, ['@authority', 'signature-agent;key="agent2"']);
});

test('a vector sent to another site, or under another agent, is a bad signature', async () => {
  const elsewhere = await verifyRequest(requestFromParts({ url: 'https://example.org/path/to/resource', ...VECTOR_SIG1 }), await rfcDirectory(), VECTOR_TIME);
  assert.equal(elsewhere.reason, 'bad-signature');
  const otherAgent = await verifyRequest(
    requestFromParts({ url: TARGET, ...VECTOR_SIG2, signature_agent: 'agent2="https://impostor.test"' }),
    await rfcDirectory(),
    VECTOR_TIME,
  );
  assert.equal(otherAgent.reason, 'bad-signature');
  assert.equal(otherAgent.signature_agent?.url, 'https://impostor.test');
});

test('time: a vector checked before it was created is created-in-future; one past its expiry is expired', async () => {
  const early = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG1 }), await rfcDirectory(), 1735689600 - 3600);
  assert.equal(early.reason, 'created-in-future');
  const late = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG1 }), await rfcDirectory(), 4889289600 + 3600);
  assert.equal(late.reason, 'expired');
  const withinSkew = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG1 }), await rfcDirectory(), 1735689600 - 30);
  assert.equal(withinSkew.reason, 'verified', 'a clock 30 s behind the signer is tolerated');
});

test('RFC 9421 B.2.6 is a genuine Ed25519 signature, and not a Web Bot Auth one: it has no tag', async () => {
  const request = requestFromHead(RFC_B26_HEAD);
  assert.equal(request.targetUri, 'https://example.com/foo?param=Value&Pet=dog');
  // The library accepts the RFC's own example, so the refusal below is the profile's, not a broken vector.
  const key = await crypto.subtle.importKey('jwk', RFC_KEY, { name: 'Ed25519' }, false, ['verify']);
  const verified = await verifySignature(
    { kind: 'request', method: request.method, targetUri: request.targetUri, fields: request.fields },
    { policy: { algorithms: ['ed25519'], requiredComponents: [], requiredParameters: [], now: 1618884473 }, resolveVerifier: () => webcrypto.verifier(key) },
  );
  assert.equal(verified.label, 'sig-b26');
  const verdict = await verifyRequest(request, await rfcDirectory(), 1618884473);
  assert.equal(verdict.reason, 'tag-not-web-bot-auth');
});

test('an RSA-PSS vector is named unsupported-algorithm once its key is found, not a bad signature', async () => {
  const keys = { kind: 'inline' as const, keys: await parseDirectory(JSON.stringify({ keys: [RSA_VECTOR.key] })) };
  assert.equal(keys.keys[0]?.thumbprint, 'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA', 'the vector keyid is the RSA key thumbprint');
  const verdict = await verifyRequest(
    requestFromParts({ url: TARGET, signature: RSA_VECTOR.signature, signature_input: RSA_VECTOR.signature_input }),
    keys,
    VECTOR_TIME,
  );
  assert.equal(verdict.reason, 'unsupported-algorithm');
  assert.equal(verdict.key?.kty, 'RSA');
});

test('keys from the mirror: found by the Signature-Agent, never by the keyid alone', async () => {
  const keys = await parseDirectory(JSON.stringify({ keys: [RFC_KEY] }));
  const agent = (id: string, url: string, held = keys) => ({
    id,
    signature_agent: url,
    directory_url: `${url}/.well-known/http-message-signatures-directory`,
    state: 'ok',
    fetched_at: '2026-11-27T00:00:00Z',
    keys: held,
  });
  const mirror = (agents: ReturnType<typeof agent>[]) => ({ kind: 'mirror' as const, find: (url: string) => findMirroredDirectory(agents, url) });
  const signed = requestFromParts({ url: TARGET, ...VECTOR_SIG2 });
  assert.equal((await verifyRequest(signed, mirror([agent('test', 'https://signature-agent.test')]), VECTOR_TIME)).reason, 'verified');
  // The same key mirrored for another agent does not verify a request claiming this one.
  const elsewhere = await verifyRequest(signed, mirror([agent('other', 'https://other.example')]), VECTOR_TIME);
  assert.equal(elsewhere.reason, 'unknown-agent');
  assert.match(elsewhere.message, /mirrors no key directory for https:\/\/signature-agent\.test/);
  const empty = await verifyRequest(signed, mirror([agent('test', 'https://signature-agent.test', [])]), VECTOR_TIME);
  assert.equal(empty.reason, 'unknown-agent');
  assert.match(empty.message, /has not fetched/);
  // No Signature-Agent: no directory to look in.
  const anonymous = await verifyRequest(
    requestFromParts({ url: TARGET, ...VECTOR_SIG1 }),
    mirror([agent('test', 'https://signature-agent.test')]),
    VECTOR_TIME,
  );
  assert.equal(anonymous.reason, 'unknown-agent');
  assert.match(anonymous.message, /names no Signature-Agent/);
});

test('keys: an agent the mirror lacks is unknown-agent, pointing at the directory to pass; another key is key-not-in-directory', async () => {
  const unknown = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG2 }), { kind: 'mirror', find: () => null }, VECTOR_TIME);
  assert.equal(unknown.reason, 'unknown-agent');
  assert.match(unknown.message, /https:\/\/signature-agent\.test\/\.well-known\/http-message-signatures-directory/);
  const other = {
    kind: 'inline' as const,
    keys: await parseDirectory('{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}'),
  };
  const missing = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG1 }), other, VECTOR_TIME);
  assert.equal(missing.reason, 'key-not-in-directory');
  assert.match(missing.message, /kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k/);
});

test('a signature without expires or keyid is missing-parameter, naming them (checked before the signature, so an edited vector shows it)', async () => {
  const input = VECTOR_SIG1.signature_input.replace(';expires=4889289600', '').replace(/;keyid="[^"]*"/, '');
  const verdict = await verifyRequest(
    requestFromParts({ url: TARGET, signature: VECTOR_SIG1.signature, signature_input: input }),
    await rfcDirectory(),
    VECTOR_TIME,
  );
  assert.equal(verdict.reason, 'missing-parameter');
  assert.deepEqual(verdict.missing, ['expires', 'keyid']);
});

test('malformed headers are named, and so are too many signatures', async () => {
  const directory = await rfcDirectory();
  const badInput = await verifyRequest(
    requestFromParts({ url: TARGET, signature: VECTOR_SIG1.signature, signature_input: 'sig1=("@authority"' }),
    directory,
    VECTOR_TIME,
  );
  assert.deepEqual([badInput.reason, badInput.field], ['malformed-header', 'signature-input']);
  const badSignature = await verifyRequest(
    requestFromParts({ url: TARGET, signature: 'sig1=QKN4', signature_input: VECTOR_SIG1.signature_input }),
    directory,
    VECTOR_TIME,
  );
  assert.deepEqual([badSignature.reason, badSignature.field], ['malformed-header', 'signature']);
  const badAgent = await verifyRequest(requestFromParts({ url: TARGET, ...VECTOR_SIG2, signature_agent: 'agent2=42' }), directory, VECTOR_TIME);
  assert.deepEqual([badAgent.reason, badAgent.field], ['malformed-header', 'signature-agent']);
  const labels = Array.from({ length: 9 }, (_, i) => `s${i}=("@authority");tag="web-bot-auth"`).join(', ');
  const many = await verifyRequest(requestFromParts({ url: TARGET, signature: VECTOR_SIG1.signature, signature_input: labels }), directory, VECTOR_TIME);
  assert.equal(many.reason, 'too-many-signatures');
});

test('bad request input is refused naming its field: a head without Host or signature, a relative url, a bad authority, a directory that is not one', async () => {
  const refused = (fn: () => unknown, field: string) =>
    assert.throws(fn, (error: unknown) => error instanceof InputRefused && error.field === field && error.accepted.length > 0);
  refused(() => requestFromHead('GET /a HTTP/1.1\nSignature: sig1=:AA==:\nSignature-Input: sig1=()'), 'request');
  refused(() => requestFromHead('GET /a HTTP/1.1\nHost: example.com\n'), 'request');
  refused(() => requestFromHead('hello world'), 'request');
  refused(() => requestFromParts({ url: '/path', ...VECTOR_SIG1 }), 'url');
  refused(() => requestFromParts({ authority: 'example.com/evil', ...VECTOR_SIG1 }), 'authority');
  refused(() => requestFromParts({ url: TARGET, signature_input: VECTOR_SIG1.signature_input }), 'signature');
  refused(() => requestFromParts({ url: TARGET, authority: 'example.org', ...VECTOR_SIG1 }), 'authority');
  await assert.rejects(parseDirectory('{"keys": "no"}'), (error: unknown) => error instanceof InputRefused && error.field === 'directory');
  await assert.rejects(parseDirectory('not json'), (error: unknown) => error instanceof InputRefused && error.field === 'directory');
  await assert.rejects(parseDirectory(JSON.stringify({ keys: Array.from({ length: 65 }, () => RFC_KEY) })), /at most 64/);
});
