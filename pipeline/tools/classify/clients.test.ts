import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { fixtureCrawler } from '../../../test/support/classify-data.ts';
import { buildClassifier, classify } from './classify.ts';
import type { ClientEntry } from './clients.ts';

const client = (id: string, substring: string): ClientEntry => ({
  id,
  name: id,
  kind: 'http-library',
  kind_label: 'HTTP library (its default header)',
  maker: 'Example',
  user_agent_substring: substring,
  user_agent_example: `${substring}1.0`,
  what_it_is: 'A library used only in this test.',
  citation: { url: 'https://example.com/source', publisher: 'Example', kind: 'operator', retrieved: '2026-11-25', note: null },
});

const classifier = buildClassifier(
  [fixtureCrawler('examplebot', { user_agent_substring: 'ExampleBot' })],
  [client('java', 'Java/'), client('apache', 'Apache-HttpClient/')],
);

test('a header no crawler matches names the client whose default header it is, the longest substring winning', () => {
  const answer = classify(classifier, 'Apache-HttpClient/4.5.2 (Java/1.8.0_151)');
  assert.equal(answer.matched, false);
  assert.equal(answer.matched ? null : answer.client?.id, 'apache');
  assert.match(answer.matched ? '' : (answer.client?.note ?? ''), /not who ran it/);
  const java = classify(classifier, 'java/17.0.2');
  assert.equal(java.matched ? null : java.client?.id, 'java', 'matching ignores ASCII case');
});

test('a crawler always wins over a client it carries, and an unknown header names no client', () => {
  const crawler = classify(classifier, 'Mozilla/5.0 (compatible; ExampleBot/2.0) Java/1.8');
  assert.equal(crawler.matched && crawler.crawler.slug, 'examplebot');
  const neither = classify(classifier, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
  assert.equal(neither.matched ? 'matched' : neither.client, null);
});
