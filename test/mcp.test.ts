import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { REPO } from './support/project.ts';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createApp } from '../pipeline/http/handler.ts';
import { handleMcp } from '../pipeline/http/mcp.ts';
import { snapshotStore } from '../pipeline/node/dist-snapshot.ts';
import { readSite } from '../pipeline/node/site-settings.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { MCP_SERVERS, TOOLS, toolByName, type ToolData } from '../pipeline/tools/registry/index.ts';
import { inputSchema } from '../pipeline/tools/registry/input.ts';
import { toolCallAnswerFrame } from '../pipeline/tools/registry/tool-call-answer.ts';
import { serveMini, type ServedMini } from './support/served.ts';
import { inPlace } from './support/tool-data.ts';
import { JSON_RPC_HEADERS } from './support/http.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
/** Each tool's output validator, compiled once: the servers share tools, and compiling is the costly part. */
const outputValidators = new Map<string, ReturnType<typeof ajv.compile>>();
function outputValidator(tool: { name: string; outputSchema: object }): ReturnType<typeof ajv.compile> {
  let validate = outputValidators.get(tool.name);
  if (validate === undefined) {
    validate = ajv.compile(tool.outputSchema);
    outputValidators.set(tool.name, validate);
  }
  return validate;
}
const validateError = validatorFor('outputs/error.schema.json');
const JSON_HEADERS = JSON_RPC_HEADERS;

let served: ServedMini;
let server: RunningServer;
let data: ToolData;

before(async () => {
  // Calls run in place: MCP is the subject here (test/tool-threads.test.ts calls tools over MCP on threads).
  served = await serveMini({ tools: { threads: 0 } });
  ({ server, data } = served);
});
after(() => served.dispose());

async function connect(path: string): Promise<Client> {
  const client = new Client({ name: 'crawler-index-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url + path)));
  return client;
}

/** The MCP Inspector CLI's client functions (its build/client/index.js; the package ships no types). */
interface InspectorClient {
  connect(client: Client, transport: Transport): Promise<void>;
  disconnect(transport: Transport): Promise<void>;
  listTools(client: Client): Promise<{ tools: { name: string }[] }>;
  callTool(client: Client, name: string, args: Record<string, string>): Promise<unknown>;
}

/** The MCP Inspector CLI's transport choice (its build/transport.js). */
interface InspectorTransport {
  createTransport(options: { transportType: 'http'; url: string }): Transport;
}

/** A thrown McpError, with its JSON-RPC code. */
async function rejection(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError, `an McpError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to be refused');
}

describe('MCP over Streamable HTTP with the SDK client', () => {
  for (const spec of MCP_SERVERS) {
    test(`${spec.path}: tools/list is the registry's list, every example call answers with text and valid structuredContent`, async () => {
      const client = await connect(spec.path);
      try {
        assert.equal(client.getServerVersion()?.name, spec.name);
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((t) => t.name),
          [...spec.tools],
        );
        for (const listed of tools) {
          const tool = toolByName(listed.name)!;
          assert.equal(listed.title, tool.title);
          assert.equal(listed.description, tool.description);
          assert.deepEqual(listed.inputSchema, inputSchema(tool));
          assert.deepEqual(listed.outputSchema, tool.outputSchema);

          const example = tool.examples[0];
          assert.ok(example, `${tool.name} has an example`);
          const result = await client.callTool({ name: tool.name, arguments: example.input });
          assert.notEqual(result.isError, true, `${tool.name}: ${JSON.stringify(result.content)}`);
          const content = result.content as { type: string; text?: string }[];
          assert.deepEqual(
            content.map((c) => c.type),
            ['text', 'text'],
          );
          assert.ok((content[0]!.text ?? '').length > 0, `${tool.name} summary is not empty`);
          assert.ok(result.structuredContent, `${tool.name} returns structuredContent`);
          const validate = outputValidator(tool);
          assert.ok(validate(result.structuredContent), `${tool.name}: ${JSON.stringify(validate.errors)}`);
          // The first text is the tool's own summary; the second the whole result, for clients that ignore structuredContent.
          assert.equal(content[0]!.text, tool.summarize(result.structuredContent));
          assert.deepEqual(JSON.parse(content[1]!.text!), result.structuredContent);
        }
      } finally {
        await client.close();
      }
    });
  }

  test('tool descriptions and input schemas speak to a model: no HTTP habits, no claim the data contradicts', async () => {
    const client = await connect('/mcp');
    try {
      const { tools } = await client.listTools();
      const httpHabits = /URL-encod|query string|repeat (the parameter|\w+=)|\b(a|with a|HTTP) 4\d\d\b|\?spec=/i;
      for (const tool of tools) {
        const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
        assert.equal(properties['s'], undefined, `${tool.name}: the attribution tag s is an HTTP habit`);
        for (const [where, text] of [['description', tool.description ?? ''], ...Object.entries(properties).map(([name, p]) => [name, p.description ?? ''])]) {
          assert.doesNotMatch(text!, httpHabits, `${tool.name} ${where}`);
        }
      }
      // A description is the same for every tree; the published one mirrors key directories (records/sources.yaml, kind signature-directory).
      assert.doesNotMatch(tools.find((t) => t.name === 'verify_signature')!.description ?? '', /mirrors no key directory/);
    } finally {
      await client.close();
    }
  });

  test('bad arguments are a tool error (isError) a model can read and retry, naming the field and its accepted form', async () => {
    const client = await connect('/mcp');
    const errorText = (result: Awaited<ReturnType<Client['callTool']>>) => {
      assert.equal(result.isError, true, JSON.stringify(result));
      return (result.content as { text: string }[])[0]!.text;
    };
    try {
      const missing = errorText(await client.callTool({ name: 'classify_user_agent', arguments: {} }));
      assert.match(missing, /Invalid argument "ua" for classify_user_agent/);
      assert.match(missing, /Accepted: a User-Agent header value/);
      assert.match(errorText(await client.callTool({ name: 'classify_user_agent', arguments: { ua: 'GPTBot/1.0', user_agent: 'x' } })), /"user_agent"/);
      assert.match(errorText(await client.callTool({ name: 'classify_user_agent', arguments: { ua: 42 } })), /ua must be a string/);
      assert.match(errorText(await client.callTool({ name: 'policy_markdown', arguments: { policy: 'block-everything' } })), /not one of the accepted values/);
    } finally {
      await client.close();
    }
    const netcheck = await connect('/netcheck/mcp');
    try {
      const tooMany = errorText(
        await netcheck.callTool({ name: 'verify_batch', arguments: { ip: Array.from({ length: 501 }, (_, i) => `192.0.2.${i % 256}`) } }),
      );
      assert.match(tooMany, /"ip"/);
      assert.match(tooMany, /at most 500/);
    } finally {
      await netcheck.close();
    }
  });

  test('audit_ai_access over MCP carries the usage preferences per crawler and a Content-Usage header', async () => {
    const client = await connect('/robots/mcp');
    try {
      const result = await client.callTool({
        name: 'audit_ai_access',
        arguments: { robots_txt: 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n', content_usage_header: 'train-ai=n' },
      });
      const output = result.structuredContent as {
        allowed: { slug: string; preferences: { content_usage: { 'train-ai': string; header: boolean }; content_signal: { 'ai-train': string } } }[];
      };
      const gpt = output.allowed.find((a) => a.slug === 'gptbot')!;
      assert.equal(gpt.preferences.content_signal['ai-train'], 'no');
      assert.deepEqual([gpt.preferences.content_usage['train-ai'], gpt.preferences.content_usage.header], ['disallowed', true]);
      assert.match((result.content as { text: string }[])[0]!.text, /Content-Signal search=yes, ai-train=no \(line 2\)/);
    } finally {
      await client.close();
    }
  });

  test("an unknown tool, or a tool of another server → -32602 naming this server's tools", async () => {
    const client = await connect('/robots/mcp');
    try {
      for (const name of ['no_such_tool', 'classify_user_agent']) {
        const error = await rejection(client.callTool({ name, arguments: {} }));
        assert.equal(error.code, -32602);
        assert.match(error.message, new RegExp(`Unknown tool "${name}"`));
        assert.match(error.message, /audit_ai_access, check_path_allowed, lint_robots_txt/);
      }
    } finally {
      await client.close();
    }
  });

  test('/mcp offers every tool; every server path ends in /mcp, and the old paths still answer, naming the new one as canonical', async () => {
    assert.deepEqual([...MCP_SERVERS[0]!.tools].sort(), TOOLS.map((t) => t.name).sort());
    for (const spec of MCP_SERVERS) {
      assert.match(spec.path, /\/mcp$/, `${spec.path}: the MCP Inspector rewrites other paths to /mcp`);
      if (spec.legacyPath === null) continue;
      const client = await connect(spec.legacyPath);
      try {
        assert.deepEqual(
          (await client.listTools()).tools.map((t) => t.name),
          [...spec.tools],
        );
      } finally {
        await client.close();
      }
      const response = await fetch(server.url + spec.legacyPath, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      await response.arrayBuffer();
      assert.match(response.headers.get('link') ?? '', new RegExp(`^<[^>]+${spec.path.replaceAll('/', '\\/')}>; rel="canonical"`));
    }
  });

  test('a list argument written as a JSON array inside a string is read as that array, not split on its commas', async () => {
    const client = await connect('/triage/mcp');
    try {
      const lines = [
        '66.249.66.1 Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        '203.0.113.9 Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      ];
      const triage = await client.callTool({ name: 'triage_log_lines', arguments: { lines: JSON.stringify(lines) } });
      assert.deepEqual(
        (triage.structuredContent as { lines: { address: string }[] }).lines.map((l) => l.address),
        ['66.249.66.1', '203.0.113.9'],
      );
      const verify = await client.callTool({ name: 'verify_batch', arguments: { ip: '["66.249.66.1", "192.0.2.1"]' } });
      assert.deepEqual((verify.structuredContent as { checked: number; summary: { invalid: number } }).summary.invalid, 0);
      // Anything else in a string keeps its own reading: a bracketed IPv6 address is not JSON.
      const bracketed = await client.callTool({ name: 'verify_batch', arguments: { ip: '[2001:db8::1]' } });
      assert.equal((bracketed.structuredContent as { checked: number }).checked, 1);
    } finally {
      await client.close();
    }
  });

  test('the README and docs/API.md list each server with its own tools', async () => {
    const readme = (await readFile(join(REPO, 'README.md'), 'utf8')).replace(/\s+/g, ' ');
    const api = await readFile(join(REPO, 'docs', 'API.md'), 'utf8');
    const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const names = (text: string) => [...text.replace(/\band\b/g, '').matchAll(/[a-z_]+/g)].map((m) => m[0]).sort();
    for (const spec of MCP_SERVERS.filter((s) => s.legacyPath !== null)) {
      const inReadme = readme.match(new RegExp(`${literal(`\`${spec.path}\` (`)}([a-z_, ]+)\\)`));
      assert.ok(inReadme, `README names ${spec.path} with its tools`);
      assert.deepEqual(names(inReadme[1]!), [...spec.tools].sort(), `README, ${spec.path}`);
      const row = api.match(new RegExp(`^${literal(`| \`${spec.path}\` (\`${spec.legacyPath}\`) | `)}([^|]+) \\|$`, 'm'));
      assert.ok(row, `docs/API.md §4.6 has a row for ${spec.path}`);
      assert.deepEqual(names(row[1]!), [...spec.tools].sort(), `docs/API.md, ${spec.path}`);
    }
  });

  test('a User-Agent with control characters is not examined, and the summary says so rather than guessing', async () => {
    const client = await connect('/triage/mcp');
    try {
      const result = await client.callTool({ name: 'classify_user_agent', arguments: { ua: 'Googlebot/2.1\r\nX-Injected: 1' } });
      assert.equal((result.structuredContent as { input_issue: string }).input_issue, 'control-characters');
      const summary = (result.content as { text: string }[])[0]!.text;
      assert.match(summary, /control characters/);
      assert.doesNotMatch(summary, /look automated/);
    } finally {
      await client.close();
    }
  });

  test('whoami answers about the calling request', async () => {
    const client = await connect('/mcp');
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      const output = result.structuredContent as { address: string | null; user_agent: string | null };
      assert.equal(output.address, '127.0.0.1');
      assert.ok(output.user_agent !== null && output.user_agent.length > 0);
    } finally {
      await client.close();
    }
  });
});

interface RpcAnswer {
  status: number;
  contentType: string | null;
  body: { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } } | null;
  text: string;
}

async function post(path: string, body: BodyInit, headers: Record<string, string> = JSON_HEADERS): Promise<RpcAnswer> {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  let parsed: RpcAnswer['body'] = null;
  try {
    parsed = JSON.parse(text) as RpcAnswer['body'];
  } catch {
    parsed = null;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), body: parsed, text };
}

function assertRpcError(answer: RpcAnswer, code: number, status: number): { code: number; message: string; data?: unknown } {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.contentType, 'application/json');
  assert.equal(answer.body?.jsonrpc, '2.0');
  assert.ok(answer.body?.error, answer.text);
  assert.equal(answer.body.error.code, code, answer.text);
  return answer.body.error;
}

/** Deterministic bytes that are neither UTF-8 nor JSON (a linear congruential sequence). */
function noise(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  let state = 12345;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

describe('raw JSON-RPC on /mcp', () => {
  test('tools/list with fetch', async () => {
    const answer = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.equal(answer.status, 200);
    assert.equal(answer.body?.id, 1);
    assert.deepEqual(
      (answer.body!.result as { tools: { name: string }[] }).tools.map((t) => t.name),
      TOOLS.map((t) => t.name),
    );
  });

  test('every JSON-RPC answer, result or error, carries the strong ETag of its own bytes', async () => {
    for (const body of [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), '{', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'nope' })]) {
      const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: JSON_HEADERS, body });
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.headers.get('etag'), `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`, body);
    }
  });

  test('a tools/call result carries its output twice, the same bytes, naming the origin the client used, whatever the input holds', async () => {
    // The output is made as bytes on a tool thread and put in place of placeholders in the SDK's
    // answer (http/mcp.ts): quotes, backslashes, line separators, non-ASCII and text shaped like
    // a placeholder in the input must come back as they went in (verify_batch echoes its claim).
    const call = async (path: string, id: string, name: string, args: Record<string, unknown>) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
      const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: JSON_HEADERS, body });
      const bytes = new Uint8Array(await response.arrayBuffer());
      assert.equal(response.headers.get('content-length'), String(bytes.length));
      const answer = JSON.parse(new TextDecoder().decode(bytes)) as { id: string; result: { content: { text: string }[]; structuredContent: unknown } };
      assert.equal(answer.id, id);
      const [summary, text] = answer.result.content;
      assert.equal(text!.text, JSON.stringify(answer.result.structuredContent), 'the text is the structured output serialised');
      return { summary: summary!.text, text: text!.text, output: answer.result.structuredContent };
    };
    const ua = 'GPTBot/1.2 "quoted" \\ back\u2028slash é 😀 {"00000000-0000-0000-0000-000000000000-json":0} "x-text"';
    const echoed = await call('/netcheck/mcp', 'echo', 'verify_batch', { ua, ip: ['20.171.0.1'] });
    assert.equal((echoed.output as { claim: { input: string } }).claim.input, ua);

    const classified = await call('/mcp', 'origin', 'classify_user_agent', { ua: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' });
    assert.match(classified.summary, /GPTBot/);
    const pages = classified.text.match(/"https?:\/\/[^"]*\/crawler\/gptbot\.html"/g) ?? [];
    assert.ok(pages.length > 0, classified.text.slice(0, 300));
    for (const page of pages) assert.equal(page, `"${server.url}/crawler/gptbot.html"`, "the build's address is rewritten to the one the client used");
  });

  test('a tools/call answer has the layout its tool thread writes it in, so those bytes go out as they are, whatever the id', async () => {
    // http/mcp.ts sends the thread's bytes only when the SDK's answer has this layout, and
    // splices otherwise: an answer equal to the layout shows the SDK wrote it (or the thread did).
    for (const id of [1, 0, -7, 9007199254740991, 'text id', 'a "quoted" \\ é 😀 id']) {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: 'GPTBot/1.2' } } });
      const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: JSON_HEADERS, body });
      const text = await response.text();
      const answer = JSON.parse(text) as { result: { content: { text: string }[]; structuredContent: unknown } };
      const json = JSON.stringify(answer.result.structuredContent);
      const [before, between, after] = toolCallAnswerFrame(answer.result.content[0]!.text, id);
      assert.equal(text, before + JSON.stringify(json) + between + json + after, `id ${JSON.stringify(id)}`);
    }
  });

  test('a body that is not JSON → -32700', async () => {
    for (const body of ['{', '', 'tools/list', '{"jsonrpc":"2.0",']) {
      const error = assertRpcError(await post('/mcp', body), -32700, 400);
      assert.match(error.message, /Parse error/);
    }
  });

  test('invalid UTF-8 and random bytes → -32700, not a 5xx', async () => {
    const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0x6a, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]); // {"j\xc3(":1}
    assert.match(assertRpcError(await post('/mcp', invalidUtf8), -32700, 400).message, /UTF-8/);
    assertRpcError(await post('/mcp', noise(4096)), -32700, 400);
  });

  test('not a JSON-RPC 2.0 request → -32600', async () => {
    for (const body of [
      '{"jsonrpc":"1.0"}',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"method":7}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}',
      '[]',
      '42',
      '"text"',
      'null',
    ]) {
      const answer = await post('/mcp', body);
      assertRpcError(answer, -32600, 400);
      assert.match(answer.body!.error!.message, /Invalid Request/, body);
    }
    // The id is echoed when it is one.
    assert.equal((await post('/mcp', '{"jsonrpc":"2.0","id":9,"method":"ping","extra":true}')).body?.id, 9);
  });

  test('an unknown method → -32601 naming the methods', async () => {
    const answer = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'resources/list' }));
    const error = assertRpcError(answer, -32601, 200);
    assert.equal(answer.body?.id, 'a');
    assert.match(error.message, /tools\/list, tools\/call/);
  });

  test('a method named like a member of every object (constructor, __proto__, toString) → -32601, not a 500', async () => {
    for (const method of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const answer = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method }));
      const error = assertRpcError(answer, -32601, 200);
      assert.match(error.message, new RegExp(`Method not found: "${method}".*tools/list`), method);
    }
  });

  test('invalid params of the request itself → -32602; a bad tool argument → a tool result with isError', async () => {
    const bad = await post(
      '/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: '' } } }),
    );
    assert.equal(bad.status, 200);
    const result = bad.body?.result as { isError: boolean; content: { text: string }[] };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /"ua".*ua is empty/);
    const cases: [unknown, RegExp][] = [
      [{ name: 'classify_user_agent', arguments: 'ua=x' }, /arguments/],
      [{ arguments: {} }, /name/],
      [[1, 2], /not an array/],
    ];
    for (const [params, pattern] of cases) {
      const answer = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }));
      const error = assertRpcError(answer, -32602, 200);
      assert.match(error.message, pattern);
      assert.equal(answer.body?.id, 5);
    }
    assertRpcError(await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'initialize', params: {} })), -32602, 200);
  });

  test('every answer, from the SDK or from this server, is Cache-Control: no-store (docs/API.md §5.4)', async () => {
    const bodies = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'example', arguments: {} } }),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'nope' }),
    ];
    for (const body of bodies) {
      const response = await fetch(`${server.url}/robots/mcp`, { method: 'POST', headers: JSON_HEADERS, body });
      await response.arrayBuffer();
      assert.equal(response.headers.get('cache-control'), 'no-store', body);
    }
    const refused = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: bodies[0]!,
    });
    await refused.arrayBuffer();
    assert.equal(refused.status, 406);
    assert.equal(refused.headers.get('cache-control'), 'no-store');
  });

  test('notifications are accepted without an answer', async () => {
    const answer = await post('/mcp', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    assert.equal(answer.status, 202);
  });

  test('a body over 1 MiB → 413 with the JSON error shape, declared or streamed', async () => {
    const big = new Uint8Array(2 * 1024 * 1024).fill(0x20);
    const declared = await post('/mcp', big);
    assert.equal(declared.status, 413);
    assert.ok(validateError(declared.body), JSON.stringify(validateError.errors));
    assert.equal((declared.body as unknown as { error: { code: string } }).error.code, 'payload_too_large');

    // No Content-Length: the limit is enforced while reading.
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const streamed = await post('/mcp', stream);
    assert.equal(streamed.status, 413);
    assert.ok(validateError(streamed.body));

    // Exactly at the limit is still read (and is then not JSON-RPC).
    const atLimit = new Uint8Array(1024 * 1024).fill(0x20);
    atLimit.set(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
    const answer = await post('/mcp', atLimit);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body?.result, {});
  });

  test("the transport's own header checks still apply (406, 415), and GET is 405 with Allow: POST", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal((await post('/mcp', body, { 'content-type': 'application/json', accept: 'application/json' })).status, 406);
    assert.equal((await post('/mcp', body, { 'content-type': 'text/plain', accept: JSON_HEADERS.accept })).status, 415);
    const get = await fetch(server.url + '/mcp');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    await get.arrayBuffer();
  });

  test('every MCP path answers tools/list with its own tools', async () => {
    for (const spec of MCP_SERVERS) {
      const answer = await post(spec.path, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
      assert.equal(answer.status, 200, spec.path);
      assert.deepEqual(
        (answer.body!.result as { tools: { name: string }[] }).tools.map((t) => t.name),
        [...spec.tools],
      );
    }
  });
});

test('the handler runs its hook once before its first MCP answer, and answers every MCP request after it', async () => {
  // The Node server's hook imports the SDK in parts (pipeline/node/mcp-parts.ts); the handler must await it, once.
  const store = await snapshotStore(join(served.root, 'dist'), { checkEveryMs: 60_000 });
  let hooked = 0;
  let hookDone = false;
  // The hook holds until the test lets it go, long after an answer that did not wait for it would have come.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const app = createApp({
    store,
    site: await readSite(served.root),
    beforeMcpLoad: async () => {
      hooked++;
      await held;
      hookDone = true;
    },
  });
  // Each answer notes whether the hook had finished when it came: none may come before.
  const list = async (id: number) => {
    const answer = await app.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }) }),
    );
    return { status: answer.status, afterHook: hookDone };
  };
  const first = Promise.all([list(1), list(2)]);
  setTimeout(release, 500);
  const answers = await first;
  answers.push(await list(3));
  assert.deepEqual(answers, [
    { status: 200, afterHook: true },
    { status: 200, afterHook: true },
    { status: 200, afterHook: true },
  ]);
  assert.equal(hooked, 1);
  store.close();
});

describe('handleMcp in process', () => {
  const spec = MCP_SERVERS.find((s) => s.path === '/mcp')!;
  const call = (context: Parameters<typeof handleMcp>[2], name: string, args: Record<string, unknown>) =>
    handleMcp(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      }),
      spec,
      context,
    );

  test('a tool that throws answers isError with a text saying so, HTTP 200', async () => {
    // Data broken on purpose: no classifier, so classify_user_agent throws inside the tool.
    const broken = inPlace({ ...data, classifier: undefined as unknown as ToolData['classifier'] });
    const response = await call(broken, 'classify_user_agent', { ua: 'GPTBot/1.0' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { isError: boolean; content: { type: string; text: string }[]; structuredContent?: unknown } };
    assert.equal(body.result.isError, true);
    assert.match(body.result.content[0]!.text, /classify_user_agent failed on this input/);
    assert.equal(body.result.structuredContent, undefined);
  });

  test('with intact data the same call succeeds', async () => {
    const response = await call(inPlace(data), 'classify_user_agent', { ua: 'GPTBot/1.0' });
    const body = (await response.json()) as { result: { isError?: boolean; structuredContent: { matched: boolean } } };
    assert.notEqual(body.result.isError, true);
    assert.equal(body.result.structuredContent.matched, true);
  });
});

describe('the official MCP Inspector CLI', () => {
  const run = promisify(execFile);
  const options = { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 };
  // 0.15 is the Inspector that installs on Node 20 (2.x needs Node 22); its CLI sends a URL whose path does not end in /mcp to /mcp.
  const build = join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build');
  // `mcp-inspector --cli` (the command users type) starts a process that starts the CLI, its
  // build/index.js, with the same arguments, and does nothing else. One call goes through that
  // command, the one whose arguments the command line shapes most (several --tool-arg, a JSON
  // array in one). The others run what the CLI runs for them, from its own modules, in this
  // process: a CLI process costs about two seconds of CPU, and each one only started Node again.
  const inspectorCommand = (url: string, ...args: string[]) =>
    run(join(REPO, 'node_modules', '.bin', 'mcp-inspector'), ['--cli', url, '--transport', 'http', ...args], options);
  /** The CLI's own client functions, connected to `path` as its transport for that URL connects them. */
  async function inspectorClient(path: string): Promise<{ client: Client; cli: InspectorClient; close(): Promise<void> }> {
    const cli = (await import(pathToFileURL(join(build, 'client', 'index.js')).href)) as InspectorClient;
    const { createTransport } = (await import(pathToFileURL(join(build, 'transport.js')).href)) as InspectorTransport;
    const transport = createTransport({ transportType: 'http', url: server.url + path });
    const client = new Client({ name: 'inspector-cli', version: '0.5.1' });
    await cli.connect(client, transport);
    return { client, cli, close: () => cli.disconnect(transport) };
  }

  test('the command calls a tool with --tool-arg pairs, a JSON array in one read as the list, and prints the structured result', async () => {
    // The CLI sends a --tool-arg as a string unless the schema's type is plainly "array": a JSON array in it is read as the list.
    const paths = await inspectorCommand(
      `${server.url}/lint/mcp`,
      '--method',
      'tools/call',
      '--tool-name',
      'check_path_allowed',
      '--tool-arg',
      'robots_txt=User-agent: *\nDisallow: /a',
      '--tool-arg',
      'ua=GPTBot',
      '--tool-arg',
      'path=["/a","/b"]',
    );
    const verdicts = (JSON.parse(paths.stdout) as { structuredContent: { results: { path: string; allowed: boolean }[] } }).structuredContent.results;
    assert.deepEqual(
      verdicts.map((v) => [v.path, v.allowed]),
      [
        ['/a', false],
        ['/b', true],
      ],
    );
  });

  test('reaches every server at its own path and lists that server’s tools', async () => {
    // What the CLI runs for --transport http --method tools/list: its transport for the URL
    // (where a path that does not end in /mcp would become /mcp), its client's connect and listTools.
    for (const spec of MCP_SERVERS) {
      const { client, cli, close } = await inspectorClient(spec.path);
      try {
        assert.deepEqual(
          (await cli.listTools(client)).tools.map((t) => t.name),
          [...spec.tools],
          spec.path,
        );
      } finally {
        await close();
      }
    }
  });

  test('calls a tool and gets the summary, the JSON and the structured result; a bad argument comes back as isError', async () => {
    // What the CLI runs for --method tools/call --tool-name <name> --tool-arg <key>=<value>: its
    // callTool with the pairs as strings, which it converts by the tool's input schema.
    const robots = await inspectorClient('/robots/mcp');
    try {
      const result = (await robots.cli.callTool(robots.client, 'lint_robots_txt', { robots_txt: 'Disalow: /' })) as {
        content: { text: string }[];
        structuredContent: { counts: { error: number; warning: number } };
      };
      assert.equal(result.content.length, 2);
      assert.deepEqual(JSON.parse(result.content[1]!.text), result.structuredContent);
      assert.ok(result.structuredContent.counts.error + result.structuredContent.counts.warning > 0, 'the misspelt directive is reported');
    } finally {
      await robots.close();
    }
    const all = await inspectorClient('/mcp');
    try {
      const bad = (await all.cli.callTool(all.client, 'policy_markdown', { policy: 'nope' })) as { isError: boolean };
      assert.equal(bad.isError, true);
    } finally {
      await all.close();
    }
  });
});
