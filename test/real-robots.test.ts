import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { auditTool } from '../pipeline/tools/definitions/audit-ai-access.ts';
import { classify } from '../pipeline/tools/classify/index.ts';
import type { ToolData } from '../pipeline/tools/registry/index.ts';
import { REPO } from './support/project.ts';
import { publishedToolData } from './support/tool-data.ts';

// Real robots.txt files (test/fixtures/robots/README.md says where each copy comes from),
// posted to the ai-access audit as a site owner would: every name in them that the peers' AI
// list knows must come back as a crawler, an honoured or retired token, or a tokenless name,
// never as an unknown token.

const FILES = ['www.nytimes.com.txt', 'cn.nytimes.com.txt'];

const peerNames = new Set(
  Object.keys(JSON.parse(readFileSync(join(REPO, 'test', 'fixtures', 'reference', 'peers', 'ai-robots-txt-robots.json'), 'utf8')) as object).map((n) =>
    n.toLowerCase(),
  ),
);

let data: ToolData;
before(async () => {
  data = await publishedToolData(REPO);
});

const audit = (file: string) =>
  auditTool.run({ robots_txt: readFileSync(join(REPO, 'test', 'fixtures', 'robots', file), 'utf8') }, { data, caller: { userAgent: null, address: null } });

for (const file of FILES) {
  test(`${file}: no name the peers' AI list knows is an unknown token`, () => {
    const unknown = audit(file).unknown_tokens.map((u) => u.token.toLowerCase());
    const known = unknown.filter((token) => peerNames.has(token));
    assert.deepEqual(known, []);
  });
}

test('the New York Times file: the names the issue found unknown are all placed now', () => {
  const answer = audit('www.nytimes.com.txt');
  const unknown = new Set(answer.unknown_tokens.map((u) => u.token));
  for (const name of [
    'anthropic-ai',
    'Bytespider',
    'Claude-Web',
    'FacebookBot',
    'omgili',
    'DataForSeoBot',
    'magpie-crawler',
    'peer39_crawler',
    'peer39_crawler/1.0',
    'AwarioRssBot',
    'AwarioSmartBot',
  ]) {
    assert.ok(!unknown.has(name), `${name} is unknown`);
  }
  assert.deepEqual(
    answer.honoured_tokens.map((h) => [h.token, h.honoured_by]),
    [
      ['anthropic-ai', 'claudebot'],
      ['Claude-Web', 'claudebot'],
    ],
  );
  assert.ok(answer.blocked.some((b) => b.slug === 'bytespider'));
  assert.deepEqual(
    answer.alias_names.map((a) => [a.token, a.crawler, a.write_instead]),
    [['omgilibot', 'omgili', 'omgili']],
  );
});

test('cn.nytimes.com: a group for Scrapy is explained as a scraping framework, and NewsNow is a crawler', () => {
  const answer = audit('cn.nytimes.com.txt');
  assert.deepEqual(
    answer.client_names.map((c) => [c.token, c.client, c.kind]),
    [['Scrapy', 'scrapy', 'scraping-framework']],
  );
  assert.match(answer.client_names[0]!.note, /not one operator's crawler/);
  assert.deepEqual(
    answer.unknown_tokens.map((u) => u.token),
    ['news-please'],
  );
});

test("every client's documented header is named as that client, never as a crawler", () => {
  for (const entry of data.clients) {
    const answer = classify(data.classifier, entry.user_agent_example);
    assert.equal(answer.matched ? `crawler ${answer.crawler.slug}` : answer.client?.id, entry.id, entry.user_agent_example);
  }
});
