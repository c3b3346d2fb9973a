import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Role, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import type { RunningServer } from '../pipeline/node/server.ts';
import { readSite } from '../pipeline/node/site-settings.ts';
import { A2A_PROMPTS, agentCard } from '../pipeline/render/agent-card.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { TOOLS } from '../pipeline/tools/registry/index.ts';
import { REPO } from './support/project.ts';
import { serveMini, type ServedMini, serveTree } from './support/served.ts';

const validateCard = validatorFor('outputs/agent-card.schema.json');
const validateError = validatorFor('outputs/error.schema.json');

let served: ServedMini;
let server: RunningServer;
/** The SDK's standard client, unmodified: it reads the 1.0 interface and sends SendMessage. */
let client: Client;
/** The SDK's 0.3 transport, as an A2A 0.3 client reaches the same card's 0.3 interface. */
let legacyClient: Client;

before(async () => {
  // Calls run in place: A2A is the subject here (test/tool-threads.test.ts sends A2A calls to tools on threads).
  served = await serveMini({ tools: { threads: 0 } });
  server = served.server;
  client = await new ClientFactory().createFromUrl(server.url);
  // A 0.3 client: the same card, its 0.3 interface, the SDK's legacy JSON-RPC transport (message/send).
  const card = await new DefaultAgentCardResolver().resolve(server.url);
  const legacyOnly: AgentCard = { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3') };
  legacyClient = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })] }).createFromAgentCard(legacyOnly);
});
after(() => served.dispose());

let sent = 0;
function userMessage(parts: Part[]): Message {
  return { messageId: `m-${++sent}`, contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}
const textPart = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const dataPart = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: '' });

/** Sends with the SDK client; returns the tool that ran, the text part and the data part's value. */
async function ask(
  parts: Part[],
  through: Client = client,
): Promise<{
  tool: string | null;
  text: string;
  data: { tool: string | null; input?: Record<string, unknown>; output?: Record<string, unknown>; note?: string };
}> {
  const result = await through.sendMessage({ tenant: '', message: userMessage(parts), configuration: undefined, metadata: undefined });
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
    const card = (await response.json()) as {
      url: string;
      supportedInterfaces: { url: string; protocolVersion: string }[];
      skills: { id: string; examples: string[] }[];
    };
    assert.ok(validateCard(card), JSON.stringify(validateCard.errors));
    assert.deepEqual(card, agentCard({ ...(await readSite(served.root)), base_url: server.url }));
    assert.equal(card.url, `${server.url}/a2a`);
    assert.deepEqual(
      card.supportedInterfaces.map((i) => [i.url, i.protocolVersion]),
      [
        [`${server.url}/a2a`, '1.0'],
        [`${server.url}/a2a`, '0.3'],
      ],
      'the 1.0 interface first, as the preferred one',
    );
    assert.deepEqual(
      card.skills.map((s) => s.id),
      TOOLS.map((t) => t.name),
    );
  });

  test('/.well-known/agent.json, the name before A2A 0.3, answers the same card with rel=canonical', async () => {
    const [card, alias] = await Promise.all(['/.well-known/agent-card.json', '/.well-known/agent.json'].map((path) => fetch(`${server.url}${path}`)));
    assert.equal(alias!.status, 200);
    assert.equal(await alias!.text(), await card!.text());
    assert.match(alias!.headers.get('link') ?? '', /<[^>]*\/\.well-known\/agent-card\.json>; rel="?canonical"?/);
  });

  test('the schema refuses a card that breaks it', () => {
    const card = agentCard({
      name: 'X',
      base_url: 'https://index.example',
      repository: 'https://example.org',
      license: 'CC0-1.0',
      contact: 'https://example.org',
      security_contact: 'https://example.org',
    }) as Record<string, unknown>;
    assert.ok(validateCard(card));
    for (const broken of [
      { ...card, url: 'https://index.example/mcp' },
      { ...card, supportedInterfaces: [] },
      { ...card, supportedInterfaces: [{ url: 'https://index.example/a2a', protocolBinding: 'GRPC', protocolVersion: '1.0' }] },
      { ...card, capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false } },
      { ...card, preferredTransport: 'GRPC' },
      { ...card, skills: [] },
      { ...card, extra: 1 },
    ]) {
      assert.equal(validateCard(broken), false);
    }
  });
});

const CLIENTS: readonly (readonly [string, () => Client])[] = [
  ["SendMessage (A2A 1.0) with the SDK's standard ClientFactory, unmodified", () => client],
  ["message/send (A2A 0.3) with the SDK's 0.3 transport", () => legacyClient],
];

for (const [label, through] of CLIENTS)
  describe(label, () => {
    const askVia = (parts: Part[]) => ask(parts, through());
    test('a User-Agent string → classify_user_agent', async () => {
      const answer = await askVia([textPart('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)')]);
      assert.equal(answer.tool, 'classify_user_agent');
      assert.equal((answer.data.output as { matched: boolean; crawler: { slug: string } }).crawler.slug, 'gptbot');
      assert.match(answer.text, /^GPTBot by OpenAI/);
    });

    test('IP addresses with a claimed crawler → verify_batch', async () => {
      const answer = await askVia([textPart('Are 20.171.206.10 and 192.0.2.1 really GPTBot?')]);
      assert.equal(answer.tool, 'verify_batch');
      assert.deepEqual(answer.data.input, { ip: ['20.171.206.10', '192.0.2.1'], ua: 'GPTBot' });
      const output = answer.data.output as { checked: number; results: { input: string }[] };
      assert.equal(output.checked, 2);
      assert.match(answer.text, /2 addresses checked/);
    });

    test('an access-log line → verify_batch with the logged User-Agent as the claim', async () => {
      const answer = await askVia([
        textPart(
          '66.249.66.1 - - [01/Jan/2026:00:00:00 +0000] "GET /a HTTP/1.1" 200 512 "https://example.org/" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"',
        ),
      ]);
      assert.equal(answer.tool, 'verify_batch');
      assert.deepEqual(answer.data.input, { ip: ['66.249.66.1'], ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    });

    test('IPv6 addresses in brackets and a list → verify_batch', async () => {
      const answer = await askVia([textPart('check [2001:db8::1], 2001:4860:4801:10::1 and 192.0.2.7.')]);
      assert.equal(answer.tool, 'verify_batch');
      assert.deepEqual(answer.data.input, { ip: ['2001:db8::1', '2001:4860:4801:10::1', '192.0.2.7'] });
    });

    test('a robots.txt, with a sentence and code fences around it → audit_ai_access', async () => {
      const answer = await askVia([textPart('Which AI crawlers does this block?\n```\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n```')]);
      assert.equal(answer.tool, 'audit_ai_access');
      assert.equal(answer.data.input?.['robots_txt'], 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
      const output = answer.data.output as { blocked: { slug: string }[] };
      assert.deepEqual(
        output.blocked.map((b) => b.slug),
        ['gptbot'],
      );
      assert.match(answer.text, /1 of \d+ AI crawlers are blocked/);
    });

    test('a robots.txt with Content Signals → audit_ai_access with the preferences that apply, named in the text', async () => {
      const answer = await askVia([
        textPart('User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\nContent-Signal: search=yes\n'),
      ]);
      assert.equal(answer.tool, 'audit_ai_access');
      const output = answer.data.output as {
        usage_preferences: { contradictions: { slug: string }[] };
        allowed: { slug: string; preferences: { applies: boolean } }[];
      };
      assert.deepEqual(
        output.usage_preferences.contradictions.map((c) => c.slug),
        ['gptbot'],
      );
      assert.ok(output.allowed.length > 0 && output.allowed.every((a) => a.preferences.applies));
      assert.match(answer.text, /Contradiction: GPTBot may not fetch \//);
    });

    test('"who am I" → whoami about the calling request', async () => {
      const answer = await askVia([textPart('Who am I?')]);
      assert.equal(answer.tool, 'whoami');
      assert.equal((answer.data.output as { address: string }).address, '127.0.0.1');
    });

    test('anything else → a help text listing what it can do', async () => {
      const answer = await askVia([textPart('hello there')]);
      assert.equal(answer.tool, null);
      for (const name of ['classify_user_agent', 'verify_batch', 'audit_ai_access', 'whoami']) assert.match(answer.text, new RegExp(name));
      assert.match(answer.text, /agent-card\.json/);
    });

    test("a data part naming a skill calls it directly; one with a tool's fields is routed by them", async () => {
      const direct = await askVia([dataPart({ skill: 'lint_robots_txt', input: { robots_txt: 'User-agent: *\nDissallow: /x\n' } })]);
      assert.equal(direct.tool, 'lint_robots_txt');
      assert.ok((direct.data.output as { findings: unknown[] }).findings.length > 0);
      const inferred = await askVia([dataPart({ ip: ['20.171.206.10'], ua: 'GPTBot' })]);
      assert.equal(inferred.tool, 'verify_batch');
    });

    test('questions in plain words: a path question with and without its robots.txt, and what to block and keep', async () => {
      const withFile = await askVia([textPart('Can GPTBot fetch /search?\n\nUser-agent: GPTBot\nDisallow: /search\n')]);
      assert.equal(withFile.tool, 'check_path_allowed');
      assert.deepEqual(withFile.data.input, { robots_txt: 'User-agent: GPTBot\nDisallow: /search\n', ua: 'GPTBot', path: ['/search'] });
      const verdict = (withFile.data.output as { results: { path: string; allowed: boolean }[] }).results;
      assert.deepEqual(
        verdict.map((r) => [r.path, r.allowed]),
        [['/search', false]],
      );

      const withoutFile = await askVia([textPart('Can GPTBot fetch /search?')]);
      assert.equal(withoutFile.tool, 'crawler_markdown');
      assert.match(withoutFile.text, /^Whether GPTBot may fetch \/search depends on your robots\.txt/);
      assert.match(withoutFile.text, /"skill":"check_path_allowed"/);
      assert.match(withoutFile.text, /# GPTBot/);

      const policy = await askVia([textPart('How do I block AI training but keep AI search?')]);
      assert.equal(policy.tool, 'policy_markdown');
      assert.deepEqual(policy.data.input, { policy: 'block-ai-training' });
      assert.match(policy.text, /^To block AI training crawlers and keep AI search crawlers, append the block-ai-training policy/);
      assert.match(policy.data.note ?? '', /allow-ai-search-only/);
    });

    test('every example in the agent card is answered by its own skill', async () => {
      const card = agentCard(await readSite(served.root)) as { skills: { id: string; examples: string[] }[] };
      for (const skill of card.skills) {
        for (const example of skill.examples) {
          const part = example.startsWith('{') ? dataPart(JSON.parse(example)) : textPart(example);
          assert.equal((await askVia([part])).tool, skill.id, `${skill.id}: ${example}`);
        }
      }
      assert.ok(Object.keys(A2A_PROMPTS).every((name) => TOOLS.some((t) => t.name === name)));
    });

    test('bad input reaches the SDK client as a JSON-RPC error', async () => {
      await assert.rejects(
        through().sendMessage({ tenant: '', message: userMessage([dataPart({ skill: 'nope' })]), configuration: undefined, metadata: undefined }),
        /unknown skill "nope"/,
      );
      await assert.rejects(
        through().sendMessage({
          tenant: '',
          message: userMessage([dataPart({ skill: 'classify_user_agent', input: {} })]),
          configuration: undefined,
          metadata: undefined,
        }),
        /ua is required/,
      );
    });
  });

describe("the issue's questions, asked of the published index through the SDK's standard client", () => {
  let published: RunningServer;
  let asker: Client;
  before(async () => {
    published = await serveTree(REPO, { requestLog: { file: null } });
    // The committed card names the public address; its interfaces are pointed at this server.
    const card = await new DefaultAgentCardResolver().resolve(published.url);
    const local: AgentCard = { ...card, supportedInterfaces: card.supportedInterfaces.map((i) => ({ ...i, url: `${published.url}/a2a` })) };
    asker = await new ClientFactory().createFromAgentCard(local);
  });
  after(() => published.close());

  test('"What is Bytespider?", "Can GPTBot fetch /search?", "How do I block AI training but keep AI search?"', async () => {
    const bytespider = await ask([textPart('What is Bytespider?')], asker);
    assert.equal(bytespider.tool, 'crawler_markdown');
    assert.match(bytespider.text, /^# Bytespider/m);
    const path = await ask([textPart('Can GPTBot fetch /search?')], asker);
    assert.equal(path.tool, 'crawler_markdown');
    assert.match(path.text, /depends on your robots\.txt/);
    const policy = await ask([textPart('How do I block AI training but keep AI search?')], asker);
    assert.equal(policy.tool, 'policy_markdown');
    assert.deepEqual(policy.data.input, { policy: 'block-ai-training' });
  });

  test('"Which crawlers does OpenAI run?", "Should I block CCBot?": the operator\'s crawlers, the record with the group that blocks it', async () => {
    const openai = await ask([textPart('Which crawlers does OpenAI run?')], asker);
    assert.equal(openai.tool, 'verification_methods');
    assert.match(openai.text, /^OpenAI runs \d+ crawlers in the index/);
    assert.match(openai.text, /^- GPTBot: AI training crawler; robots\.txt token GPTBot;/m);
    const ccbot = await ask([textPart('What does CCBot do and should I block it?')], asker);
    assert.equal(ccbot.tool, 'crawler_markdown');
    assert.match(ccbot.text, /User-agent: CCBot\nDisallow: \/\n\n# CCBot/);
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

async function post(body: BodyInit, headers: Record<string, string> = {}, query = ''): Promise<RpcAnswer> {
  const response = await fetch(`${server.url}/a2a${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
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
const sendV1 = (params: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'SendMessage', params });

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
      `{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"SendMessage","params":{}}`,
      '{"jsonrpc":"2.0","id":1,"method":"message/send","params":5}',
      '[]',
      '[{"jsonrpc":"2.0","id":1,"method":"message/send"}]',
      '7',
    ]) {
      assertRpcError(await post(body), -32600);
    }
  });

  test('the task, streaming, push and extended-card methods of both generations get the error A2A defines for each', async () => {
    const expected: [string, number][] = [
      ['GetTask', -32001],
      ['CancelTask', -32001],
      ['SubscribeToTask', -32001],
      ['tasks/get', -32001],
      ['tasks/cancel', -32001],
      ['tasks/resubscribe', -32001],
      ['SendStreamingMessage', -32004],
      ['message/stream', -32004],
      ['CreateTaskPushNotificationConfig', -32003],
      ['tasks/pushNotificationConfig/set', -32003],
      ['GetExtendedAgentCard', -32007],
      ['agent/getAuthenticatedExtendedCard', -32007],
    ];
    for (const [method, code] of expected) assertRpcError(await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: { id: 't' } })), code);
    const streaming = assertRpcError(await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'message/stream', params: {} })), -32004);
    assert.match(streaming.message, /message\/send/);
    const listed = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ListTasks', params: {} }));
    assert.deepEqual(listed.body?.result, { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
  });

  test('an unknown method → -32601 naming both send methods', async () => {
    for (const method of ['tasks/list', 'sendMessage', 'Send']) {
      const error = assertRpcError(await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method, params: {} })), -32601);
      assert.match(error.message, /SendMessage \(A2A 1\.0\) and message\/send \(A2A 0\.3\)/);
    }
  });

  test('A2A-Version: 1.0, 0.3, a patch number, empty or absent are served; any other version → -32009 naming the accepted ones', async () => {
    const body = sendV1({ message: { role: 'ROLE_USER', messageId: 'v', parts: [{ text: 'GPTBot/1.2' }] } });
    for (const version of ['1.0', '0.3', '1.0.3', '', null]) {
      const answer = await post(body, version === null ? {} : { 'a2a-version': version });
      assert.ok(answer.body?.result, `${version}: ${answer.text}`);
    }
    const byQuery = await post(body, {}, '?A2A-Version=1.0');
    assert.ok(byQuery.body?.result, byQuery.text);
    for (const version of ['0.5', '2.0', 'one', '1']) {
      const error = assertRpcError(await post(body, { 'a2a-version': version }), -32009);
      assert.match(error.message, /1\.0, 0\.3/);
    }
    assertRpcError(await post(body, {}, '?A2A-Version=3.0'), -32009);
  });

  test('a v1.0 SendMessage answers {message} with ROLE_AGENT and a text and a data part, told apart by member', async () => {
    const answer = await post(sendV1({ message: { role: 'ROLE_USER', messageId: 'x2', contextId: 'ctx-2', parts: [{ text: 'GPTBot/1.2' }] } }, 'req-2'), {
      'a2a-version': '1.0',
    });
    assert.equal(answer.body?.id, 'req-2');
    const result = answer.body?.result as unknown as {
      message: { role: string; contextId: string; parts: Record<string, unknown>[]; metadata: { tool: string } };
    };
    assert.equal(result.message.role, 'ROLE_AGENT');
    assert.equal(result.message.contextId, 'ctx-2');
    assert.equal(typeof result.message.parts[0]?.['text'], 'string');
    assert.equal((result.message.parts[1]?.['data'] as { tool: string } | undefined)?.tool, 'classify_user_agent');
    assert.equal(result.message.metadata.tool, 'classify_user_agent');
    assert.ok(
      result.message.parts.every((part) => !('kind' in part)),
      'no 0.3 kind tag in a 1.0 answer',
    );
  });

  test('v1.0 invalid params → -32602 with a BadRequest naming the field and an ErrorInfo with the reason', async () => {
    const cases: [unknown, string][] = [
      [undefined, 'params'],
      [{}, 'params.message'],
      [{ message: { role: 'ROLE_USER', parts: [] } }, 'params.message.parts'],
      [{ message: { role: 'ROLE_USER', parts: [{ text: 'a', data: {} }] } }, 'params.message.parts[0]'],
      [{ message: { role: 'ROLE_USER', parts: [{}] } }, 'params.message.parts[0]'],
      [{ message: { role: 'ROLE_USER', parts: [{ text: 5 }] } }, 'params.message.parts[0].text'],
      [{ message: { role: 'ROLE_USER', parts: [{ data: 'GPTBot' }] } }, 'params.message.parts[0].data'],
      [{ message: { role: 'ROLE_USER', parts: [{ url: 'https://example.org/robots.txt' }] } }, 'params.message.parts'],
      [{ message: { role: 'ROLE_USER', parts: [{ data: { skill: 'verify_batch', input: { ip: [] } } }] } }, 'ip'],
    ];
    for (const [params, field] of cases) {
      const error = assertRpcError(await post(sendV1(params), { 'a2a-version': '1.0' }), -32602);
      const details = error.data as unknown as { '@type': string; fieldViolations?: { field: string }[]; reason?: string; metadata?: Record<string, string> }[];
      assert.ok(Array.isArray(details), JSON.stringify(error));
      const badRequest = details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
      assert.equal(badRequest?.fieldViolations?.[0]?.field, field, JSON.stringify(params));
      const info = details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo');
      assert.equal(info?.reason, 'INVALID_PARAMS');
      assert.ok(
        Object.values(info?.metadata ?? {}).every((value) => typeof value === 'string'),
        'ErrorInfo metadata is a map of strings',
      );
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
