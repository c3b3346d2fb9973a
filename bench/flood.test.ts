import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { toolByName } from '../pipeline/tools/registry/index.ts';
import { validateInput } from '../pipeline/tools/registry/input.ts';
import { ROBOTS_BODY_LIMIT } from '../pipeline/tools/registry/limits.ts';
import { mergeCallBody } from './flood.ts';

test('the flood sends the largest valid merge call: just under the body limit, and accepted', () => {
  const body = mergeCallBody();
  const bytes = Buffer.byteLength(body);
  assert.ok(bytes <= ROBOTS_BODY_LIMIT && bytes > ROBOTS_BODY_LIMIT - 10_000, `${bytes} bytes`);
  const checked = validateInput(toolByName('merge_policy')!, { robots_txt: body, policy: 'block-ai-training' });
  assert.equal(checked.ok, true, JSON.stringify(checked));
});
