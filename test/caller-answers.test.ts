import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { executeTool, type ToolJob, type ToolRun } from '../pipeline/tools/registry/call.ts';
import type { VisitorLookup } from '../pipeline/log/types.ts';
import { etagOfWeb } from '../pipeline/util/etag-rule.ts';
import { TOOLS } from '../pipeline/tools/registry/index.ts';
import { raw } from './support/http.ts';
import { serveMini, type ServedMini } from './support/served.ts';

// An answer that describes its caller (whoami) belongs to that caller: no other caller's
// validators may turn it into a 304 (docs/API.md §5.2, §5.4). Two real client addresses on
// loopback, 127.0.0.2 and 127.0.0.3, stand for two callers.

let served: ServedMini;
before(async () => {
  // Calls run in place; test/tool-threads.test.ts calls every tool on a thread.
  served = await serveMini({ tools: { threads: 0 } });
});
after(() => served.dispose());

const whoami = (from: string, headers: Record<string, string> = {}) => raw(served.server.url, '/tools/whoami', { localAddress: from, headers });
const addressIn = (text: string) => (JSON.parse(text) as { address: string }).address;

describe("whoami's answer is validated for its own caller only", () => {
  test("a second caller sending the first caller's If-None-Match or If-Modified-Since gets a 200 with its own address", async () => {
    const first = await whoami('127.0.0.2');
    assert.equal(first.status, 200);
    assert.equal(addressIn(first.text), '127.0.0.2');
    // What a cache of the first caller holds: its ETag, and a date at or after any Last-Modified.
    const theirs = {
      'if-none-match': first.headers['etag'] ?? '"none"',
      'if-modified-since': first.headers['last-modified'] ?? new Date().toUTCString(),
    };
    for (const [name, value] of [...Object.entries(theirs), ['both', '']] as const) {
      const headers = name === 'both' ? theirs : { [name]: value };
      const second = await whoami('127.0.0.3', headers);
      assert.equal(second.status, 200, `${name}: the second caller gets its own answer, not a 304`);
      assert.equal(addressIn(second.text), '127.0.0.3', name);
    }
  });

  test('the answer is private and undated: an ETag over bytes that name the caller, no Last-Modified', async () => {
    const answer = await whoami('127.0.0.2');
    assert.equal(answer.headers['cache-control'], 'private, no-cache');
    assert.equal(answer.headers['last-modified'], undefined);
    assert.match(answer.headers['etag'] ?? '', /^"[0-9a-f]{32}"$/);
    const other = await whoami('127.0.0.3');
    assert.notEqual(other.headers['etag'], answer.headers['etag'], 'two callers, two tags');
  });

  test("the caller's own ETag still saves the body (the mini server keeps no request log, so its answer is stable)", async () => {
    const first = await whoami('127.0.0.2');
    const again = await whoami('127.0.0.2', { 'if-none-match': first.headers['etag']! });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  test('a tool that answers from the published data alone keeps its Last-Modified and its 304', async () => {
    const first = await raw(served.server.url, '/tools/example', { localAddress: '127.0.0.2' });
    assert.ok(first.headers['last-modified']);
    assert.equal(first.headers['cache-control'], 'no-cache');
    const second = await raw(served.server.url, '/tools/example', {
      localAddress: '127.0.0.3',
      headers: { 'if-modified-since': first.headers['last-modified']! },
    });
    assert.equal(second.status, 304);
  });
});

/**
 * A run with the time of the check (verify_signature's checked_at, to the second) taken out: the
 * one part of an answer that depends on when it was made, so two calls may straddle a second.
 */
/** A run with the time of the check blanked out; the ETag, taken over bytes that hold that time, is checked to be theirs instead. */
async function withoutClock(run: ToolRun): Promise<unknown> {
  if (!('bytes' in run)) return run;
  const { etag, ...rest } = run as Extract<ToolRun, { form: 'json' }>;
  assert.equal(etag, await etagOfWeb(run.bytes), 'the ETag is taken over the bytes of the answer');
  return { ...rest, bytes: new TextDecoder().decode(run.bytes).replace(/"checked_at": "[^"]*"/g, '"checked_at": "…"') };
}

describe('only a tool that answers for its caller is told who calls', () => {
  test('whoami is the one such tool, and every tool that reads the request log is one', () => {
    assert.deepEqual(
      TOOLS.filter((tool) => tool.answersForCaller).map((tool) => tool.name),
      ['whoami'],
    );
    for (const tool of TOOLS) if (tool.readsCallerHistory) assert.equal(tool.answersForCaller, true, tool.name);
  });

  test("every other tool's examples answer the same bytes to two different callers", async () => {
    const callers = [
      {
        userAgent: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        address: '20.171.206.1',
        signatureHeaders: { signature: 'sig1=:AA==:', signatureInput: 'sig1=()', signatureAgent: '"https://chatgpt.com"' },
      },
      { userAgent: null, address: '2001:db8::1' },
    ] as const;
    for (const tool of TOOLS.filter((t) => !t.answersForCaller)) {
      for (const example of tool.examples) {
        const job = (caller: ToolJob['caller']): ToolJob => ({ tool: tool.name, params: example.input, caller, form: 'json' });
        const [one, two] = [await executeTool(job(callers[0]), served.data), await executeTool(job(callers[1]), served.data)];
        assert.deepEqual(await withoutClock(one), await withoutClock(two), `${tool.name}: ${example.description}`);
      }
    }
  });

  test('whoami, told the caller, answers for it', async () => {
    const run = await executeTool({ tool: 'whoami', params: {}, caller: { userAgent: 'x', address: '192.0.2.7' }, form: 'json' }, served.data);
    assert.equal(run.status, 'answered');
    assert.equal(addressIn(new TextDecoder().decode((run as { bytes: Uint8Array }).bytes)), '192.0.2.7');
  });

  test("whoami's seen_before: counted, not seen, and not counted by a log that met more addresses today than it counts", async () => {
    const seenBefore = async (visitor: VisitorLookup) => {
      const caller = { userAgent: 'x', address: '192.0.2.7', history: { log: 'ok' as const, reason: null, visitor } };
      const run = await executeTool({ tool: 'whoami', params: {}, caller, form: 'structured' }, served.data);
      assert.equal(run.status, 'answered');
      return (run as { output: { seen_before: unknown } }).output.seen_before;
    };
    const at = Date.UTC(2026, 10, 29, 8);
    assert.deepEqual(await seenBefore({ counted: true, visitor: { requests: 3, first_seen: at, last_seen: at + 1000, crawler: null, verdict: null } }), {
      known: true,
      seen: true,
      requests: 3,
      first_seen: '2026-11-29T08:00:00.000Z',
      last_seen: '2026-11-29T08:00:01.000Z',
      note: 'Counted today only: the log keeps addresses as hashes under a salt that changes every UTC day and at every restart.',
    });
    assert.equal(((await seenBefore({ counted: true, visitor: null })) as { seen: boolean }).seen, false);
    const reason = 'More than 100,000 addresses have reached this server today; the log counts the first 100,000, and this one is not among them.';
    assert.deepEqual(await seenBefore({ counted: false, reason }), { known: false, reason });
  });
});
