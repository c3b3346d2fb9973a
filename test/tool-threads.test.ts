import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { toolPool } from '../pipeline/node/tool-pool.ts';
import { snapshotStore } from '../pipeline/node/dist-snapshot.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { MAX_JSON_DEPTH } from '../pipeline/http/jsonrpc.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { serveTree } from './support/served.ts';
import { builtMini } from './support/built-mini.ts';
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { build } from '../pipeline/publish/build.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { readSite } from '../pipeline/node/site-settings.ts';
import { handleA2a } from '../pipeline/http/a2a/endpoint.ts';
import { handleMcp } from '../pipeline/http/mcp.ts';
import { relocate } from '../pipeline/util/relocate.ts';
import { executeTool } from '../pipeline/tools/registry/call.ts';
import { executeMessage } from '../pipeline/tools/registry/message-call.ts';
import { MCP_SERVERS, TOOLS, type ToolData } from '../pipeline/tools/registry/index.ts';
import { inPlace, publishedToolData } from './support/tool-data.ts';
import { tempProject } from './support/project.ts';

// docs/API.md §8.1: tool calls run on worker threads with a per-call deadline, so no call holds
// the event loop that answers documents. Order of answers and statuses are asserted, never times.

const validateError = validatorFor('outputs/error.schema.json');
const JSON_HEADERS = JSON_RPC_HEADERS;

interface McpAnswer {
  result: { isError?: boolean; structuredContent: unknown };
}
interface A2aAnswer {
  result: { parts: { kind: string; data?: unknown }[] };
}

/** A robots.txt that keeps the linter busy for tens of milliseconds: unknown directives up to the body limit. */
function slowLintBody(): string {
  return Array.from({ length: 40_000 }, (_, n) => `key${n}: x`).join('\n') + '\n';
}

function lintCall(origin: string) {
  return raw(origin, '/tools/robots-lint', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: slowLintBody() });
}

/** One copy of the mini build, which each describe below serves with the threads it tests. */
let mini: Awaited<ReturnType<typeof builtMini>>;
before(async () => {
  mini = await builtMini();
});
after(() => mini.dispose());

describe('tool calls on threads', () => {
  // One general thread and the small calls' thread, the pool a 2-core machine has by default
  // (the server of "a large valid prefix list" below runs with the default count).
  let served: { root: string; server: RunningServer; data: ToolData };
  before(async () => {
    served = { root: mini.root, server: await serveTree(mini.root, { tools: { threads: 1 } }), data: await publishedToolData(mini.root) };
  });
  after(() => served.server.close());

  /** An answer given in place, with the build's addresses named by this server's origin, as the server's own answers name them. */
  const asServed = async <T>(response: Response): Promise<T> => JSON.parse(relocate(await response.text(), served.data.baseUrl, served.server.url)) as T;

  test('a document asked for while a long tool call runs is answered first', async () => {
    const origin = served.server.url;
    await lintCall(origin); // the thread is started and warm
    const order: string[] = [];
    const tool = lintCall(origin).then((r) => {
      order.push('tool');
      return r;
    });
    const document = raw(origin, '/data/agents.json').then((r) => {
      order.push('document');
      return r;
    });
    const [toolAnswer, documentAnswer] = await Promise.all([tool, document]);
    assert.equal(toolAnswer.status, 200);
    assert.equal(documentAnswer.status, 200);
    assert.deepEqual(order, ['document', 'tool']);
  });

  test('answers from threads are the same as in place: every tool path answers 200 JSON', async () => {
    const origin = served.server.url;
    const classify = await raw(origin, '/tools/classify-ua?ua=GPTBot%2F1.2');
    assert.equal(classify.status, 200);
    assert.equal((JSON.parse(classify.text) as { matched: boolean }).matched, true);
    const verify = await raw(origin, '/tools/verify-crawler?ip=192.0.2.1');
    assert.equal(verify.status, 200);
    assert.match(verify.headers['etag'] ?? '', /^"[0-9a-f]{32}"$/);
  });

  test('A2A message/send answered from a thread carries the data part a call in place gives', async () => {
    const message = {
      role: 'user',
      messageId: 'm1',
      kind: 'message',
      parts: [{ kind: 'data', data: { skill: 'classify_user_agent', input: { ua: 'GPTBot/1.2' } } }],
    };
    const a2aBody = JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'message/send', params: { message } });
    const a2aRequest = () => new Request(`${served.server.url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: a2aBody });
    const dataPart = (answer: A2aAnswer) => answer.result.parts.find((part) => part.kind === 'data')?.data;
    const threadedA2a = JSON.parse(
      (await raw(served.server.url, '/a2a', { method: 'POST', headers: { 'content-type': 'application/json' }, body: a2aBody })).text,
    ) as A2aAnswer;
    const inPlaceA2a = await asServed<A2aAnswer>(await handleA2a(a2aRequest(), inPlace(served.data), await readSite(served.root)));
    assert.equal((dataPart(threadedA2a) as { tool: string }).tool, 'classify_user_agent', JSON.stringify(threadedA2a));
    assert.deepEqual(dataPart(threadedA2a), dataPart(inPlaceA2a));
  });

  test('A2A messages in words are read on a thread: each gets the answer a message read in place gets', async () => {
    // Words are matched against the index (tools/intents.ts), which only the tool threads hold.
    const texts = [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      'Is 66.249.66.1 really Googlebot?',
      'User-agent: GPTBot\nDisallow: /private/\n\nCan GPTBot fetch /private/x?',
      'what is GPTBot?',
      'hello there',
    ];
    for (const text of texts) {
      const message = { role: 'user', messageId: 'm2', kind: 'message', parts: [{ kind: 'text', text }] };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'w', method: 'message/send', params: { message } });
      const threaded = JSON.parse((await raw(served.server.url, '/a2a', { method: 'POST', headers: JSON_HEADERS, body })).text) as A2aAnswer;
      const request = new Request(`${served.server.url}/a2a`, { method: 'POST', headers: JSON_HEADERS, body });
      const here = await asServed<A2aAnswer>(await handleA2a(request, inPlace(served.data), await readSite(served.root)));
      assert.ok(threaded.result !== undefined, `${JSON.stringify(text)}: ${JSON.stringify(threaded)}`);
      assert.deepEqual(threaded.result.parts, here.result.parts, JSON.stringify(text));
    }
  });

  test("every tool's first example answers from a thread as in place: its structured output over MCP, 200 JSON over HTTP", async () => {
    // The other files call the tools in place; this is where each one crosses to a thread and back.
    const spec = MCP_SERVERS.find((s) => s.path === '/mcp')!;
    for (const tool of TOOLS) {
      const input = tool.examples[0]!.input;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: input } });
      const threaded = JSON.parse((await raw(served.server.url, '/mcp', { method: 'POST', headers: JSON_HEADERS, body })).text) as McpAnswer;
      assert.notEqual(threaded.result.isError, true, `${tool.name}: ${JSON.stringify(threaded).slice(0, 300)}`);
      // A tool that answers for its caller, or says when it checked, answers each call its own way.
      if (!tool.answersForCaller && tool.name !== 'verify_signature') {
        const request = new Request(`${served.server.url}/mcp`, { method: 'POST', headers: JSON_HEADERS, body });
        assert.deepEqual(
          threaded.result.structuredContent,
          (await asServed<McpAnswer>(await handleMcp(request, spec, inPlace(served.data)))).result.structuredContent,
          tool.name,
        );
      }
      if (tool.path === null) continue;
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(input)) for (const v of Array.isArray(value) ? value : [value ?? '']) params.append(name, v);
      const answer = await raw(served.server.url, `/tools/${tool.path}?${params.toString() || 's=test'}`);
      assert.equal(answer.status, 200, `${tool.name}: ${answer.text.slice(0, 300)}`);
      assert.doesNotThrow(() => JSON.parse(answer.text), tool.name);
    }
  });

  test(`ten parallel MCP calls with an argument nested 20,000 deep → each -32700 naming the limit of ${MAX_JSON_DEPTH} levels, and the tool threads go on`, async () => {
    // These once ended the process: the copy of the argument to a tool thread overflowed the stack.
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"classify_user_agent","arguments":{"ua":${deep}}}}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => raw(served.server.url, '/mcp', { method: 'POST', headers: JSON_HEADERS, body })));
    for (const answer of answers) {
      assert.equal(answer.status, 400, answer.text.slice(0, 300));
      const rpc = JSON.parse(answer.text) as { error?: { code: number; message: string } };
      assert.equal(rpc.error?.code, -32700);
      assert.match(rpc.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`));
    }
    assert.equal((await raw(served.server.url, '/tools/classify-ua?ua=GPTBot%2F1.2')).status, 200, 'the tool threads still answer');
  });

  test('large answers sent one after another, each written into memory an earlier one gave back, arrive whole over HTTP and MCP', async () => {
    const origin = served.server.url;
    const spec = MCP_SERVERS.find((s) => s.path === '/netcheck/mcp')!;
    const relocation = { from: served.data.baseUrl, to: origin };
    // Each smaller than the one before, so that the buffer given back holds the next.
    for (const count of [480, 420, 360, 300]) {
      const addresses = Array.from({ length: count }, (_, n) => `8.8.${n >> 8}.${n & 255}`);
      const get = await raw(origin, `/tools/verify-crawler?ip=${addresses.join(',')}&ua=GPTBot`);
      const call = { tool: 'verify_batch', params: { ip: addresses.join(','), ua: 'GPTBot' }, caller: { userAgent: null, address: null } };
      const here = await executeTool({ ...call, source: 'query', form: 'json', relocation }, served.data);
      assert.ok(here.status === 'answered' && here.form === 'json');
      assert.ok(get.text.length > 64 * 1024, `${get.text.length} bytes`);
      assert.equal(get.text, new TextDecoder().decode(here.bytes), `GET of ${count} addresses`);
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: count,
        method: 'tools/call',
        params: { name: 'verify_batch', arguments: { ip: addresses, ua: 'GPTBot' } },
      });
      const threaded = JSON.parse((await raw(origin, spec.path, { method: 'POST', headers: JSON_HEADERS, body })).text) as McpAnswer & {
        result: { content: { text: string }[] };
      };
      const request = new Request(`${origin}${spec.path}`, { method: 'POST', headers: JSON_HEADERS, body });
      const inPlaceAnswer = await asServed<McpAnswer>(await handleMcp(request, spec, inPlace(served.data)));
      assert.deepEqual(threaded.result.structuredContent, inPlaceAnswer.result.structuredContent, `MCP of ${count} addresses`);
      assert.deepEqual(JSON.parse(threaded.result.content[1]!.text), inPlaceAnswer.result.structuredContent);
    }
  });

  describe('lanes: a small call never waits behind large ones', () => {
    // One general thread, so every large call but one waits; the small call has the light thread.
    test('a classify call sent after ten large lint calls is answered before the large calls queued ahead of it', async () => {
      const origin = served.server.url;
      // Both threads are up and hold the data.
      await Promise.all([lintCall(origin), raw(origin, '/tools/classify-ua?ua=GPTBot%2F1.2')]);
      const order: string[] = [];
      const heavy = Array.from({ length: 10 }, (_, n) =>
        lintCall(origin).then((answer) => {
          order.push(`lint ${n}`);
          return answer.status;
        }),
      );
      const classify = raw(origin, '/tools/classify-ua?ua=GPTBot%2F1.2').then((answer) => {
        order.push('classify');
        return answer.status;
      });
      assert.deepEqual(
        await Promise.all([...heavy, classify]),
        Array.from({ length: 11 }, () => 200),
      );
      // One lint call runs at a time: the classify answer comes before most of them (in one
      // queue it came after every lint call that reached the server before it).
      assert.ok(order.indexOf('classify') <= 3, order.join(', '));
    });
  });
});

describe('a call past its deadline', () => {
  let server: RunningServer;
  before(async () => {
    // Every call here is large: one general thread and no small calls' thread, which would start and idle.
    server = await serveTree(mini.root, { tools: { threads: 1, lightThreads: 0, deadlineMs: 1 } });
  });
  after(() => server.close());

  test('HTTP: 503 tool_deadline with Retry-After, and the server goes on', async () => {
    const origin = server.url;
    const answer = await lintCall(origin);
    assert.equal(answer.status, 503, answer.text.slice(0, 300));
    assert.equal(answer.headers['retry-after'], '1');
    const body = JSON.parse(answer.text) as { error: { code: string; message: string } };
    assert.ok(validateError(body));
    assert.equal(body.error.code, 'tool_deadline');
    assert.match(body.error.message, /deadline of 1 ms/);
    assert.equal((await raw(origin, '/data/agents.json')).status, 200);
    // A new thread replaces the one that was ended.
    const again = await lintCall(origin);
    assert.equal(again.status, 503);
  });

  test('MCP: JSON-RPC error -32000 naming the deadline', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'lint_robots_txt', arguments: { robots_txt: slowLintBody() } },
    });
    const answer = await raw(server.url, '/mcp/robots', { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2025-06-18' }, body });
    const rpc = JSON.parse(answer.text) as { id: number; error: { code: number; message: string; data: { reason: string } } };
    assert.equal(rpc.id, 7);
    assert.equal(rpc.error.code, -32000);
    assert.equal(rpc.error.data.reason, 'deadline');
    assert.match(rpc.error.message, /lint_robots_txt: The call ran past its deadline/);
  });

  test('A2A: JSON-RPC error -32000 naming the deadline', async () => {
    const message = {
      role: 'user',
      messageId: 'm1',
      kind: 'message',
      parts: [{ kind: 'data', data: { skill: 'lint_robots_txt', input: { robots_txt: slowLintBody() } } }],
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'message/send', params: { message } });
    const answer = await raw(server.url, '/a2a', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const rpc = JSON.parse(answer.text) as { error: { code: number; data: { reason: string } } };
    assert.equal(rpc.error.code, -32000, answer.text.slice(0, 300));
    assert.equal(rpc.error.data.reason, 'deadline');
  });

  test('A2A: a message in words read past the deadline is the same error, naming the message (its thread was ended before it named a tool)', async () => {
    const message = { role: 'user', messageId: 'm2', kind: 'message', parts: [{ kind: 'text', text: `User-agent: GPTBot\nDisallow: /x\n${slowLintBody()}` }] };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'w', method: 'message/send', params: { message } });
    const answer = await raw(server.url, '/a2a', { method: 'POST', headers: JSON_HEADERS, body });
    const rpc = JSON.parse(answer.text) as { id: string; error: { code: number; message: string; data: { reason: string; tool: null } } };
    assert.equal(rpc.id, 'w');
    assert.equal(rpc.error.code, -32000, answer.text.slice(0, 300));
    assert.equal(rpc.error.data.reason, 'deadline');
    assert.equal(rpc.error.data.tool, null);
    assert.match(rpc.error.message, /^The message: The call ran past its deadline of 1 ms/);
    assert.equal((await raw(server.url, '/data/agents.json')).status, 200);
  });
});

describe('the pool itself', () => {
  let server: RunningServer;
  before(async () => {
    server = await serveTree(mini.root, { tools: { threads: 0 } });
  });
  after(() => server.close());

  const job = { tool: 'classify_user_agent', params: { ua: 'GPTBot/1.2' }, caller: { userAgent: null, address: null }, form: 'structured' as const };
  const large = { tool: 'lint_robots_txt', params: { robots_txt: slowLintBody() }, caller: job.caller, form: 'structured' as const };

  describe('one thread in all, its queues bounded at one small call and two large ones', () => {
    // One pool for the tests below, in order: each thread loads the tools' modules, about a
    // second of CPU. One thread in all: it takes the small calls when no large one waits (a small
    // calls' thread would only start and idle), so a small call waits in its own queue, which the
    // large calls do not fill.
    let pool: ReturnType<typeof toolPool>;
    let data: ToolData;
    before(async () => {
      const store = await snapshotStore(join(mini.root, 'dist'), { compress: false });
      pool = toolPool(store, { threads: 1, lightThreads: 0, maxQueued: 1, maxQueuedHeavy: 2 });
      data = await publishedToolData(mini.root);
    });
    after(() => pool.close());

    test('a full queue answers busy at once; the calls already queued are run', async () => {
      // The thread takes far longer to start than these three take to arrive: the first waits, the others find the queue full.
      const runs = await Promise.all([pool.run(job), pool.run(job), pool.run(job)]);
      assert.deepEqual(
        runs.map((r) => r.status),
        ['answered', 'unavailable', 'unavailable'],
      );
      const busy = runs[1]!;
      assert.ok(busy.status === 'unavailable' && busy.reason === 'busy' && /1 request is already waiting for the tool threads/.test(busy.message));
      assert.equal((await pool.run(job)).status, 'answered');
    });

    test('a message waits in the lane its text size gives, and a full queue answers it busy, as a call', async () => {
      const words = { texts: ['Is 66.249.66.1 really Googlebot?'], caller: job.caller };
      // The first takes the free thread, the second waits in the queue of one, the third finds it full.
      const [routed, queued, busy] = await Promise.all([pool.route(words), pool.route(words), pool.route(words)]);
      assert.ok(routed.routed === 'tool' && routed.tool === 'verify_batch' && routed.run.status === 'answered', JSON.stringify(routed));
      assert.deepEqual(queued, routed);
      assert.ok(busy.routed === 'not-run' && busy.run.status === 'unavailable' && busy.run.reason === 'busy', JSON.stringify(busy));
      // Calls and messages share the lane, so the count names neither.
      assert.match(busy.run.message, /^1 request is already waiting for the tool threads; try again in a second\.$/);
      assert.deepEqual(
        await pool.route({ texts: ['hello there'], caller: job.caller }),
        await executeMessage({ texts: ['hello there'], caller: job.caller }, data),
      );
    });

    test('large calls wait in a queue of their own, bounded apart from the small calls', async () => {
      // A large call that arrives first takes the thread, which answers it no sooner than the
      // next turn of the event loop, long after these arrive: two large calls wait, three more
      // find their queue full, and the small call waits in its own.
      const [first, ...runs] = await Promise.all([pool.run(large), ...Array.from({ length: 5 }, () => pool.run(large)), pool.run(job)]);
      assert.equal(first!.status, 'answered');
      assert.deepEqual(
        runs.map((r) => r.status),
        ['answered', 'answered', 'unavailable', 'unavailable', 'unavailable', 'answered'],
      );
      const busy = runs[2]!;
      assert.ok(
        busy.status === 'unavailable' && /2 large requests are already waiting for the tool threads \(over 16384 characters of input/.test(busy.message),
        JSON.stringify(busy),
      );
    });

    test('an input no thread can be handed (nested 50,000 deep) is refused, and the thread goes on to the next call', async () => {
      let deep: unknown = [];
      for (let level = 0; level < 50_000; level++) deep = [deep];
      const uncopyable = { ...job, params: { ua: deep } };
      // A large call takes the thread first, so that the three below wait for it: the deep ones
      // are then handed over from the thread's 'message' listener, where a throw used to end the
      // process. The one thread runs the call after the refusals.
      const [first, ...runs] = await Promise.all([pool.run(large), pool.run(uncopyable), pool.run(job), pool.run(uncopyable)]);
      assert.equal(first!.status, 'answered');
      assert.deepEqual(
        runs.map((r) => r.status),
        ['refused', 'answered', 'refused'],
      );
      const refused = runs[0]!;
      assert.ok(refused.status === 'refused' && /cannot be handed to a tool thread/.test(refused.message), JSON.stringify(refused));
      assert.equal((await pool.run(job)).status, 'answered', 'the thread was not left waiting for a deadline');
    });

    test('a call after close is refused, not left waiting', async () => {
      await pool.close();
      const run = await pool.run(job);
      assert.equal(run.status, 'unavailable');
    });
  });

  test('answers written into buffers given back are the bytes a call in place gives, and a buffer given back leaves this thread', async () => {
    const store = await snapshotStore(join(mini.root, 'dist'), { compress: false });
    const pool = toolPool(store, { threads: 1, lightThreads: 0 });
    const data = await publishedToolData(mini.root);
    try {
      let reused = 0;
      // Each answer a little smaller than the one before, so that the buffer given back holds it.
      for (let count = 480; count >= 300; count -= 20) {
        const ip = Array.from({ length: count }, (_, n) => `8.8.${n >> 8}.${n & 255}`).join(',');
        const call = { tool: 'verify_batch', params: { ip, ua: 'GPTBot' }, caller: job.caller, source: 'query' as const, form: 'json' as const };
        const [threaded, here] = await Promise.all([pool.run(call), executeTool(call, data)]);
        assert.ok(threaded.status === 'answered' && threaded.form === 'json' && here.status === 'answered' && here.form === 'json');
        assert.ok(threaded.bytes.byteLength > 64 * 1024, `${threaded.bytes.byteLength} bytes`);
        assert.deepEqual(Buffer.from(threaded.bytes), Buffer.from(here.bytes));
        assert.equal(threaded.etag, here.etag);
        if (threaded.bytes.buffer.byteLength > threaded.bytes.byteLength) reused++;
        pool.release([threaded.bytes]);
        assert.equal(threaded.bytes.byteLength, 0, 'given back: detached on this thread');
      }
      assert.ok(reused >= 5, `${reused} of 10 answers were written into a buffer given back`);
    } finally {
      await pool.close();
      store.close();
    }
  });

  test('threads: 0 runs calls in place, with the same answers', async () => {
    const answer = await raw(server.url, '/tools/classify-ua?ua=GPTBot%2F1.2');
    assert.equal(answer.status, 200);
  });
});

describe("a large valid prefix list: the tools' data is built outside every call's deadline", () => {
  // 120,000 /32s: indexing them takes a few hundred milliseconds on a tool thread here, more
  // than the 300 ms deadline this server is given (a real list holds about a thousand; the
  // 500,000-prefix run is in test/large-list.test.ts and the bench).
  const COUNT = 120_000;
  const SOURCE = 'openai-gptbot';
  let project: Awaited<ReturnType<typeof tempProject>>;
  let server: RunningServer;

  /** Writes COUNT + extra prefixes as the last good copy of GPTBot's list and builds dist/. */
  async function publish(extra: number, now: string): Promise<void> {
    const file = join(project.root, 'state', 'mirror', `${SOURCE}.json`);
    const entry = JSON.parse(await readFile(file, 'utf8')) as { ipv4: string[] };
    entry.ipv4 = Array.from({ length: COUNT + extra }, (_, i) => `34.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32`);
    await writeFile(file, JSON.stringify(entry));
    await build({ root: project.root, now });
  }

  before(async () => {
    project = await tempProject('mini');
    await publish(0, '2026-01-01T00:00:00Z');
    server = await serveTree(project.root, { tools: { deadlineMs: 300 } });
  });
  after(async () => {
    await server.close();
    await project.dispose();
  });

  const ALL_ANSWERED = Array.from({ length: 8 }, (_, n) => (n % 2 === 0 ? '200 answered' : '200 genuine'));

  /** Classify and verify calls sent together; each answer's status, code and verdict. */
  async function burst(address: string): Promise<string[]> {
    const calls = Array.from({ length: 8 }, (_, n) =>
      n % 2 === 0 ? raw(server.url, '/tools/classify-ua?ua=GPTBot%2F1.2') : raw(server.url, `/tools/verify-crawler?ip=${address}&ua=GPTBot`),
    );
    return (await Promise.all(calls)).map((answer) => {
      const body = JSON.parse(answer.text) as { error?: { code: string }; results?: { verdict: string }[] };
      return `${answer.status} ${body.error?.code ?? body.results?.[0]?.verdict ?? 'answered'}`;
    });
  }

  test('calls sent the moment the server listens wait for the data and are answered, none with tool_deadline', async () => {
    const answers = await burst('34.1.212.191');
    assert.deepEqual(answers, ALL_ANSWERED);
  });

  test('after a new build is swapped in, its data is already built on every thread', async () => {
    // One more prefix: 34.1.212.192 is in the new build only.
    await publish(1, '2026-01-02T00:00:00Z');
    await server.refresh();
    const answers = await burst('34.1.212.192');
    assert.deepEqual(answers, ALL_ANSWERED);
  });
});
