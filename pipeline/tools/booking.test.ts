import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildToolDataOf, TOOL_SNAPSHOT_PATHS } from '../http/tool-data.ts';
import { bookRequest } from './booking.ts';
import { listEvidence, listsLeanedOn, MAX_LIST_AGE_SECONDS } from './verify/evidence.ts';

// The committed build's tools' data, as the log's thread builds it.
const DIST = join(import.meta.dirname, '..', '..', 'dist');
const data = buildToolDataOf({ key: 'committed', bytes: TOOL_SNAPSHOT_PATHS.map((path) => new Uint8Array(readFileSync(join(DIST, path)))) });
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)';
const gptbot = data.bySlug.get('gptbot')!;
const lists = listsLeanedOn(gptbot)!;
/** The first address of the first prefix GPTBot's list holds in the committed build. */
const inList = (() => {
  const list = JSON.parse(readFileSync(join(DIST, 'ip-ranges', 'openai-gptbot.json'), 'utf8')) as { ipv4: string[] };
  return list.ipv4[0]!.split('/')[0]!.replace(/\.(\d+)$/, (_, last: string) => `.${Number(last) + 1}`);
})();
const OUTSIDE = '198.51.100.7';

test('an address outside the lists is not-genuine while every list it leans on is current, unverifiable after, at each request time', () => {
  assert.ok(lists.length > 0, 'GPTBot is checked by published lists');
  const confirmed = lists.map((id) => Date.parse(data.prefixes.sources.find((source) => source.id === id)!.confirmed_at!));
  const lastCurrent = Math.min(...confirmed) + MAX_LIST_AGE_SECONDS * 1000;
  // Around the moment the oldest copy grows too old, in an order that books a late time before
  // an early one: what an address showed is remembered, the time is read from each request.
  for (const at of [lastCurrent + 1, lastCurrent, lastCurrent - 3_600_000, lastCurrent + 86_400_000, lastCurrent]) {
    const usable = listEvidence(data.prefixes, lists, at).every((evidence) => evidence.usable);
    assert.equal(bookRequest(data, GPTBOT, OUTSIDE, at).verdict, usable ? 'not-genuine' : 'unverifiable', `at ${new Date(at).toISOString()}`);
  }
  assert.equal(bookRequest(data, GPTBOT, OUTSIDE, lastCurrent).verdict, 'not-genuine');
  assert.equal(bookRequest(data, GPTBOT, OUTSIDE, lastCurrent + 1).verdict, 'unverifiable');
});

test('an address in the list is genuine at any time; the crawler and its category come with it', () => {
  for (const at of [0, Date.now(), Date.now() + 365 * 86_400_000])
    assert.deepEqual(bookRequest(data, GPTBOT, inList, at), { crawler: 'gptbot', category: 'ai-training', verdict: 'genuine' });
});

test('a request that names no crawler, or has no address, books as such', () => {
  assert.deepEqual(bookRequest(data, 'curl/8.5.0', OUTSIDE), { crawler: null, category: null, verdict: null });
  assert.deepEqual(bookRequest(data, null, OUTSIDE), { crawler: null, category: null, verdict: null });
  assert.deepEqual(bookRequest(data, GPTBOT, null), { crawler: 'gptbot', category: 'ai-training', verdict: 'unverifiable' });
  assert.deepEqual(bookRequest(null, GPTBOT, OUTSIDE), { crawler: null, category: null, verdict: null });
});
