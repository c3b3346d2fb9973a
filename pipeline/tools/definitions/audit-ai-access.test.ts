import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { REPO } from '../../../test/support/project.ts';
import { publishedToolData } from '../../../test/support/tool-data.ts';
import type { ToolData } from '../registry/index.ts';
import { auditTool } from './audit-ai-access.ts';

const data: ToolData = await publishedToolData(REPO);

const audit = (robots_txt: string) => auditTool.run({ robots_txt }, { data, caller: { userAgent: null, address: null } });

test('a group for a retired token ClaudeBot honours is reported both ways, and the token is not unknown', () => {
  const answer = audit('User-agent: anthropic-ai\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
  // RFC 9309: ClaudeBot's own token falls to the * group, which allows it.
  const claudebot = answer.allowed.find((b) => b.slug === 'claudebot');
  assert.ok(claudebot, 'ClaudeBot is allowed by its own (the *) group');
  assert.deepEqual(claudebot.operator_says, {
    allowed: false,
    groups: [{ token: 'anthropic-ai', allowed: false, deciding_line: { line: 2, text: 'Disallow: /' } }],
  });
  assert.deepEqual(answer.obedience.decided_by_honoured_token, [{ slug: 'claudebot', rfc_9309: 'allowed', operator_says: 'blocked' }]);
  assert.deepEqual(answer.unknown_tokens, []);
  assert.deepEqual(
    answer.honoured_tokens.map((h) => [h.token, h.line, h.honoured_by, h.citation.kind]),
    [['anthropic-ai', 1, 'claudebot', 'third-party']],
  );
  assert.match(auditTool.summarize(answer), /claudebot: allowed by its own group under RFC 9309, but its operator says .* blocked/);
});

test('without a group naming an honoured token, the operator view is null and nothing is listed', () => {
  const answer = audit('User-agent: ClaudeBot\nDisallow: /\n');
  const claudebot = answer.blocked.find((b) => b.slug === 'claudebot');
  assert.equal(claudebot?.operator_says, null);
  assert.deepEqual(answer.obedience.decided_by_honoured_token, []);
  assert.deepEqual(answer.honoured_tokens, []);
});

test('Claude-Web is matched case-insensitively, like every robots.txt token', () => {
  const answer = audit('User-agent: claude-web\nDisallow: /private\n');
  assert.deepEqual(
    answer.honoured_tokens.map((h) => h.honoured_by),
    ['claudebot'],
  );
  assert.deepEqual(answer.unknown_tokens, []);
});

test('a line naming a retired crawler is explained, with the crawler to name instead, never unknown', () => {
  const citation = { url: 'https://example.com/retired', publisher: 'Example', kind: 'operator' as const, retrieved: '2026-11-25' };
  // A hypothetical retirement of CCBot, so the test does not depend on which real records are retired.
  const crawlers = data.crawlers.map((c) =>
    c.slug === 'ccbot'
      ? { ...c, status: 'retired' as const, retired_since: '2030-01-01', successor: 'gptbot', retirement_note: 'Stopped.', retirement_citation: citation }
      : c,
  );
  const answer = auditTool.run({ robots_txt: 'User-agent: CCBot\nDisallow: /\n' }, { data: { ...data, crawlers }, caller: { userAgent: null, address: null } });
  assert.deepEqual(
    answer.retired_tokens.map((r) => [r.token, r.line, r.crawler, r.retired_since, r.successor]),
    [['CCBot', 1, 'ccbot', '2030-01-01', 'gptbot']],
  );
  assert.match(
    answer.retired_tokens[0]!.explanation,
    /retired by .* on 2030-01-01: no crawler sends this token, so this group blocks nothing\. Name GPTBot \(GPTBot\) instead\./,
  );
  assert.deepEqual(answer.unknown_tokens, []);
  assert.ok(![...answer.blocked, ...answer.allowed].some((b) => b.slug === 'ccbot'), 'a retired crawler is neither blocked nor allowed');
});

test('a crawler with no robots.txt token is listed apart, and a line naming it says the group controls nothing', () => {
  const answer = audit('User-agent: Google-Agent\nDisallow: /\n');
  assert.ok(answer.not_controlled_by_robots_txt.some((c) => c.slug === 'google-agent'));
  assert.ok(![...answer.blocked, ...answer.allowed].some((b) => b.slug === 'google-agent'), 'never evaluated');
  assert.deepEqual(
    answer.tokenless_names.map((t) => [t.token, t.line, t.crawler]),
    [['Google-Agent', 1, 'google-agent']],
  );
  assert.match(answer.tokenless_names[0]!.note, /Google documents no robots\.txt token/);
  assert.deepEqual(answer.unknown_tokens, []);
  // The name sites have long written for Feedfetcher, in its own spelling and another.
  const feeds = audit('User-agent: FeedFetcher-Google\nDisallow: /\n\nUser-agent: feedfetcher-google\nDisallow: /\n');
  assert.deepEqual(
    feeds.tokenless_names.map((t) => t.crawler),
    ['feedfetcher-google', 'feedfetcher-google'],
  );
  assert.deepEqual(feeds.unknown_tokens, []);
});
