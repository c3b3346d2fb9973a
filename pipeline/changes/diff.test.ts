import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { diffStates, type PublishedDirectory, type PublishedState } from './diff.ts';

const urls = {
  crawler: (slug: string) => `https://x.example/crawler/${slug}.json`,
  source: (id: string) => `https://x.example/ip-ranges/${id}.json`,
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
