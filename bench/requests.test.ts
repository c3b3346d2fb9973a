import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { EVALUATION_BUDGET, MAX_PATH_BYTES } from '../pipeline/tools/registry/limits.ts';
import { ROBOTS_BODY_LIMIT } from '../pipeline/tools/registry/limits.ts';
import { evaluationCost, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import { fileURLToPath } from 'node:url';
import { serveTree } from '../test/support/served.ts';
import { a2aClassify, heaviestToolCalls, mcpClassify, mcpPathAllowed, mcpVerify } from './requests.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));

test('the heaviest robots-allowed call spends the whole budget and no more, so the server runs it', () => {
  const [allowed, ...others] = heaviestToolCalls();
  assert.ok(allowed?.body !== undefined);
  const path = decodeURIComponent(/path=([^&]+)/.exec(allowed.path)![1]!);
  assert.ok(Buffer.byteLength(path) <= MAX_PATH_BYTES);
  const cost = evaluationCost(parseRobotsTxt(allowed.body), ['GPTBot'], [path]);
  assert.ok(cost <= EVALUATION_BUDGET, `cost ${cost}`);
  const oneMore = evaluationCost(parseRobotsTxt(`${allowed.body}Disallow: /*ab999999*x\n`), ['GPTBot'], [path]);
  assert.ok(oneMore > EVALUATION_BUDGET, `one more rule costs ${oneMore}`);
  for (const request of [allowed, ...others]) assert.ok(Buffer.byteLength(request.body ?? '') <= ROBOTS_BODY_LIMIT, request.path);
});

// The protocol rows measure answered calls, not a cheaper refusal: each is sent once to the
// committed index and must come back as a result, with no JSON-RPC error and no tool error.
test('every MCP and A2A request the bench sends is answered with a result by the committed index', async () => {
  const server = await serveTree(REPO, { requestLog: { file: null }, compress: false });
  try {
    const addresses = Array.from({ length: 10 }, (_, i) => `20.171.206.${i + 1}`);
    for (const request of [mcpClassify(), mcpVerify(addresses), mcpPathAllowed(), a2aClassify()]) {
      const response = await fetch(server.url + request.path, { method: request.method, headers: request.headers, body: request.body });
      const answer = (await response.json()) as { error?: unknown; result?: { isError?: boolean; status?: { state?: string }; kind?: string } };
      assert.equal(response.status, 200, request.path);
      assert.equal(answer.error, undefined, `${request.path}: ${JSON.stringify(answer.error)}`);
      assert.ok(answer.result !== undefined && answer.result.isError !== true, `${request.path}: ${JSON.stringify(answer.result).slice(0, 300)}`);
      if (request.path === '/a2a')
        assert.equal(answer.result.kind === 'task' ? answer.result.status?.state : answer.result.kind, answer.result.kind === 'task' ? 'completed' : 'message');
    }
  } finally {
    await server.close();
  }
});
