import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { executeTool } from '../pipeline/tools/registry/call.ts';
import { POLICY_IDS } from '../pipeline/records/types.ts';
import { publishedToolData } from './support/tool-data.ts';
import { REPO } from './support/project.ts';

// The project's own policies, appended as published, pass its own tools: ai-access finds every
// AI crawler a policy names blocked, says where that depends on the parser, and robots-lint
// warns on the lines a strict parser reads differently.

const data = await publishedToolData(REPO);
const fragment = (policy: string) => readFileSync(join(REPO, 'dist', 'robots', `${policy}.txt`), 'utf8');

type Brief = { slug: string; robots_token: string; deciding_line: { line: number; text: string } | null; parser_dependent: { strict_rfc_9309: string } | null };
async function audit(robots: string) {
  const run = await executeTool({ tool: 'audit_ai_access', params: { robots_txt: robots }, caller: { userAgent: null, address: null }, form: 'json' }, data);
  assert.equal(run.status, 'answered');
  return JSON.parse(new TextDecoder().decode((run as { bytes: Uint8Array }).bytes)) as { blocked: Brief[]; allowed: Brief[] };
}

test('every AI crawler a disallowing policy names is blocked by the policy as published, each by its own line', async () => {
  let checked = 0;
  for (const policy of POLICY_IDS) {
    const record = JSON.parse(readFileSync(join(REPO, 'dist', 'policy', `${policy}.json`), 'utf8')) as { directive: string; crawlers: { slug: string }[] };
    if (record.directive !== 'disallow') continue;
    const answer = await audit(fragment(policy));
    const blocked = new Map(answer.blocked.map((b) => [b.slug, b]));
    for (const { slug } of record.crawlers) {
      if (answer.allowed.some((a) => a.slug === slug)) assert.fail(`${policy}: ${slug} is named by the policy but ai-access finds it allowed`);
      const brief = blocked.get(slug);
      if (brief === undefined) continue; // not an AI crawler: ai-access does not evaluate it
      assert.equal(brief.deciding_line?.text, 'Disallow: /', `${policy}: ${slug}`);
      checked++;
    }
  }
  assert.ok(checked > 40, `${checked} blocked crawlers checked`);
});

test('AI2Bot: blocked as its operator writes the token, and the answer says a strict parser, which cuts it to "AI", would allow it', async () => {
  const answer = await audit(fragment('block-ai-training'));
  const ai2bot = answer.blocked.find((b) => b.slug === 'ai2bot');
  assert.ok(ai2bot, 'AI2Bot is blocked');
  assert.equal(ai2bot.deciding_line?.text, 'Disallow: /');
  assert.equal(ai2bot.parser_dependent?.strict_rfc_9309, 'allowed');
  const gptbot = answer.blocked.find((b) => b.slug === 'gptbot');
  assert.equal(gptbot?.parser_dependent, null, 'a plain product token does not depend on the parser');
  // And the linter names the generated line a strict parser reads otherwise.
  const lint = await executeTool(
    { tool: 'lint_robots_txt', params: { robots_txt: fragment('block-ai-training') }, caller: { userAgent: null, address: null }, form: 'json' },
    data,
  );
  const findings = (JSON.parse(new TextDecoder().decode((lint as { bytes: Uint8Array }).bytes)) as { findings: { code: string; message: string }[] }).findings;
  assert.ok(findings.some((f) => f.code === 'not-product-token' && f.message.includes('"AI2Bot"')));
});

test('merge_policy adds a policy to a file that already names some of its crawlers without making a second group, and is idempotent', async () => {
  const file = 'User-agent: GPTBot\nAllow: /public\n\nUser-agent: *\nDisallow: /private\n';
  const merge = async (robots: string) => {
    const run = await executeTool(
      { tool: 'merge_policy', params: { robots_txt: robots, policy: 'block-ai-training' }, caller: { userAgent: null, address: null }, form: 'json' },
      data,
    );
    assert.equal(run.status, 'answered');
    return JSON.parse(new TextDecoder().decode((run as { bytes: Uint8Array }).bytes)) as {
      robots_txt: string;
      added_groups: string[];
      extended_groups: { token: string; line: number }[];
      unchanged: { token: string }[];
    };
  };
  const merged = await merge(file);
  assert.deepEqual(
    merged.extended_groups.map((e) => [e.token, e.line]),
    [['GPTBot', 1]],
  );
  assert.ok(merged.added_groups.length > 30 && !merged.added_groups.includes('GPTBot'));
  assert.ok(merged.robots_txt.startsWith('User-agent: GPTBot\nAllow: /public\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n'));
  const lint = await executeTool(
    { tool: 'lint_robots_txt', params: { robots_txt: merged.robots_txt }, caller: { userAgent: null, address: null }, form: 'json' },
    data,
  );
  const codes = (JSON.parse(new TextDecoder().decode((lint as { bytes: Uint8Array }).bytes)) as { findings: { code: string; message: string }[] }).findings;
  // The only duplicates left are the strict-parser cuts of tokens with a digit (AI2Bot, Ai2Bot-Dolma → "AI"), which the linter explains.
  assert.deepEqual(
    codes.filter((f) => f.code === 'duplicate-group' && !/"Ai?"/i.test(f.message)).map((f) => f.message),
    [],
  );
  const audited = await audit(merged.robots_txt);
  const record = JSON.parse(readFileSync(join(REPO, 'dist', 'policy', 'block-ai-training.json'), 'utf8')) as { crawlers: { slug: string }[] };
  for (const { slug } of record.crawlers) assert.ok(!audited.allowed.some((a) => a.slug === slug), `${slug} is blocked after the merge`);
  const again = await merge(merged.robots_txt);
  assert.equal(again.robots_txt, merged.robots_txt, 'merging the same policy again changes nothing');
  assert.deepEqual(again.added_groups, []);
  assert.equal(again.unchanged.length, record.crawlers.length);
});
