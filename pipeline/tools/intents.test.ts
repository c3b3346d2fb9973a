import { strict as assert } from 'node:assert';
import { before, test } from 'node:test';
import { REPO } from '../../test/support/project.ts';
import { publishedToolData } from '../../test/support/tool-data.ts';
import { intentOf, type Intent } from './intents.ts';
import type { ToolData } from './registry/index.ts';

let data: ToolData;
before(async () => {
  data = await publishedToolData(REPO);
});

const ofText = (text: string) => intentOf({ texts: [text], data: [] }, data);
const call = (intent: Intent) => (intent.kind === 'tool' ? { tool: intent.tool.name, raw: intent.raw } : intent.kind);

test('free text is read by its shape', () => {
  assert.deepEqual(call(ofText('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')), {
    tool: 'classify_user_agent',
    raw: { ua: 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)' },
  });
  assert.deepEqual(call(ofText('is 66.249.66.1 really Googlebot?')), { tool: 'verify_batch', raw: { ip: ['66.249.66.1'], ua: 'Googlebot' } });
  assert.deepEqual(call(ofText('Please check:\n```\nUser-agent: GPTBot\nDisallow: /\n```')), {
    tool: 'audit_ai_access',
    raw: { robots_txt: 'User-agent: GPTBot\nDisallow: /\n' },
  });
  assert.deepEqual(call(ofText('who am I?')), { tool: 'whoami', raw: {} });
  assert.deepEqual(call(ofText('what is GPTBot?')), { tool: 'crawler_markdown', raw: { crawler: 'GPTBot' } });
  assert.equal(call(ofText('tell me a joke')), 'help');
});

test('a data part names a tool, or is matched by its fields', () => {
  assert.deepEqual(call(intentOf({ texts: [], data: [{ skill: 'whoami', input: {} }] }, data)), { tool: 'whoami', raw: {} });
  assert.deepEqual(call(intentOf({ texts: [], data: [{ ip: ['192.0.2.1'] }] }, data)), { tool: 'verify_batch', raw: { ip: ['192.0.2.1'] } });
  const unknown = intentOf({ texts: [], data: [{ skill: 'no_such_tool' }] }, data);
  assert.ok(unknown.kind === 'invalid' && unknown.field === 'skill' && /unknown skill "no_such_tool"/.test(unknown.message));
  const badInput = intentOf({ texts: [], data: [{ skill: 'whoami', input: [1] }] }, data);
  assert.ok(badInput.kind === 'invalid' && badInput.field === 'input');
});
