import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { envelopeProblem } from './jsonrpc.ts';

// A response a client sends to the server is judged as the MCP SDK's own schema judges it: the
// server checks it without loading the SDK, so the two are compared here on every form.
const responses: unknown[] = [
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 'a', result: { _meta: {}, anything: [1] } },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: null },
  { jsonrpc: '2.0', id: 1, result: 'text' },
  { jsonrpc: '2.0', id: 1, result: {}, extra: true },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } },
  { jsonrpc: '2.0', error: { code: -32600, message: 'bad', data: { why: 1 } } },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad', other: 1 } },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'bad' } },
  { jsonrpc: '2.0', id: 1, error: { code: '1', message: 'bad' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1 } },
  { jsonrpc: '2.0', id: 1, error: null },
  { jsonrpc: '2.0', id: 1, error: [] },
  { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' }, extra: 1 },
];

test("a response is well formed exactly when the MCP SDK's schema says so", () => {
  for (const response of responses) {
    const sdk = JSONRPCMessageSchema.safeParse(response).success;
    assert.equal(envelopeProblem(response) === null, sdk, JSON.stringify(response));
    if (!sdk) assert.equal(envelopeProblem(response), 'a malformed JSON-RPC response');
  }
});
