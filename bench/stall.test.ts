import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { MAX_RPC_BODY_BYTES } from '../pipeline/http/jsonrpc.ts';
import { ROBOTS_BODY_LIMIT } from '../pipeline/tools/registry/limits.ts';
import { hostileInputs } from './stall.ts';

// Each hostile input must reach the bound it is about, not a cheaper refusal before it: a
// JSON-RPC body under the body limit, a robots.txt under the tool's, each named once.
test('every hostile input fits the body limits, so the server reads it whole', () => {
  const inputs = hostileInputs();
  assert.equal(new Set(inputs.map((i) => i.name)).size, inputs.length);
  for (const { name, request } of inputs) {
    const bytes = Buffer.byteLength(request.body ?? '');
    const limit = request.path.startsWith('/tools/') ? ROBOTS_BODY_LIMIT : MAX_RPC_BODY_BYTES;
    assert.ok(bytes <= limit, `${name}: ${bytes} bytes over ${limit}`);
  }
  const crowded = inputs.find((i) => i.name.startsWith('MCP call with 60,000'))!;
  assert.equal(Object.keys((JSON.parse(crowded.request.body!) as { params: { arguments: object } }).params.arguments).length, 60_001);
});
