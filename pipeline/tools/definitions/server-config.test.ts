import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../../../test/support/project.ts';
import { publishedToolData } from '../../../test/support/tool-data.ts';
import { POLICY_IDS } from '../../records/types.ts';
import { executeTool } from '../registry/call.ts';
import { serverConfigTool } from './server-config.ts';

const caller = { userAgent: null, address: null };

test('server_config quotes every policy file exactly as published, with its row of the accuracy table', async () => {
  const data = await publishedToolData(REPO);
  for (const id of POLICY_IDS)
    for (const server of ['nginx', 'apache', 'caddy', 'haproxy'] as const) {
      const answer = serverConfigTool.run({ policy: id, server }, { data, caller });
      assert.equal(answer.config, readFileSync(join(REPO, 'dist', 'policy', `${id}.${server}.conf`), 'utf8'), `${id} ${server}`);
      assert.ok(answer.url.endsWith(`/policy/${id}.${server}.conf`));
      const accuracy = answer.accuracy as { server: string; browsers: { matched: number } } | null;
      assert.equal(accuracy?.server, server);
      assert.equal(accuracy.browsers.matched, 0);
    }
  const training = serverConfigTool.run({ policy: 'block-ai-training', server: 'nginx' }, { data, caller });
  assert.ok(
    training.cannot_enforce.some((c) => c.robots_token === 'Google-Extended'),
    'a robots.txt-only token is named as unenforceable',
  );
});

test('server_config defaults to nginx and refuses a server it does not know, naming the accepted ones', async () => {
  const data = await publishedToolData(REPO);
  const plain = await executeTool({ tool: 'server_config', params: { policy: 'block-datasets' }, caller, form: 'structured' }, data);
  assert.ok(plain.status === 'answered' && plain.form === 'structured');
  assert.equal((plain.output as { server: string }).server, 'nginx');
  const refused = await executeTool({ tool: 'server_config', params: { policy: 'block-datasets', server: 'iis' }, caller, form: 'structured' }, data);
  assert.ok(refused.status === 'refused');
  assert.equal(refused.field, 'server');
  assert.match(refused.accepted, /nginx, apache, caddy, haproxy/);
});
