import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { EVALUATION_BUDGET, MAX_PATH_BYTES } from '../pipeline/tools/registry/limits.ts';
import { ROBOTS_BODY_LIMIT } from '../pipeline/tools/registry/limits.ts';
import { evaluationCost, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import { heaviestToolCalls } from './requests.ts';

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
