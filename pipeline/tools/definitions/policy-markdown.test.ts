import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../../../test/support/project.ts';
import { publishedToolData } from '../../../test/support/tool-data.ts';
import { POLICY_IDS } from '../../records/types.ts';
import { policyMarkdownTool } from './policy-markdown.ts';

test('policy_markdown quotes the fragment exactly as /robots/{id}.txt publishes it, for every policy', async () => {
  const data = await publishedToolData(REPO);
  for (const id of POLICY_IDS) {
    const published = readFileSync(join(REPO, 'dist', 'robots', `${id}.txt`), 'utf8').trimEnd();
    const answer = policyMarkdownTool.run({ policy: id }, { data, caller: { userAgent: null, address: null } });
    assert.equal(answer.policy, id);
    assert.ok(answer.markdown.includes(`\`\`\`\n${published}\n\`\`\``), id);
  }
});

test('an unknown policy is answered with the list of ids, not an error', async () => {
  const data = await publishedToolData(REPO);
  const answer = policyMarkdownTool.run({ policy: 'nope' }, { data, caller: { userAgent: null, address: null } });
  assert.equal(answer.policy, null);
  assert.match(answer.markdown, /No policy "nope"\. Policies: allow-all/);
});
