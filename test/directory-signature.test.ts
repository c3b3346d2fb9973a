import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { component, createSignature, webcrypto } from 'http-message-sig';
import { checkDirectorySignatures } from '../pipeline/upstream/directory-signature.ts';
import { parseDirectory } from '../pipeline/tools/signatures/directory.ts';
import { testAgent } from './support/signer.ts';

// The directory's own signature, as the mirror checks it when it fetches a directory: made by
// web-bot-auth's directoryResponseHeaders (the form agents deploy: @authority;req only), and by
// a signer that also covers Content-Digest (the current draft's form).

const URL_FETCHED = 'https://agent.example/.well-known/http-message-signatures-directory';
const now = Math.floor(Date.now() / 1000);
const at = (seconds: number) => new Date((now + seconds) * 1000);

test("web-bot-auth's directory signature verifies for the authority it names, and for no other", async () => {
  const agent = await testAgent();
  const body = new TextEncoder().encode(agent.directory());
  const keys = await parseDirectory(agent.directory());
  const { signature, signatureInput } = await agent.signDirectory(URL_FETCHED, at(-10), at(300));
  const response = { body, url: URL_FETCHED, signature, signatureInput, contentDigest: null };
  const [check] = await checkDirectorySignatures(response, keys, now);
  assert.equal(check?.reason, 'verified');
  assert.equal(check?.keyid, agent.keyid);
  assert.equal(check?.covers_body, false, 'no Content-Digest is covered: the key set itself is not signed');
  assert.equal((await checkDirectorySignatures({ ...response, url: 'https://copy.example/keys.json' }, keys, now))[0]?.reason, 'bad-signature');
  const other = await testAgent();
  assert.equal((await checkDirectorySignatures(response, await parseDirectory(other.directory()), now))[0]?.reason, 'no-such-key');
  const late = await checkDirectorySignatures(response, keys, now + 3600);
  assert.equal(late[0]?.verified, false, 'an expired directory signature proves nothing');
  assert.deepEqual(await checkDirectorySignatures({ ...response, signature: null }, keys, now), []);
});

test('a signature over Content-Digest binds the body: it verifies with the body served, and a changed body is bad-digest', async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const text = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: jwk.x }] });
  const keys = await parseDirectory(text);
  const body = new TextEncoder().encode(text);
  const digest = (bytes: Uint8Array) => crypto.subtle.digest('SHA-256', new Uint8Array(bytes)).then((d) => `sha-256=:${Buffer.from(d).toString('base64')}:`);
  const contentDigest = await digest(body);
  const request = { kind: 'request' as const, method: 'GET', targetUri: URL_FETCHED, fields: [] };
  const signed = await createSignature(
    { kind: 'response', status: 200, fields: [{ name: 'content-digest', value: contentDigest }], request },
    {
      label: 'binding0',
      components: [component('@authority', { req: true }), 'content-digest'],
      parameters: { created: now - 10, expires: now + 300, keyid: keys[0]!.thumbprint, tag: 'http-message-signatures-directory' },
      signer: webcrypto.signer(pair.privateKey),
    },
  );
  const response = { body, url: URL_FETCHED, signature: signed.signature, signatureInput: signed.signatureInput, contentDigest };
  const [check] = await checkDirectorySignatures(response, keys, now);
  assert.equal(check?.reason, 'verified');
  assert.equal(check?.covers_body, true);
  const swapped = new TextEncoder().encode(text.replace('"keys"', '"keys" '));
  assert.equal((await checkDirectorySignatures({ ...response, body: swapped }, keys, now))[0]?.reason, 'bad-digest');
});
