import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { list as isbotList } from 'isbot';
import { REPO } from './support/project.ts';

// /data/crosswalk.json as the committed build wrote it: every peer name is in it once, each
// placement names records and clients that exist, and its counts add up to its entries.

const read = <T>(path: string): T => JSON.parse(readFileSync(`${REPO}${path}`, 'utf8')) as T;
interface Entry {
  name: string;
  crawlers: string[];
  clients: string[];
  reason: string | null;
  generic: boolean;
}
const walk = read<{ peers: { id: string; counts: Record<string, number>; entries: Entry[] }[] }>('dist/data/crosswalk.json');
const slugs = new Set(read<{ crawlers: { slug: string }[] }>('dist/data/agents.json').crawlers.map((c) => c.slug));
const clientIds = new Set(read<{ clients: { id: string }[] }>('dist/data/clients.json').clients.map((c) => c.id));
const peer = (id: string) => walk.peers.find((p) => p.id === id)!;

test('every name of each peer copy is in the crosswalk once', () => {
  const aiNames = (readFileSync(`${REPO}records/peers.yaml`, 'utf8').match(/^ {2}- "(.*)"$/gm) ?? []).length;
  const patterns = read<{ pattern: string }[]>('records/corpus/crawler-user-agents.json').length;
  const botNames = new Set(read<{ bots: { name: string }[] }>('records/corpus/bots.json').bots.map((b) => b.name)).size;
  const wellKnown = read<{ id: string }[]>('records/corpus/well-known-bots.json').length;
  assert.deepEqual(
    walk.peers.map((p) => [p.id, p.entries.length]),
    [
      ['ai-robots-txt', aiNames],
      ['crawler-user-agents', patterns],
      ['well-known-bots', wellKnown],
      ['isbot', isbotList.length],
      ['device-detector-bots', botNames],
    ],
  );
  assert.deepEqual(
    peer('isbot').entries.map((e) => e.name),
    isbotList,
    'every isbot pattern, in its order',
  );
});

test('a placement names records and clients that exist; a name placed on a crawler has no reason to be left out', () => {
  for (const { id, entries } of walk.peers) {
    for (const entry of entries) {
      for (const slug of entry.crawlers) assert.ok(slugs.has(slug), `${id} ${entry.name}: ${slug} is no record`);
      for (const client of entry.clients) assert.ok(clientIds.has(client), `${id} ${entry.name}: ${client} is no client`);
      assert.ok(entry.crawlers.length === 0 || (entry.reason === null && entry.clients.length === 0), `${id} ${entry.name}`);
    }
  }
});

test('the counts add up to the entries, and every name of the AI list is placed or explained', () => {
  for (const { id, counts, entries } of walk.peers) {
    assert.equal(counts.placed! + counts.generic! + counts.clients! + counts.excluded! + counts.unplaced!, entries.length, id);
    assert.equal(counts.placed, entries.filter((e) => !e.generic && e.crawlers.length > 0).length, id);
    if (id !== 'isbot') assert.equal(counts.generic, 0, `${id}: only isbot gives patterns without headers`);
  }
  assert.equal(peer('ai-robots-txt').counts.unplaced, 0);
  // Real headers of crawlers the index holds land on them (a few examples, as the peers name them).
  const placedOn = (id: string, name: string) => peer(id).entries.find((e) => e.name === name)?.crawlers;
  assert.deepEqual(placedOn('crawler-user-agents', 'GPTBot'), ['gptbot']);
  assert.deepEqual(placedOn('device-detector-bots', 'GPTBot'), ['gptbot']);
  assert.deepEqual(placedOn('ai-robots-txt', 'GPTBot'), ['gptbot']);
  assert.deepEqual(placedOn('well-known-bots', 'openai-crawler'), ['gptbot']);
  assert.deepEqual(placedOn('isbot', '^owler'), ['owler']);
});

test("an isbot pattern is a bot's name only when it names something and its headers name few crawlers", () => {
  const isbot = peer('isbot').entries;
  const entry = (name: string) => isbot.find((e) => e.name === name)!;
  // A shape of header names nothing, even where its headers are one crawler's.
  assert.equal(entry('\\(\\)').generic, true);
  // A word many crawlers' headers carry is a heuristic.
  assert.equal(entry('spider').generic, true);
  assert.ok(entry('spider').crawlers.length > 3);
  assert.equal(entry('^owler').generic, false);
});
