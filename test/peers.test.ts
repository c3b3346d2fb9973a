import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { peerStanding } from '../pipeline/records/peers.ts';
import type { CrawlerRecord, ExcludedName } from '../pipeline/records/types.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { fixtureRecord } from './support/records.ts';
import { REPO } from './support/project.ts';

// records/peers.yaml is the peers' AI list (ai.robots.txt) by name; npm run check holds the index
// to it through peerStanding. These tests pin the list to the kept copy of the peers' file and
// prove on hand-made data that each rule of peerStanding can fail.

// A copy of the peers' list kept in the repository; test/fixtures/reference/README.md names its source and licence.
const PEERS_FILE = join(REPO, 'test', 'fixtures', 'reference', 'peers', 'ai-robots-txt-robots.json');

test("records/peers.yaml holds exactly the names of the peers' file, in its order", () => {
  const copy = Object.keys(JSON.parse(readFileSync(PEERS_FILE, 'utf8')) as Record<string, unknown>);
  const listed = (parse(readFileSync(join(REPO, 'records', 'peers.yaml'), 'utf8')) as { names: string[] }).names;
  assert.deepEqual(listed, copy);
});

const entry = (name: string, reason = 'no-evidence'): ExcludedName => ({ name, reason, note: 'A hand-made entry for this test.' });

test('the excluded schema rejects an unknown reason, a missing note, an extra field and the old merged-into', () => {
  const validate = validatorFor('records/excluded.schema.json');
  assert.equal(validate([{ name: 'X', reason: 'gone', note: 'A hand-made entry for this test.' }]), false);
  assert.equal(validate([{ name: 'X', reason: 'defunct', note: 'A retired crawler is indexed, not excluded.' }]), false);
  assert.equal(validate([{ name: 'X', reason: 'no-evidence' }]), false);
  assert.equal(validate([{ ...entry('X'), extra: true }]), false);
  // A duplicate spelling is an alias in the crawler's record now, not an exclusion.
  assert.equal(validate([entry('X', 'merged-into:gptbot')]), false);
  assert.ok(validate([entry('X', 'not-a-crawler')]));
});

const crawlers: CrawlerRecord[] = [
  fixtureRecord('gptbot', { robots_token: 'GPTBot' }),
  fixtureRecord('claudebot', {
    robots_token: 'ClaudeBot',
    honoured_tokens: [
      {
        token: 'anthropic-ai',
        note: 'A retired token the operator says it obeys.',
        citation: { url: 'https://example.com/a', publisher: 'Example', kind: 'third-party', retrieved: '2026-11-25' },
      },
    ],
  }),
  fixtureRecord('omgili', { robots_token: 'omgili', aliases: [{ name: 'omgilibot', note: 'An older spelling sites still write.' }] }),
  fixtureRecord('chatgpt-agent', { name: 'ChatGPT agent', robots_token: null, user_agent_substring: null }),
];

test('a peer name is placed by a token, an honoured token, an alias or a name, ignoring case', () => {
  const standing = peerStanding(['GPTBOT', 'anthropic-ai', 'OmgiliBot', 'ChatGPT Agent'], crawlers, []);
  assert.deepEqual(standing.placed, ['GPTBOT', 'anthropic-ai', 'OmgiliBot', 'ChatGPT Agent']);
  assert.deepEqual(standing.unaccounted, []);
});

test('unaccounted: a peer name neither placed nor excluded (spelled as the peers spell it) is reported', () => {
  const standing = peerStanding(['NewBot', 'oldbot', 'Scrapy'], crawlers, [entry('OldBot'), entry('Scrapy', 'not-a-crawler')]);
  assert.deepEqual(standing.unaccounted, ['NewBot', 'oldbot']);
  assert.deepEqual(
    standing.excluded.map((e) => e.name),
    ['Scrapy'],
  );
});

test('an excluded name a record places, an excluded name the peers do not list, and a list out of order are reported', () => {
  const standing = peerStanding(['GPTBot', 'Zed'], crawlers, [entry('Zed'), entry('GPTBot'), entry('Zed'), entry('Elsewhere')]);
  assert.deepEqual(standing.wronglyExcluded, ['GPTBot']);
  assert.deepEqual(standing.notPeers, ['Elsewhere']);
  assert.deepEqual(standing.orderProblems, ['out of order: Zed before GPTBot', 'duplicate: Zed', 'out of order: Zed before Elsewhere']);
});
