import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { notAnswered } from './mcp-answer.ts';

// An MCP POST that no tool thread answered (busy, past its deadline, a thread that ended) is
// answered where it was read: a JSON-RPC error carrying the request's id and naming its tool,
// so that the client can match it to its call, with HTTP 200 as the SDK answers errors.

const encode = (text: string) => new TextEncoder().encode(text);
const call = (id: unknown, name: string) => encode(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }));

async function rpcOf(response: Response) {
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.equal(response.headers.get('cache-control'), 'no-store');
  return (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string; data?: Record<string, unknown> } };
}

test('busy or past the deadline: -32000 with the reason and when to try again, naming the tool', async () => {
  const rpc = await rpcOf(
    notAnswered(call(7, 'verify_batch'), {
      status: 'unavailable',
      reason: 'deadline',
      message: 'The call ran past its deadline of 5000 ms.',
      retryAfterSeconds: 1,
    }),
  );
  assert.deepEqual(rpc, {
    jsonrpc: '2.0',
    id: 7,
    error: { code: -32000, message: 'verify_batch: The call ran past its deadline of 5000 ms.', data: { reason: 'deadline', retry_after_seconds: 1 } },
  });
});

test('a thread that ended: -32603; a body it could not be handed: -32602 naming the field and the accepted form', async () => {
  const failed = await rpcOf(notAnswered(call('a', 'lint_robots_txt'), { status: 'failed', message: 'the thread running this call ended', detail: 'x' }));
  assert.deepEqual(failed.error, { code: -32603, message: 'lint_robots_txt: the thread running this call ended' });
  assert.equal(failed.id, 'a');
  const refused = await rpcOf(
    notAnswered(call(1, 'whoami'), { status: 'refused', field: 'arguments', message: 'cannot be handed over.', accepted: 'strings' }),
  );
  assert.deepEqual(refused.error, {
    code: -32602,
    message: 'whoami: cannot be handed over. Accepted: strings.',
    data: { field: 'arguments', accepted: 'strings' },
  });
});

test('a body that is not a call: the error names no tool, and its id is null unless the body carries one a response may echo', async () => {
  const busy = { status: 'unavailable', reason: 'busy', message: 'Busy.', retryAfterSeconds: 1 } as const;
  for (const [body, id] of [
    [encode('{'), null],
    [encode('[1,2]'), null],
    [encode(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })), 3],
    [encode(JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: { name: 42 } })), null],
  ] as const) {
    const rpc = await rpcOf(notAnswered(body, busy));
    assert.equal(rpc.id, id, new TextDecoder().decode(body));
    assert.equal(rpc.error.message, 'Busy.');
  }
});
