import { strict as assert } from 'node:assert';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ChangeEvent } from '../pipeline/changes/types.ts';
import { build } from '../pipeline/publish/build.ts';
import { commitRefresh } from '../pipeline/refresh/commit.ts';
import { refreshMirror } from '../pipeline/refresh/refresh.ts';
import { executeTool } from '../pipeline/tools/registry/call.ts';
import { refreshDirectory } from '../pipeline/upstream/refresh-directory.ts';
import { initRepo } from './support/git.ts';
import type { tempProject } from './support/project.ts';
import { AGENT_DIRECTORY_ID, projectWithAgent } from './support/agent-project.ts';
import { testAgent, type TestAgent } from './support/signer.ts';
import { publishedToolData } from './support/tool-data.ts';
import { bytes, hang, large, redirect, startUpstreamServer, status, type Route, type UpstreamServer } from './support/upstream-server.ts';

// The Web Bot Auth key mirror end to end: a loopback server plays chatgpt.com's key directory,
// the project is a real git repository holding the index's own records, and the verifier reads
// the keys as a server would, from the published dist/. The same fault matrix as the IP lists:
// no fault may evict the keys served.

const ID = AGENT_DIRECTORY_ID;
const MEDIA_TYPE = 'application/http-message-signatures-directory+json';
const routes: Record<string, Route> = {};
let upstream: UpstreamServer;
let project: Awaited<ReturnType<typeof tempProject>>;
let agent: TestAgent;
let successor: TestAgent;
let clock = Date.parse('2026-11-01T00:00:00Z');
const tick = () => new Date((clock += 3_600_000)).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface DirectoryDoc {
  state: string;
  error: string | null;
  warning: string | null;
  keys: { thumbprint: string; expires: string | null; expires_soon: boolean; jwk: Record<string, unknown> }[];
  expiring: string[];
  findings: string[];
  response: {
    body: string;
    authority: string;
    signature: string | null;
    signature_input: string | null;
    content_digest: string | null;
    signatures: { keyid: string | null; verified: boolean; covers_body: boolean }[];
  } | null;
}

const readDoc = async (): Promise<DirectoryDoc> =>
  JSON.parse(await readFile(join(project.root, 'dist', 'signature-agents', `${ID}.json`), 'utf8')) as DirectoryDoc;

/** A directory as served, with the directory's own signature headers (opaque to the mirror, kept byte for byte). */
const served = (body: string, headers: Record<string, string> = {}): Route =>
  bytes(body, {
    'content-type': MEDIA_TYPE,
    signature: 'sig1=:AAAA:',
    'signature-input': 'sig1=("@authority";req "content-digest");tag="http-message-signatures-directory"',
    'content-digest': 'sha-256=:BBBB:',
    ...headers,
  });

/** One refresh of the directory alone: what state/ now holds for it. */
async function refreshState(now = tick()): Promise<{ state: string; error: string | null; keys: { thumbprint: string }[] }> {
  await refreshMirror({ root: project.root, upstreamBase: upstream.url(''), only: [ID], now, fetch: { timeoutMs: 2_000, attempts: 1, baseDelayMs: 1 } });
  return JSON.parse(await readFile(join(project.root, 'state', 'signature-agents', `${ID}.json`), 'utf8')) as {
    state: string;
    error: string | null;
    keys: { thumbprint: string }[];
  };
}

/** One refresh of the directory alone, the build, and the commit: the events it recorded. */
async function refresh(): Promise<ChangeEvent[]> {
  const now = tick();
  await refreshState(now);
  const result = await build({ root: project.root, now });
  const head = result.model.log.head;
  await commitRefresh(project.root, result.model.log);
  return result.model.log.events.filter((e) => e.subject.type === 'signature-agent' && e.cursor > head - 10 && e.observed_at === now);
}

/** verify_signature as a server answers it, on the published tree, with no directory passed. */
async function verifyFromMirror(signer: TestAgent) {
  const url = 'https://shop.example/cart';
  const headers = { 'Signature-Agent': 'sig1="https://chatgpt.com"' };
  const { signature, signatureInput } = await signer.sign({ url, headers });
  const run = await executeTool(
    {
      tool: 'verify_signature',
      params: { url, signature, signature_input: signatureInput, signature_agent: headers['Signature-Agent'] },
      caller: { userAgent: null, address: null },
      form: 'structured',
    },
    await publishedToolData(project.root),
  );
  assert.equal(run.status, 'answered', JSON.stringify(run));
  return (run as { output: { verified: boolean; reason: string; message: string; keys_from: string; crawlers: { slug: string }[] } }).output;
}

before(async () => {
  project = await projectWithAgent();
  upstream = await startUpstreamServer(routes);
  agent = await testAgent();
  successor = await testAgent();
  routes[`/${ID}`] = served(agent.directory());
  await build({ root: project.root, now: tick() });
  await initRepo(project.root);
});
after(async () => {
  await upstream.close();
  await project.dispose();
});

test('the first fetch publishes the keys and the response with its own signature, checked; the verifier uses them with no directory passed', async () => {
  // The directory signs its response as web-bot-auth does, at the time of the coming refresh.
  const fetchedAt = clock + 3_600_000;
  const own = await agent.signDirectory(`${upstream.url('')}/${ID}`, new Date(fetchedAt - 10_000), new Date(fetchedAt + 600_000));
  routes[`/${ID}`] = served(agent.directory(), { signature: own.signature, 'signature-input': own.signatureInput });
  const events = await refresh();
  assert.deepEqual(
    events.map((e) => e.kind),
    ['source.started-answering', 'keys.changed'],
    (await readDoc()).error ?? '',
  );
  assert.deepEqual(events[1]?.keys_added, [agent.keyid]);
  const doc = await readDoc();
  assert.equal(doc.state, 'ok');
  assert.deepEqual(
    doc.keys.map((k) => k.thumbprint),
    [agent.keyid],
  );
  assert.equal(doc.response?.body, agent.directory(), 'the body is kept byte for byte');
  assert.equal(doc.response?.signature, own.signature);
  assert.equal(doc.response?.signature_input, own.signatureInput);
  assert.equal(doc.response?.content_digest, 'sha-256=:BBBB:');
  assert.deepEqual(
    doc.response?.signatures.map((s) => [s.keyid, s.verified, s.covers_body]),
    [[agent.keyid, true, false]],
    "the directory's signature verifies, over the authority and not the body (web-bot-auth covers no Content-Digest)",
  );
  assert.match(doc.response?.authority ?? '', /^127\.0\.0\.1:\d+$/);

  const answer = await verifyFromMirror(agent);
  assert.equal(answer.reason, 'verified', answer.message);
  assert.equal(answer.keys_from, 'mirror');
  assert.equal(answer.crawlers[0]?.slug, 'chatgpt-agent');
  assert.equal((await verifyFromMirror(successor)).reason, 'key-not-in-directory', 'a key the directory does not list');
});

test('no fault of the directory evicts the keys served: 500, timeout, garbage, redirect, oversize, empty, no keys, test key only, a private key', async () => {
  const TEST_KEY_ONLY = '{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}';
  const withPrivate = JSON.stringify({ keys: [{ ...agent.publicJwk, d: 'bm90IGEgcmVhbCBwcml2YXRlIGtleSBidXQgc2hhcGVkIGxpa2Ugb25l' }] });
  const faults: [string, Route, RegExp][] = [
    ['500', status(500), /HTTP 500/],
    ['timeout', hang(), /did not answer in full within 2000 ms/],
    ['garbage', served('<html>not json</html>'), /not JSON/],
    ['redirect', redirect('https://elsewhere.example/.well-known/http-message-signatures-directory'), /answered 301 .*redirects are not followed/],
    ['oversize', large(70_000, false), /more than 65536 bytes/],
    ['empty', served(''), /directory is empty/],
    ['no keys', served('{"keys":[]}'), /lists no key/],
    ['test key only', served(TEST_KEY_ONLY), /only the RFC 9421 published test key/],
    ['a private key', served(withPrivate), /private member "d"/],
  ];
  // Every fault goes through the refresh; the first and the last are also built and committed, so
  // the published documents, the feed and the verifier are checked without a build per fault.
  for (const [index, [name, route, reason]] of faults.entries()) {
    routes[`/${ID}`] = route;
    const published = index === 0 || index === faults.length - 1;
    const events = published ? await refresh() : null;
    const entry = published ? await readDoc() : await refreshState();
    assert.equal(entry.state, 'failed', name);
    assert.match(entry.error ?? '', reason, name);
    assert.match(entry.error ?? '', /The previous key is kept\./, name);
    assert.deepEqual(
      entry.keys.map((k) => k.thumbprint),
      [agent.keyid],
      `${name}: the key is still served`,
    );
    assert.doesNotMatch(JSON.stringify(entry), /bm90IGEgcmVhbCBwcml2YXRl/, `${name}: no private member is ever kept`);
    if (!published) continue;
    assert.match((entry as DirectoryDoc).warning ?? '', /last good keys/, name);
    // The feed says so once, when the directory stops answering, not at every failed refresh.
    assert.deepEqual(
      events?.map((e) => e.kind),
      index === 0 ? ['source.stopped-answering'] : [],
      name,
    );
    assert.equal((await verifyFromMirror(agent)).reason, 'verified', `${name}: the verifier still has the key`);
  }
  const dist = await readFile(join(project.root, 'dist', 'signature-agents', `${ID}.json`), 'utf8');
  assert.doesNotMatch(dist, /bm90IGEgcmVhbCBwcml2YXRl/, 'the private member is never published');
});

test('a rotation: the new key is added, the old one warned a week before its exp, once; the test key beside real keys is left out', async () => {
  const soon = Math.floor((clock + 3 * 86_400_000) / 1000);
  const rotating = JSON.stringify({
    keys: [{ ...agent.publicJwk, exp: soon }, successor.publicJwk, { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }],
  });
  routes[`/${ID}`] = served(rotating, { 'content-type': 'application/json' });
  const events = await refresh();
  assert.deepEqual(
    events.map((e) => [e.kind, e.keys_added ?? e.key ?? null]),
    [
      ['source.started-answering', null],
      ['keys.changed', [successor.keyid]],
      ['keys.expiring', agent.keyid],
    ],
  );
  const doc = await readDoc();
  assert.deepEqual(doc.expiring, [agent.keyid]);
  assert.ok(doc.findings.some((f) => /RFC 9421 published test key/.test(f)));
  assert.ok(doc.findings.some((f) => /labelled "application\/json"; expected application\/http-message-signatures-directory\+json/.test(f)));
  assert.equal(doc.keys.length, 2);
  assert.equal((await verifyFromMirror(successor)).reason, 'verified');
  assert.deepEqual(await refresh(), [], 'the same directory again: no event');

  routes[`/${ID}`] = served(JSON.stringify({ keys: [successor.publicJwk] }));
  const removed = await refresh();
  assert.deepEqual(
    removed.map((e) => [e.kind, e.keys_removed]),
    [['keys.changed', [agent.keyid]]],
  );
  assert.equal((await verifyFromMirror(agent)).reason, 'key-not-in-directory', 'a removed key no longer verifies');
});

test('the directory URL itself is fetched from public addresses only, and never through a redirect', async () => {
  const local = await refreshDirectory({ id: 'x-y', url: `${upstream.url('')}/${ID}` }, undefined, { now: tick(), fetch: { attempts: 1 } });
  assert.equal(local.state, 'failed');
  assert.match(local.error ?? '', /127\.0\.0\.1 is .*only public addresses are contacted/);
  const named = await refreshDirectory({ id: 'x-y', url: `http://localhost:${new URL(upstream.url('')).port}/${ID}` }, undefined, {
    now: tick(),
    fetch: { attempts: 1 },
  });
  assert.equal(named.state, 'failed');
  assert.match(named.error ?? '', /localhost resolves to .*only public addresses are contacted/);
});

test('an offline import (--upstream-dir) reads <id>.json as the directory and applies the same rules', async () => {
  const offline = await projectWithAgent();
  try {
    const dir = join(offline.root, 'upstream');
    await mkdir(dir);
    const now = tick();
    const dirOptions = { root: offline.root, upstreamDir: dir, only: [ID], now };
    const none = await refreshMirror(dirOptions);
    assert.equal(none[0]?.skipped, 'no local copy');
    await writeFile(join(dir, `${ID}.json`), agent.directory(successor));
    const [outcome] = await refreshMirror({ ...dirOptions, now: tick() });
    assert.ok(outcome?.kind === 'directory' && outcome.entry?.state === 'ok', JSON.stringify(outcome));
    assert.deepEqual(outcome.entry.keys.map((k) => k.thumbprint).sort(), [agent.keyid, successor.keyid].sort());
    assert.ok(
      outcome.entry.findings.some((f) => /carries no Signature/.test(f)),
      'a copy without the response headers proves nothing, and says so',
    );
  } finally {
    await offline.dispose();
  }
});
