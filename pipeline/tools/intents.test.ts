import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { REPO } from '../../test/support/project.ts';
import { publishedToolData } from '../../test/support/tool-data.ts';
import { intentOf, type Intent } from './intents.ts';
import { CATEGORY_WORDS, MAX_QUESTION_CHARS, policyQuestion } from './questions.ts';
import type { ToolData } from './registry/index.ts';

const data: ToolData = await publishedToolData(REPO);

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

test('questions in plain words are read into the tool that answers them (docs/API.md §4.7)', () => {
  const routed = (text: string) => {
    const intent = ofText(text);
    return intent.kind === 'tool' ? { tool: intent.tool.name, raw: intent.raw, note: intent.note } : { kind: intent.kind };
  };
  assert.deepEqual(routed('What is Bytespider?'), { tool: 'crawler_markdown', raw: { crawler: 'Bytespider' }, note: undefined });

  const block = routed('How do I block AI training but keep AI search?');
  assert.deepEqual(block.raw, { policy: 'block-ai-training' });
  assert.match(block.note ?? '', /^To block AI training crawlers and keep AI search crawlers, append the block-ai-training policy/);
  assert.match(block.note ?? '', /allow-ai-search-only/, 'the stricter policy that also keeps AI search is named');
  assert.deepEqual(routed('Block all AI bots, but keep AI search').raw, { policy: 'allow-ai-search-only' });
  assert.deepEqual(routed('how can I block every AI crawler?').raw, { policy: 'block-all-ai' });
  assert.deepEqual(routed('I want to stop AI training, but still appear in Google search and AI answers').raw, { policy: 'block-ai-training' });
  const pair = routed('Block SEO tools and datasets');
  assert.deepEqual(pair.raw, { policy: 'block-datasets' });
  assert.match(pair.note ?? '', /two policies: block-datasets .* and block-seo-tools/);
  // A policy question naming a web server wants the policy as that server's config.
  assert.deepEqual(routed('nginx config to block AI training').raw, { policy: 'block-ai-training', server: 'nginx' });
  assert.equal(routed('nginx config to block AI training').tool, 'server_config');
  assert.deepEqual(routed('Block SEO tools in my .htaccess').raw, { policy: 'block-seo-tools', server: 'apache' });
  // A named crawler is a question about that crawler, not about a category.
  assert.deepEqual(routed('How do I block GPTBot?').raw, { crawler: 'GPTBot' });

  const path = routed('Can GPTBot fetch /search?');
  assert.deepEqual(path.raw, { crawler: 'gptbot' });
  assert.match(path.note ?? '', /^Whether GPTBot may fetch \/search depends on your robots\.txt/);
  assert.deepEqual(routed('Can GPTBot fetch /search?\nUser-agent: GPTBot\nDisallow: /search\n'), {
    tool: 'check_path_allowed',
    raw: { robots_txt: 'User-agent: GPTBot\nDisallow: /search\n', ua: 'GPTBot', path: ['/search'] },
    note: undefined,
  });
  assert.deepEqual(routed('User-agent: *\nDisallow: /private\n\nIs ClaudeBot allowed to crawl https://example.org/private/a?x=1 and /b?').raw, {
    robots_txt: 'User-agent: *\nDisallow: /private\n\n',
    ua: 'ClaudeBot',
    path: ['/private/a?x=1', '/b'],
  });
  // An unknown crawler still gets the pointer; one that is no crawler at all does not.
  assert.deepEqual(routed('Can FooBot crawl /a?'), { kind: 'help' });
  assert.match((ofText('Can FooBot crawl /a?') as { reason: string }).reason, /FooBot is not in the index/);
  assert.deepEqual(routed('Does ClaudeBot read robots.txt?').raw, { crawler: 'ClaudeBot' });
});

test('a message longer than a question is not read as one, so a hostile one costs a linear scan, not a quadratic one', () => {
  const question = 'Can GPTBot fetch /search?';
  // Padding before the question: white space at either end is trimmed before reading.
  const padded = (length: number) => 'x'.repeat(length - question.length - 1) + ' ' + question;
  const noteOf = (intent: Intent) => (intent.kind === 'tool' ? (intent.note ?? null) : null);
  assert.match(noteOf(ofText(padded(MAX_QUESTION_CHARS))) ?? '', /^Whether GPTBot may fetch/);
  assert.equal(noteOf(ofText(padded(MAX_QUESTION_CHARS + 1))), null);
  // Without the bound, each "can" would scan to the end of the text for a verb: about 10^11 steps.
  assert.equal(ofText('can '.repeat(250_000)).kind, 'help');
  assert.equal(ofText(`block ${'keep '.repeat(250_000)}`).kind, 'help');
  // A patterns' \s* crossing line breaks made each of many blank lines scan to the end: 1 MiB of them took minutes.
  assert.equal(ofText(`x\n${'\n'.repeat(500_000)}x`).kind, 'help');
  assert.equal((call(ofText(`User-agent: a${' \n'.repeat(500_000)}`)) as { tool?: string }).tool, 'classify_user_agent');
});

test('addresses are read one past what verify_batch takes, so a long list is refused by the tool with its limit', () => {
  const many = Array.from({ length: 700 }, (_, i) => `192.0.2.${i % 256}`).concat(Array.from({ length: 700 }, (_, i) => `198.51.100.${i % 256}`));
  const distinct = Array.from({ length: 900 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
  const intent = ofText(distinct.join(' '));
  assert.ok(intent.kind === 'tool' && intent.tool.name === 'verify_batch');
  assert.equal((intent.raw['ip'] as string[]).length, 501);
  // Repeats count once.
  const repeated = ofText(many.join(', '));
  assert.ok(repeated.kind === 'tool');
  assert.equal((repeated.raw['ip'] as string[]).length, 501);
});

test('a pasted request head with a signature is checked by verify_signature, with a key directory pasted after it', () => {
  const head = 'GET /a HTTP/1.1\nHost: shop.example\nUser-Agent: Mozilla/5.0\nSignature-Input: sig1=("@authority");tag="web-bot-auth"\nSignature: sig1=:AA==:';
  assert.deepEqual(call(ofText(`Is this really ChatGPT?\n\n${head}`)), { tool: 'verify_signature', raw: { request: head } });
  const directory = '{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}';
  assert.deepEqual(call(ofText(`${head}\n\n${directory}`)), { tool: 'verify_signature', raw: { request: head, directory } });
  // Without a signature a head is not a signed request: its User-Agent line is read as before.
  assert.notEqual((call(ofText('GET /a HTTP/1.1\nHost: shop.example\nUser-Agent: GPTBot')) as { tool?: string }).tool, 'verify_signature');
});

test('the words read as categories name categories the index has, every one of them', () => {
  assert.deepEqual(CATEGORY_WORDS.map(([id]) => id).sort(), data.categories.map((c) => c.id).sort());
});

test('the categories beyond search, SEO and AI are read from the words people use for them', () => {
  const asked = (text: string) => policyQuestion(text, data);
  assert.deepEqual(asked('Block uptime monitors and security scanners but keep search engines'), {
    block: ['site-monitor', 'security-scanner'],
    keep: ['search-engine'],
  });
  assert.deepEqual(asked('How do I block brand safety crawlers and podcast apps?'), { block: ['advertising', 'feed-fetcher'], keep: [] });
  assert.deepEqual(asked('Block price monitoring and academic research crawlers, keep health checks'), {
    block: ['web-data', 'research'],
    keep: ['service-agent'],
  });
});

test('a question naming a crawler or an operator gets its record or its crawlers, with the robots.txt group when it asks to block', () => {
  const routed = (text: string) => {
    const intent = ofText(text);
    return intent.kind === 'tool' ? { tool: intent.tool.name, raw: intent.raw, note: intent.note ?? '' } : { tool: intent.kind, raw: {}, note: '' };
  };
  // A longer question about one crawler, and what blocking it takes.
  const ccbot = routed('What does CCBot do and should I block it?');
  assert.deepEqual([ccbot.tool, ccbot.raw], ['crawler_markdown', { crawler: 'CCBot' }]);
  assert.match(ccbot.note, /add this group to your robots\.txt:\n\nUser-agent: CCBot\nDisallow: \/$/);
  // A crawler whose operator does not say it obeys: the group, and how to enforce it.
  assert.match(routed('Block Bytespider').note, /User-agent: Bytespider\nDisallow: \/[\s\S]*refuse requests whose User-Agent contains Bytespider/);
  // No token: robots.txt cannot do it, and the record says why. Named by its name, with a space.
  const agent = routed('how do I block ChatGPT agent');
  assert.deepEqual(agent.raw, { crawler: 'chatgpt-agent' });
  assert.doesNotMatch(agent.note, /User-agent:/);
  assert.match(agent.note, /robots\.txt cannot keep out ChatGPT agent, which has no token/);
  // Two crawlers: one group for both, in the order asked, and the record of the first.
  const two = routed('Should I block GPTBot or ClaudeBot?');
  assert.deepEqual(two.raw, { crawler: 'GPTBot' });
  assert.match(two.note, /User-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: \//);
  assert.match(two.note, /ask about ClaudeBot for its own/);
  // Not asking to block: the record alone.
  assert.equal(routed('Is CCBot a search engine?').note, '');

  // An operator: its crawlers listed, and verification_methods for all of them.
  const openai = routed('Which crawlers does OpenAI run?');
  assert.deepEqual([openai.tool, openai.raw], ['verification_methods', { crawler: 'openai' }]);
  for (const name of ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ChatGPT agent']) assert.match(openai.note, new RegExp(`^- ${name}: `, 'm'));
  assert.match(openai.note, /\/operator\/openai\.html/);
  const perplexity = routed('block perplexity');
  assert.deepEqual(perplexity.raw, { crawler: 'perplexity' });
  assert.match(perplexity.note, /User-agent: Perplexity-User\nUser-agent: PerplexityBot\nDisallow: \//);
  // "Yandex" is a crawler (all Yandex robots) and an operator: asking about its bots means the operator's.
  assert.deepEqual(routed('Which bots does Yandex run?').raw, { crawler: 'yandex' });
  assert.equal(routed('Which bots does Yandex run?').tool, 'verification_methods');
  assert.equal(routed('What is Yandex?').tool, 'crawler_markdown');

  // Names that are ordinary words count only as the index writes them.
  assert.equal(routed('what is a spider?').tool, 'help');
  assert.deepEqual(routed('which operator runs GPTBot?').raw, { crawler: 'GPTBot' });
  // A question about the whole site is a question about its root.
  assert.match(routed('Can GPTBot crawl my website?').note, /^Whether GPTBot may fetch \/ depends on your robots\.txt/);
  // A retired crawler: its group would keep nothing out, and its successor is named.
  assert.match(routed("block OpenAI's Operator").note, /Operator is retired; ChatGPT agent replaced it/);
});
