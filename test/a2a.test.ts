import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Role, type Message, type Part } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { build } from '../pipeline/publish/build.ts';
import { readSite, startServer, type RunningServer } from '../pipeline/node/server.ts';
import { A2A_PROMPTS, agentCard } from '../pipeline/render/agent-card.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { TOOLS } from '../pipeline/tools/registry/index.ts';
import { tempProject } from './support/project.ts';

const validateCard = validatorFor('outputs/agent-card.schema.json');
const validateError = validatorFor('outputs/error.schema.json');
const BASE = 'https://index.example';

let project: Awaited<ReturnType<typeof tempProject>>;
let server: RunningServer;
let client: Client;

// The card names the public base URL; the client's requests are sent to the test server instead.
const localFetch: typeof fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  return fetch(url.startsWith(BASE) ? server.url + url.slice(BASE.length) : url, init);
};

before(async () => {
  project = await tempProject('mini');
  await build({ root: project.root, now: '2026-01-01T00:00:00Z' });
  server = await startServer({ root: project.root, port: 0, host: '127.0.0.1', checkEveryMs: 0 });
  // The SDK (1.x) speaks A2A 1.0 natively; its legacy-compat switch selects the 0.3 JSON-RPC
  // transport (method message/send) for a 0.3 card such as ours.
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true }, fetchImpl: localFetch })],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true }, fetchImpl: localFetch }),
  });
  client = await factory.createFromUrl(server.url);
});
after(async () => {
  await server.close();
  await project.dispose();
});

let sent = 0;
function userMessage(parts: Part[]): Message {
  return { messageId: `m-${++sent}`, contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}
const textPart = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const dataPart = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: '' });

/** Sends with the SDK client; returns the tool that ran, the text part and the data part's value. */
async function ask(
  parts: Part[],
): Promise<{ tool: string | null; text: string; data: { tool: string | null; input?: Record<string, unknown>; output?: Record<string, unknown> } }> {
  const result = await client.sendMessage({ tenant: '', message: userMessage(parts), configuration: undefined, metadata: undefined });
  assert.ok('messageId' in result && 'parts' in result, 'the answer is a Message, not a Task');
  const message = result as Message;
  assert.equal(message.role, Role.ROLE_AGENT);
  assert.ok(message.messageId.length > 0);
  assert.ok(message.contextId.length > 0);
  assert.equal(message.parts.length, 2);
  const [text, data] = message.parts as [Part, Part];
  assert.equal(text.content?.$case, 'text');
  assert.equal(data.content?.$case, 'data');
  const value = data.content.value as { tool: string | null };
  assert.equal((message.metadata as { tool: string | null }).tool, value.tool);
  return { tool: value.tool, text: text.content.value, data: value as Awaited<ReturnType<typeof ask>>['data'] };
}

describe('agent card', () => {
  test('GET /.well-known/agent-card.json serves agentCard(site), valid against its schema', async () => {
    const response = await fetch(`${server.url}/.well-known/agent-card.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const card = (await response.json()) as { url: string; skills: { id: string; examples: string[] }[] };
    assert.ok(validateCard(card), JSON.stringify(validateCard.errors));
    assert.deepEqual(card, agentCard(await readSite(project.root)));
    assert.equal(card.url, `${BASE}/a2a`);
    assert.deepEqual(
      card.skills.map((s) => s.id),
      TOOLS.map((t) => t.name),
    );
  });

  test('the schema refuses a card that breaks it', () => {
    const card = agentCard({
      name: 'X',
      base_url: BASE,
      repository: 'https://example.org',
      license: 'CC0-1.0',
      contact: 'https://example.org',
      security_contact: 'https://example.org',
    }) as Record<string, unknown>;
    assert.ok(validateCard(card));
    for (const broken of [
      { ...card, url: `${BASE}/mcp` },
      { ...card, preferredTransport: 'GRPC' },
      { ...card, skills: [] },
      { ...card, extra: 1 },
    ]) {
      assert.equal(validateCard(broken), false);
    }
  });
});

describe('message/send with the @a2a-js/sdk client', () => {
  test('a User-Agent string → classify_user_agent', async () => {
    const answer = await ask([textPart('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)')]);
    assert.equal(answer.tool, 'classify_user_agent');
    assert.equal((answer.data.output as { matched: boolean; crawler: { slug: string } }).crawler.slug, 'gptbot');
    assert.match(answer.text, /^GPTBot by OpenAI/);
  });

  test('IP addresses with a claimed crawler → verify_batch', async () => {
    const answer = await ask([textPart('Are 20.171.206.10 and 192.0.2.1 really GPTBot?')]);
    assert.equal(answer.tool, 'verify_batch');
    assert.deepEqual(answer.data.input, { ip: ['20.171.206.10', '192.0.2.1'], ua: 'GPTBot' });
    const output = answer.data.output as { checked: number; results: { input: string }[] };
    assert.equal(output.checked, 2);
    assert.match(answer.text, /2 addresses checked/);
  });

  test('an access-log line → verify_batch with the logged User-Agent as the claim', async () => {
    const answer = await ask([
      textPart(
        '66.249.66.1 - - [01/Jan/2026:00:00:00 +0000] "GET /a HTTP/1.1" 200 512 "https://example.org/" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"',
      ),
    ]);
    assert.equal(answer.tool, 'verify_batch');
    assert.deepEqual(answer.data.input, { ip: ['66.249.66.1'], ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
  });

  test('IPv6 addresses in brackets and a list → verify_batch', async () => {
    const answer = await ask([textPart('check [2001:db8::1], 2001:4860:4801:10::1 and 192.0.2.7.')]);
    assert.equal(answer.tool, 'verify_batch');
    assert.deepEqual(answer.data.input, { ip: ['2001:db8::1', '2001:4860:4801:10::1', '192.0.2.7'] });
  });

  test('a robots.txt, with a sentence and code fences around it → audit_ai_access', async () => {
    const answer = await ask([textPart('Which AI crawlers does this block?\n```\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n```')]);
    assert.equal(answer.tool, 'audit_ai_access');
    assert.equal(answer.data.input?.['robots_txt'], 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
    const output = answer.data.output as { blocked: { slug: string }[] };
    assert.deepEqual(
      output.blocked.map((b) => b.slug),
      ['gptbot'],
    );
    assert.match(answer.text, /1 of \d+ AI crawlers are blocked/);
  });

  test('"who am I" → whoami about the calling request', async () => {
    const answer = await ask([textPart('Who am I?')]);
    assert.equal(answer.tool, 'whoami');
    assert.equal((answer.data.output as { address: string }).address, '127.0.0.1');
  });

  test('anything else → a help text listing what it can do', async () => {
    const answer = await ask([textPart('hello there')]);
    assert.equal(answer.tool, null);
    for (const name of ['classify_user_agent', 'verify_batch', 'audit_ai_access', 'whoami']) assert.match(answer.text, new RegExp(name));
    assert.match(answer.text, /agent-card\.json/);
  });

  test("a data part naming a skill calls it directly; one with a tool's fields is routed by them", async () => {
    const direct = await ask([dataPart({ skill: 'lint_robots_txt', input: { robots_txt: 'User-agent: *\nDissallow: /x\n' } })]);
    assert.equal(direct.tool, 'lint_robots_txt');
    assert.ok((direct.data.output as { findings: unknown[] }).findings.length > 0);
    const inferred = await ask([dataPart({ ip: ['20.171.206.10'], ua: 'GPTBot' })]);
    assert.equal(inferred.tool, 'verify_batch');
  });

  test('every example in the agent card is answered by its own skill', async () => {
    const card = agentCard(await readSite(project.root)) as { skills: { id: string; examples: string[] }[] };
    for (const skill of card.skills) {
      for (const example of skill.examples) {
        const part = example.startsWith('{') ? dataPart(JSON.parse(example)) : textPart(example);
        assert.equal((await ask([part])).tool, skill.id, `${skill.id}: ${example}`);
      }
    }
    assert.ok(Object.keys(A2A_PROMPTS).every((name) => TOOLS.some((t) => t.name === name)));
  });

  test('bad input reaches the SDK client as a JSON-RPC error', async () => {
    await assert.rejects(
      client.sendMessage({ tenant: '', message: userMessage([dataPart({ skill: 'nope' })]), configuration: undefined, metadata: undefined }),
      /unknown skill "nope"/,
    );
    await assert.rejects(
      client.sendMessage({
        tenant: '',
        message: userMessage([dataPart({ skill: 'classify_user_agent', input: {} })]),
        configuration: undefined,
        metadata: undefined,
      }),
      /ua is required/,
    );
  });
});

interface RpcAnswer {
  status: number;
  body: {
    jsonrpc?: string;
    id?: unknown;
    result?: { kind: string; parts: { kind: string }[] };
    error?: { code: number; message: string; data?: { field?: string } };
  } | null;
  text: string;
}

async function post(body: BodyInit): Promise<RpcAnswer> {
  const response = await fetch(`${server.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await response.text();
  let parsed: RpcAnswer['body'] = null;
  try {
    parsed = JSON.parse(text) as RpcAnswer['body'];
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, text };
}

const send = (params: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'message/send', params });

function assertRpcError(answer: RpcAnswer, code: number) {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body?.jsonrpc, '2.0');
  assert.equal(answer.body?.error?.code, code, answer.text);
  assert.equal(answer.body?.result, undefined);
  return answer.body!.error!;
}

describe('raw JSON-RPC on /a2a', () => {
  test('a v0.3 message/send answers with a kind:message result holding a text and a data part', async () => {
    const answer = await post(
      send({ message: { kind: 'message', role: 'user', messageId: 'x1', contextId: 'ctx-1', parts: [{ kind: 'text', text: 'GPTBot/1.2' }] } }, 'req-1'),
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.body?.id, 'req-1');
    const result = answer.body?.result as unknown as { kind: string; role: string; contextId: string; parts: { kind: string }[] };
    assert.equal(result.kind, 'message');
    assert.equal(result.role, 'agent');
    assert.equal(result.contextId, 'ctx-1');
    assert.deepEqual(
      result.parts.map((p) => p.kind),
      ['text', 'data'],
    );
  });

  test('every answer, result or error, carries the strong ETag of its own bytes', async () => {
    for (const body of [send({ message: { kind: 'message', role: 'user', messageId: 'e1', parts: [{ kind: 'text', text: 'GPTBot/1.2' }] } }), '{']) {
      const response = await fetch(`${server.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.headers.get('etag'), `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`, body);
    }
  });

  test('parse errors → -32700 with HTTP 200', async () => {
    for (const body of ['{', '', 'message/send']) assertRpcError(await post(body), -32700);
    assert.match(assertRpcError(await post(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), -32700).message, /UTF-8/);
    const noise = new Uint8Array(2048).map((_, i) => (i * 7919 + 13) % 256);
    assertRpcError(await post(noise), -32700);
  });

  test('invalid requests → -32600', async () => {
    for (const body of [
      '{"jsonrpc":"1.0"}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","method":"message/send","params":{}}',
      '{"jsonrpc":"2.0","id":true,"method":"message/send"}',
      '{"jsonrpc":"2.0","id":1,"method":"message/send","params":5}',
      '[]',
      '[{"jsonrpc":"2.0","id":1,"method":"message/send"}]',
      '7',
    ]) {
      assertRpcError(await post(body), -32600);
    }
  });

  test('other methods → -32601 naming message/send', async () => {
    for (const method of ['tasks/get', 'message/stream', 'SendMessage']) {
      const error = assertRpcError(await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: { id: 't' } })), -32601);
      assert.match(error.message, /message\/send/);
    }
  });

  test('invalid params → -32602 naming the field', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'params'],
      [{}, 'params.message'],
      [{ message: { role: 'user', parts: [] } }, 'params.message.parts'],
      [{ message: { role: 'user', parts: ['text'] } }, 'params.message.parts[0]'],
      [{ message: { role: 'user', parts: [{ kind: 'text', text: 5 }] } }, 'params.message.parts[0].text'],
      [{ message: { role: 'user', parts: [{ kind: 'file', file: { uri: 'https://example.org/robots.txt' } }] } }, 'params.message.parts'],
      [{ message: { role: 'user', parts: [{ kind: 'data', data: { skill: 'verify_batch', input: { ip: [] } } }] } }, 'ip'],
    ];
    for (const [params, field] of cases) {
      const error = assertRpcError(await post(send(params)), -32602);
      assert.equal(error.data?.field, field, JSON.stringify(params));
    }
  });

  test('a body over 1 MiB → 413 with the JSON error shape; never a 5xx', async () => {
    const big = await post(new Uint8Array(2 * 1024 * 1024).fill(0x20));
    assert.equal(big.status, 413);
    assert.ok(validateError(big.body), JSON.stringify(validateError.errors));
    const get = await fetch(`${server.url}/a2a`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    await get.arrayBuffer();
  });
});
