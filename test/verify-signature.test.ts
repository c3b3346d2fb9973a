import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runToolCommand } from '../pipeline/node/tool-commands.ts';
import { executeTool } from '../pipeline/tools/registry/call.ts';
import type { ToolData } from '../pipeline/tools/registry/index.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { REPO } from './support/project.ts';
import { serveMini, type ServedMini } from './support/served.ts';
import { testAgent, type TestAgent } from './support/signer.ts';
import { publishedToolData } from './support/tool-data.ts';

// verify_signature on requests signed by an independent implementation (Cloudflare's
// web-bot-auth package, test/support/signer.ts) with fresh Ed25519 keys: every reason a real
// signature can fail for, over a socket (GET and POST) and through the MCP SDK's client.

interface Answer {
  verified: boolean;
  reason: string;
  message: string;
  field: string | null;
  missing: string[];
  signer: { form: string; url: string; member: string | null } | null;
  keyid: string | null;
  test_key: boolean;
  crawlers: { slug: string; status: string; matched_by: string }[];
  keys_from: string;
}

let served: ServedMini;
let repoData: ToolData;
let agent: TestAgent;
let stranger: TestAgent;
const TARGET = 'https://shop.example/products?page=2';

before(async () => {
  // Calls run in place; test/tool-threads.test.ts calls every tool on a thread.
  served = await serveMini({ tools: { threads: 0 } });
  repoData = await publishedToolData(REPO);
  agent = await testAgent();
  stranger = await testAgent();
});
after(() => served.dispose());

/** One call in-process, on the repository's records (which list ChatGPT agent's directory). */
async function call(params: Record<string, unknown>): Promise<Answer> {
  const run = await executeTool({ tool: 'verify_signature', params, caller: { userAgent: null, address: null }, form: 'structured' }, repoData);
  assert.equal(run.status, 'answered', JSON.stringify(run));
  return (run as { output: Answer }).output;
}

async function signed(headers: Record<string, string> = {}, options: Parameters<TestAgent['sign']>[1] = {}, url = TARGET) {
  const { signature, signatureInput } = await agent.sign({ url, headers }, options);
  return { url, signature, signature_input: signatureInput, ...(headers['Signature-Agent'] ? { signature_agent: headers['Signature-Agent'] } : {}) };
}

test('a request signed by web-bot-auth verifies; the key id is its thumbprint and the older bare-string Signature-Agent is named as such', async () => {
  const answer = await call({ ...(await signed({ 'Signature-Agent': '"https://agent.example"' })), directory: agent.directory(stranger) });
  assert.equal(answer.reason, 'verified', answer.message);
  assert.equal(answer.verified, true);
  assert.equal(answer.keyid, agent.keyid, "web-bot-auth's thumbprint and the verifier's agree");
  assert.deepEqual(answer.signer, { value: '"https://agent.example"', form: 'string', member: null, url: 'https://agent.example' });
  assert.equal(answer.test_key, false);
  assert.deepEqual(answer.crawlers, []);
});

test("a Signature-Agent of https://chatgpt.com maps to ChatGPT agent's record by its documented Signature-Agent, before the retired Operator, in the dictionary form", async () => {
  const answer = await call({ ...(await signed({ 'Signature-Agent': 'sig1="https://chatgpt.com"' })), directory: agent.directory() });
  assert.equal(answer.reason, 'verified', answer.message);
  assert.equal(answer.signer?.form, 'dictionary');
  assert.equal(answer.signer?.member, 'sig1');
  // ChatGPT agent's record documents this Signature-Agent; the retired Operator's only shares its key directory.
  assert.deepEqual(
    answer.crawlers.map((c) => [c.slug, c.status, c.matched_by]),
    [
      ['chatgpt-agent', 'active', 'signature-agent'],
      ['operator', 'retired', 'directory-origin'],
    ],
  );
});

test('each failure of a real signature gets its reason', async () => {
  const directory = agent.directory();
  const cases: [string, Record<string, unknown>][] = [
    ['unknown-agent', await signed()],
    ['key-not-in-directory', { ...(await signed()), directory: stranger.directory() }],
    ['expired', { ...(await signed({}, { created: -7200, expires: -3600 })), directory }],
    ['created-in-future', { ...(await signed({}, { created: 3600, expires: 7200 })), directory }],
    ['missing-component', { ...(await signed({}, { components: ['@path'] })), directory }],
    ['covered-field-missing', { ...(await signed({ 'Content-Type': 'text/html' }, { components: ['@authority', 'content-type'] })), directory }],
    // Signed for one site, presented at another: @authority differs.
    ['bad-signature', { ...(await signed()), url: 'https://other.example/products?page=2', directory }],
  ];
  for (const [reason, params] of cases) {
    const answer = await call(params);
    assert.equal(answer.reason, reason, `${reason}: ${answer.message}`);
    assert.equal(answer.verified, false);
  }
});

test('a Signature-Agent the signature does not cover is missing-component, naming signature-agent', async () => {
  const answer = await call({ ...(await signed()), signature_agent: '"https://agent.example"', directory: agent.directory() });
  assert.equal(answer.reason, 'missing-component');
  assert.deepEqual(answer.missing, ['signature-agent']);
});

test('the answer without a directory says where the agent publishes its keys', async () => {
  const answer = await call(await signed({ 'Signature-Agent': '"https://agent.example"' }));
  assert.equal(answer.reason, 'unknown-agent');
  assert.equal(answer.keys_from, 'mirror');
  assert.match(answer.message, /https:\/\/agent\.example\/\.well-known\/http-message-signatures-directory/);
});

test('over HTTP: GET with parameters and POST of a raw request head both verify; bad input is a 400 naming the field', async () => {
  const base = served.server.url;
  const params = await signed({ 'Signature-Agent': 'agent1="https://agent.example"' });
  const query = new URLSearchParams({ ...params, directory: agent.directory() } as Record<string, string>);
  const got = await raw(base, `/tools/verify-signature?${query}`);
  assert.equal(got.status, 200, got.text);
  assert.equal((JSON.parse(got.text) as Answer).reason, 'verified');

  const head = [
    'GET /products?page=2 HTTP/1.1',
    'Host: shop.example',
    'User-Agent: Mozilla/5.0 (compatible; TestAgent/1.0)',
    `Signature-Agent: ${params.signature_agent}`,
    `Signature-Input: ${params.signature_input}`,
    `Signature: ${params.signature}`,
  ].join('\r\n');
  const posted = await raw(base, `/tools/verify-signature?${new URLSearchParams({ directory: agent.directory() })}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: head,
  });
  assert.equal(posted.status, 200, posted.text);
  const answer = JSON.parse(posted.text) as Answer;
  assert.equal(answer.reason, 'verified', answer.message);
  assert.equal(answer.signer?.form, 'dictionary');

  const refusals: [string, string][] = [
    [`/tools/verify-signature?${new URLSearchParams({ ...params, directory: '{"keys":[]}' } as Record<string, string>)}`, 'directory'],
    [`/tools/verify-signature?${new URLSearchParams({ ...params, url: 'shop.example/products' } as Record<string, string>)}`, 'url'],
    [`/tools/verify-signature?${new URLSearchParams({ request: head, url: TARGET })}`, 'url'],
    [`/tools/verify-signature?${new URLSearchParams({ request: 'GET / HTTP/1.1\nHost: shop.example' })}`, 'request'],
    [`/tools/verify-signature?${new URLSearchParams({ signature_input: params.signature_input, url: TARGET })}`, 'signature'],
  ];
  for (const [path, field] of refusals) {
    const response = await raw(base, path);
    assert.equal(response.status, 400, `${field}: ${response.text}`);
    const error = (JSON.parse(response.text) as { error: { field: string; accepted: string } }).error;
    assert.equal(error.field, field, response.text);
    assert.ok(error.accepted.length > 10, 'the accepted form is named');
  }
  const tooBig = await raw(base, '/tools/verify-signature', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(20_000) });
  assert.equal(tooBig.status, 413);
});

test('over MCP: /netcheck/mcp and /mcp list verify_signature, and a call answers with the verdict as structured content', async () => {
  for (const path of ['/netcheck/mcp', '/mcp']) {
    const client = new Client({ name: 'verify-signature-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.server.url + path)));
    try {
      const tools = await client.listTools();
      assert.ok(
        tools.tools.some((t) => t.name === 'verify_signature'),
        path,
      );
      const result = await client.callTool({ name: 'verify_signature', arguments: { ...(await signed()), directory: agent.directory() } });
      assert.equal(result.isError ?? false, false, JSON.stringify(result));
      assert.equal((result.structuredContent as unknown as Answer).reason, 'verified');
      const refused = await client.callTool({ name: 'verify_signature', arguments: { ...(await signed()), directory: 'nope' } });
      assert.equal(refused.isError, true);
    } finally {
      await client.close();
    }
  }
});

test('on the command line: npx crawler-index verify-signature reads a head from a file or standard input, and the directory from a file', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'verify-signature-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const params = await signed({ 'Signature-Agent': '"https://chatgpt.com"' });
  const head = [
    'GET /products?page=2 HTTP/1.1',
    'Host: shop.example',
    `Signature-Agent: ${params.signature_agent}`,
    `Signature-Input: ${params.signature_input}`,
    `Signature: ${params.signature}`,
  ].join('\n');
  await writeFile(join(folder, 'keys.json'), agent.directory());
  const bin = (args: string[], input: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [join(REPO, 'bin', 'crawler-index.mjs'), ...args], { cwd: REPO }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? 1), stdout, stderr }),
      );
      child.stdin?.end(input);
    });
  const summary = await bin(['verify-signature', '-', '--directory', join(folder, 'keys.json')], head);
  assert.equal(summary.code, 0, summary.stderr);
  assert.match(
    summary.stdout,
    /^Verified: .* Signer: https:\/\/chatgpt\.com \(Signature-Agent in the older bare-string form\).* Crawler record: ChatGPT agent/,
  );
  // A refused head, in process: the command's answer as the process prints it, without a second process.
  const refused = await runToolCommand(
    served.root,
    'verify_signature',
    { request: 'GET / HTTP/1.1\nHost: shop.example\n', directory: agent.directory() },
    false,
  );
  assert.equal(refused.exitCode, 2);
  assert.match(refused.stderr, /^request: .*no signature header/);
});

test("whoami says whether the caller's own request carried signature headers", async () => {
  const params = await signed({ 'Signature-Agent': '"https://agent.example"' });
  const ask = async (headers: Record<string, string>) => {
    const response = await raw(served.server.url, '/tools/whoami', { headers });
    assert.equal(response.status, 200, response.text);
    return (JSON.parse(response.text) as { signed: { known: boolean; signed: boolean; headers: string[]; signature_agent: string | null } }).signed;
  };
  assert.deepEqual(await ask({ signature: params.signature, 'signature-input': params.signature_input, 'signature-agent': '"https://agent.example"' }), {
    known: true,
    signed: true,
    headers: ['Signature', 'Signature-Input', 'Signature-Agent'],
    signature_agent: '"https://agent.example"',
    note: "The request carried a signature; verify_signature checks it against the agent's key directory (it is not checked here).",
  });
  const unsigned = await ask({});
  assert.deepEqual([unsigned.known, unsigned.signed, unsigned.headers], [true, false, []]);
  const half = await ask({ 'signature-agent': '"https://agent.example"' });
  assert.deepEqual([half.signed, half.headers], [false, ['Signature-Agent']]);
});

test('the form posts as a browser does: fields left blank are not given, so a head and a directory alone verify', async () => {
  const params = await signed();
  const form = new FormData();
  form.set(
    'request',
    ['GET /products?page=2 HTTP/1.1', 'Host: shop.example', `Signature-Input: ${params.signature_input}`, `Signature: ${params.signature}`].join('\n'),
  );
  for (const blank of ['method', 'url', 'authority', 'path', 'signature', 'signature_input', 'signature_agent']) form.set(blank, '');
  // As curl -F directory=@keys.json sends it: a file upload.
  form.set('directory', new Blob([agent.directory()], { type: 'application/json' }), 'keys.json');
  const response = await fetch(`${served.server.url}/tools/verify-signature`, { method: 'POST', body: form });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.equal((JSON.parse(text) as Answer).reason, 'verified');
});

test('over A2A: a data part naming verify_signature calls it', async () => {
  const input = { ...(await signed()), directory: agent.directory() };
  const response = await raw(served.server.url, '/a2a', {
    method: 'POST',
    headers: JSON_RPC_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'data', data: { skill: 'verify_signature', input } }] } },
    }),
  });
  assert.equal(response.status, 200, response.text);
  const parts = (JSON.parse(response.text) as { result: { parts: { kind: string; data?: { tool: string; output: Answer } }[] } }).result.parts;
  const data = parts.find((p) => p.kind === 'data')?.data;
  assert.equal(data?.tool, 'verify_signature', response.text);
  assert.equal(data?.output.reason, 'verified');
});
