import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CrawlerView } from '../pipeline/model/model.ts';
import type { ClientEntry } from '../pipeline/tools/classify/clients.ts';
import { auditAiAccess, crawlerSuggestions, lintIndexOf } from '../pipeline/tools/definitions/robots-answers.ts';
import { lintParsed, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import { suggestToken } from '../pipeline/tools/robots/suggest-token.ts';
import { REPO } from './support/project.ts';

// "Did you mean" on real names: user-agent values found in the corpus (records/corpus/) and
// the peers' lists (test/fixtures/reference/peers/) that name no indexed crawler, against the
// published index. `was` is what the edit-distance suggestion answered before suggestions were
// read from the name's shape; it is kept to show what each row corrects, and is not tested.

const crawlers = (JSON.parse(readFileSync(join(REPO, 'dist', 'data', 'agents.json'), 'utf8')) as { crawlers: CrawlerView[] }).crawlers;
const clients = (JSON.parse(readFileSync(join(REPO, 'dist', 'data', 'clients.json'), 'utf8')) as { clients: ClientEntry[] }).clients;
const index = crawlerSuggestions(crawlers);

const TABLE: readonly { name: string; expected: string | null; basis?: string; was: string | null }[] = [
  // Short names and the generic ending.
  { name: 'mojeek', expected: 'MojeekBot', basis: 'stem', was: null },
  { name: 'Turnitin', expected: 'TurnitinBot', basis: 'stem', was: null },
  { name: 'Seekport', expected: 'SeekportBot', basis: 'stem', was: null },
  { name: 'coccoc', expected: 'coccocbot', basis: 'stem', was: null },
  { name: 'linkdex', expected: 'linkdexbot', basis: 'stem', was: null },
  { name: 'mail.ru', expected: 'Mail.RU_Bot', basis: 'stem', was: null },
  // A version, a product token, a cut-short name, a suffix of the site's own.
  { name: 'MojeekBot/0.11', expected: 'MojeekBot', basis: 'version', was: null },
  { name: 'panscient.com', expected: 'Panscient', basis: 'product-token', was: null },
  { name: 'Siteimprove.com', expected: 'SiteimproveBot', basis: 'product-token', was: 'SiteimproveBot' },
  { name: 'GPTBot2', expected: 'GPTBot', basis: 'product-token', was: 'GPTBot' },
  { name: 'Applebot-Ext', expected: 'Applebot-Extended', basis: 'prefix', was: null },
  { name: 'Googlebot-Mobile', expected: 'Googlebot', basis: 'suffix', was: null },
  // One slip of the keyboard.
  { name: 'GTPBot', expected: 'GPTBot', basis: 'spelling', was: 'GPTBot' },
  { name: 'GPTBott', expected: 'GPTBot', basis: 'spelling', was: 'GPTBot' },
  { name: 'PerplexityUser', expected: 'Perplexity-User', basis: 'spelling', was: 'Perplexity-User' },
  // Other crawlers that only look alike: nothing rather than something wrong.
  { name: 'MoodleBot', expected: null, was: 'Googlebot' },
  { name: 'DOC', expected: null, was: 'LCC' },
  { name: 'IonCrawl', expected: null, was: 'OnCrawl' },
  { name: 'antibot', expected: null, was: 'Andibot' },
  { name: 'Amazing-SearchBot', expected: null, was: 'Amzn-SearchBot' },
  { name: 'Archive-It', expected: null, was: 'ArchiveBot' },
  { name: 'ArchiveBox', expected: null, was: 'ArchiveBot' },
  { name: 'Echobot Bot', expected: null, was: 'EchoboxBot' },
  { name: 'Jooblebot', expected: null, was: 'Googlebot' },
  { name: 'SrushBot', expected: null, was: 'SemrushBot' },
  { name: 'Barkowler', expected: null, was: 'barkrowler' },
  { name: 'bl.uk_ldfc_bot', expected: null, was: 'bl.uk_lddc_bot' },
  { name: 'Meta', expected: null, was: 'Yeti' },
  // Two crawlers start so (AwarioRssBot, AwarioSmartBot): which one is not the name's to say.
  { name: 'Awario', expected: null, was: null },
];

for (const row of TABLE) {
  test(`${row.name} → ${row.expected ?? 'no suggestion'}`, () => {
    assert.equal(
      crawlers.some((c) => c.robots_token?.toLowerCase() === row.name.toLowerCase()),
      false,
      'the name is not an indexed token, or the row tests nothing',
    );
    const suggestion = suggestToken(row.name, index);
    assert.equal(suggestion?.token ?? null, row.expected);
    if (row.basis !== undefined) assert.equal(suggestion?.basis, row.basis);
  });
}

test('ai-access answers "did you mean" from the same reading, for the names it lists as unknown', () => {
  const file = parseRobotsTxt('User-agent: mojeek\nUser-agent: MoodleBot\nUser-agent: Applebot-Ext\nDisallow: /\n');
  const answer = auditAiAccess(file, '/', crawlers, new Set(['ai-training']), []);
  assert.deepEqual(
    answer.unknown_tokens.map((u) => [u.token, u.did_you_mean]),
    [
      ['mojeek', 'MojeekBot'],
      ['MoodleBot', null],
      ['Applebot-Ext', 'Applebot-Extended'],
    ],
  );
});

test('robots-lint names the crawler an unknown name most likely meant, and says nothing of known names or of names that fit none', () => {
  const file = parseRobotsTxt(
    'User-agent: mojeek\nUser-agent: MoodleBot\nUser-agent: GPTBot\nUser-agent: GPTBot/1.1\nUser-agent: msnbot\nUser-agent: Scrapy\nUser-agent: GPTBott\nDisallow: /\n',
  );
  const findings = lintParsed(file, lintIndexOf(crawlers, clients)).filter((f) => f.code === 'unknown-user-agent');
  assert.deepEqual(
    findings.map((f) => [f.line, f.message]),
    [
      [1, '"mojeek" names no crawler in the index; did you mean MojeekBot (the same name with its generic ending)?'],
      [7, '"GPTBott" names no crawler in the index; did you mean GPTBot (one slip of the keyboard away)?'],
    ],
  );
});
