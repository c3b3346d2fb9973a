import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { diffStates, type PublishedDirectory, type PublishedState } from './diff.ts';
import { boundRangesEvents } from './log.ts';
import type { ChangeEvent, EventLog } from './types.ts';

const urls = {
  crawler: (slug: string) => `https://x.example/crawler/${slug}.json`,
  source: (id: string) => `https://x.example/ip-ranges/${id}.json`,
  sourceHistory: (id: string) => `https://git.example/commits/main/state/mirror/${id}.json`,
  directory: (id: string) => `https://x.example/signature-agents/${id}.json`,
};
const state = (crawlers: Record<string, Record<string, unknown>>, directories: Record<string, PublishedDirectory> = {}): PublishedState => ({
  crawlers: new Map(Object.entries(crawlers)),
  sources: new Map(),
  directories: new Map(Object.entries(directories)),
});
const directory = (thumbprints: string[], expiring: string[] = [], state = 'ok', error: string | null = null): PublishedDirectory => ({
  state,
  error,
  thumbprints,
  expiring: expiring.map((thumbprint) => ({ thumbprint, expires: '2026-12-01T00:00:00.000Z' })),
});

test('a key directory: first answer, keys rotated, a key nearing its exp once, a failed fetch', () => {
  const first = diffStates(state({}, { a: directory([], [], 'never-fetched') }), state({}, { a: directory(['k1']) }), urls);
  assert.deepEqual(
    first.map((e) => [e.kind, e.keys_added, e.keys_removed]),
    [
      ['source.started-answering', undefined, undefined],
      ['keys.changed', ['k1'], []],
    ],
  );
  assert.equal(first[0]?.subject.type, 'signature-agent');
  assert.equal(first[0]?.subject.url, 'https://x.example/signature-agents/a.json');

  const rotated = diffStates(state({}, { a: directory(['k1']) }), state({}, { a: directory(['k2', 'k1'], ['k1']) }), urls);
  assert.deepEqual(
    rotated.map((e) => [e.kind, e.keys_added ?? e.key]),
    [
      ['keys.changed', ['k2']],
      ['keys.expiring', 'k1'],
    ],
  );
  assert.equal(rotated[1]?.expires, '2026-12-01T00:00:00.000Z');
  // Still expiring at the next refresh: said once, not again.
  assert.deepEqual(diffStates(state({}, { a: directory(['k2', 'k1'], ['k1']) }), state({}, { a: directory(['k2', 'k1'], ['k1']) }), urls), []);

  const failed = diffStates(state({}, { a: directory(['k2']) }), state({}, { a: directory(['k2'], [], 'failed', 'Fetch failed (http-status): 500.') }), urls);
  assert.deepEqual(
    failed.map((e) => [e.kind, e.error]),
    [['source.stopped-answering', 'Fetch failed (http-status): 500.']],
  );
  assert.match(failed[0]?.summary ?? '', /last good keys are still served/);
});

test('a field the model gained is no edit where it is empty or at its default, and is one where it says something', () => {
  const before = state({ a: { name: 'A', robots_token: 'A' }, b: { name: 'B', robots_token: 'B' } });
  const after = state({
    a: { name: 'A', robots_token: 'A', honoured_tokens: [], status: 'active', retired_since: null },
    b: { name: 'B', robots_token: 'B', honoured_tokens: [{ token: 'old-b' }], status: 'retired', retired_since: '2022-05-01' },
  });
  const events = diffStates(before, after, urls);
  assert.deepEqual(
    events.map((e) => [e.subject.id, e.fields]),
    [['b', ['honoured_tokens', 'retired_since', 'status']]],
  );
});

test('fields that restate older ones (verification, citations, evidence) are no edit on the build that adds them; the older fields still are', () => {
  const before = state({ a: { name: 'A', verification_method: 'none' }, b: { name: 'B', verification_method: 'none' } });
  const restated = { verification: [{ method: 'none' }], citations: [{ url: 'https://a.example' }], evidence: 'operator', evidence_label: 'Documented' };
  const after = state({ a: { name: 'A', verification_method: 'none', ...restated }, b: { name: 'B', verification_method: 'asn', ...restated } });
  assert.deepEqual(
    diffStates(before, after, urls).map((e) => [e.subject.id, e.fields]),
    [['b', ['verification_method']]],
  );
  const later = state({
    a: { name: 'A', verification_method: 'none', ...restated, evidence: 'third-party' },
    b: { name: 'B', verification_method: 'asn', ...restated },
  });
  assert.deepEqual(
    diffStates(after, later, urls).map((e) => [e.subject.id, e.fields]),
    [['a', ['evidence']]],
  );
});

test('a field that existed and changed is an edit whatever its new value', () => {
  const events = diffStates(state({ a: { name: 'A', honoured_tokens: [{ token: 'x' }] } }), state({ a: { name: 'A', honoured_tokens: [] } }), urls);
  assert.deepEqual(
    events.map((e) => e.fields),
    [['honoured_tokens']],
  );
});

test('a key the model gained inside a field (a verification entry) is no edit where it is empty, and is one where it says something', () => {
  const entry = { method: 'web-bot-auth', directory: 'https://a.example/.well-known/http-message-signatures-directory' };
  const before = state({ a: { name: 'A', verification: [entry] }, b: { name: 'B', verification: [entry] }, c: { name: 'C', verification: [entry] } });
  const after = state({
    a: { name: 'A', verification: [{ ...entry, signature_agent: null }] },
    b: { name: 'B', verification: [{ ...entry, signature_agent: 'https://a.example' }] },
    c: { name: 'C', verification: [{ ...entry, directory: 'https://c.example/.well-known/http-message-signatures-directory', signature_agent: null }] },
  });
  assert.deepEqual(
    diffStates(before, after, urls).map((e) => [e.subject.id, e.fields]),
    [
      ['b', ['verification']],
      ['c', ['verification']],
    ],
  );
});

test('ranges.changed stays small however large the list: exact counts, 50 per family and side, where the whole list is', () => {
  const v4 = Array.from({ length: 230_000 }, (_, i) => `${20 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.0/24`);
  const v6 = Array.from({ length: 120 }, (_, i) => `2600:1f00:${i.toString(16)}::/64`);
  const sources = (ipv4: string[], ipv6: string[]) => new Map([['big', { state: 'ok', error: null, ipv4, ipv6 }]]);
  const before: PublishedState = { crawlers: new Map(), sources: sources(['3.41.188.32/29'], []), directories: new Map() };
  const after: PublishedState = { crawlers: new Map(), sources: sources(v4, v6), directories: new Map() };
  const [event] = diffStates(before, after, urls);
  assert.equal(event?.kind, 'ranges.changed');
  assert.deepEqual(event.added_count, { ipv4: 230_000, ipv6: 120 });
  assert.deepEqual(event.removed_count, { ipv4: 1, ipv6: 0 });
  assert.deepEqual(event.added, { ipv4: v4.slice(0, 50), ipv6: v6.slice(0, 50) });
  assert.deepEqual(event.removed, { ipv4: ['3.41.188.32/29'], ipv6: [] });
  assert.equal(event.sample_complete, false);
  assert.deepEqual(event.whole_list, { url: 'https://x.example/ip-ranges/big.json', history: 'https://git.example/commits/main/state/mirror/big.json' });
  assert.equal(event.summary, 'big: 230120 prefixes added, 1 removed.');
  assert.ok(JSON.stringify(event).length < 8_000, `${JSON.stringify(event).length} bytes`);

  const [small] = diffStates(after, { ...after, sources: sources([...v4, '1.2.3.0/24'], v6) }, urls);
  assert.deepEqual([small?.added, small?.added_count, small?.sample_complete], [{ ipv4: ['1.2.3.0/24'], ipv6: [] }, { ipv4: 1, ipv6: 0 }, true]);
});

test('an event recorded before the bound gets counts and a sample; its cursor, time and summary stay', () => {
  const huge = Array.from({ length: 500 }, (_, i) => `34.1.${i >> 1}.${(i & 1) * 128}/25`);
  const old: ChangeEvent = {
    cursor: 7,
    kind: 'ranges.changed',
    observed_at: '2026-01-01T00:00:00Z',
    subject: { type: 'source', id: 'big', url: 'https://x.example/ip-ranges/big.json' },
    summary: 'big: 500 prefixes added, 0 removed.',
    added: { ipv4: huge, ipv6: [] },
    removed: { ipv4: [], ipv6: [] },
  };
  const other: ChangeEvent = {
    cursor: 8,
    kind: 'source.started-answering',
    observed_at: '2026-01-01T00:00:00Z',
    subject: old.subject,
    summary: 'big answered.',
  };
  const log: EventLog = { head: 8, oldest: 7, last_base: null, last_batch_start: null, events: [old, other] };
  const bounded = boundRangesEvents(log, urls.sourceHistory);
  const [first, second] = bounded.events;
  assert.deepEqual(first?.added, { ipv4: huge.slice(0, 50), ipv6: [] });
  assert.deepEqual(
    [first?.cursor, first?.observed_at, first?.summary, first?.added_count, first?.sample_complete],
    [7, old.observed_at, old.summary, { ipv4: 500, ipv6: 0 }, false],
  );
  assert.equal(second, other);
  assert.equal(boundRangesEvents(bounded, urls.sourceHistory), bounded, 'bounded events are left as they are');
});
