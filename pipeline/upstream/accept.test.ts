import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptList, neverFetched } from './accept.ts';
import type { MirrorEntry } from './accept.ts';
import { contentTypeFinding, makeAttempt } from './attempt.ts';
import type { SourceRef } from './attempt.ts';
import { sha256Hex } from './fetch.ts';
import type { FetchOutcome } from './fetch.ts';
import { fixture } from './test-server.ts';

const SOURCE: SourceRef = { id: 'example-bot', url: 'https://example.org/bot.json', format: 'prefix-json' };
const T0 = '2026-08-21T00:00:00Z';
const T1 = '2026-08-21T06:00:00Z';
const T2 = '2026-08-21T12:00:00Z';

function okOutcome(body: Uint8Array | string, extra: Partial<Extract<FetchOutcome, { kind: 'ok' }>> = {}): FetchOutcome {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return {
    kind: 'ok',
    bytes,
    sha256: sha256Hex(bytes),
    status: 200,
    etag: '"e1"',
    lastModified: 'Fri, 21 Aug 2026 00:00:00 GMT',
    contentType: 'application/json',
    finalUrl: SOURCE.url,
    attempts: 1,
    ...extra,
  };
}

function accept(previous: MirrorEntry | undefined, outcome: FetchOutcome, now: string, source: SourceRef = SOURCE): MirrorEntry {
  return acceptList(previous, makeAttempt(source, outcome, 'network'), now);
}

function listOf(v4: number, v6 = 0): string {
  const prefixes = [
    ...Array.from({ length: v4 }, (_, i) => ({ ipv4Prefix: `10.${i}.0.0/16` })),
    ...Array.from({ length: v6 }, (_, i) => ({ ipv6Prefix: `2001:db8:${i.toString(16)}::/48` })),
  ];
  return JSON.stringify({ creationTime: '2026-08-21T00:00:00.000000', prefixes });
}

/** The first good copy, from the Google-style fixture. */
function good(): MirrorEntry {
  return accept(undefined, okOutcome(fixture('google-style.json')), T0);
}

function assertKept(entry: MirrorEntry, previous: MirrorEntry, now: string): void {
  assert.equal(entry.state, 'failed');
  assert.deepEqual(entry.ipv4, previous.ipv4);
  assert.deepEqual(entry.ipv6, previous.ipv6);
  assert.equal(entry.upstream_sha256, previous.upstream_sha256);
  assert.equal(entry.upstream_created, previous.upstream_created);
  assert.deepEqual(entry.validators, previous.validators);
  assert.equal(entry.last_success, previous.last_success);
  assert.equal(entry.last_change, previous.last_change);
  assert.equal(entry.last_attempt, now);
}

describe('acceptList', () => {
  test('a first good fetch is accepted, with provenance and validators', () => {
    const entry = good();
    const bytes = fixture('google-style.json');
    assert.deepEqual(entry, {
      id: 'example-bot',
      state: 'ok',
      ipv4: ['34.100.182.96/28', '66.249.64.0/27', '192.178.4.0/27'],
      ipv6: ['2001:4860:4801:10::/64', '2001:4860:4801:12::/64'],
      upstream_created: '2026-08-21T14:45:42.000000',
      upstream_sha256: sha256Hex(bytes),
      last_attempt: T0,
      last_success: T0,
      last_change: T0,
      error: null,
      findings: [],
      validators: { etag: '"e1"', last_modified: 'Fri, 21 Aug 2026 00:00:00 GMT' },
      via: 'network',
      url: 'https://example.org/bot.json',
    });
  });

  test('a new creationTime with the same prefixes is not a change', () => {
    const previous = good();
    const entry = accept(previous, okOutcome(fixture('google-style.next-day.json'), { etag: '"e2"' }), T1);
    assert.equal(entry.state, 'ok');
    assert.equal(entry.last_change, T0);
    assert.equal(entry.last_success, T1);
    assert.equal(entry.upstream_created, '2026-08-22T14:45:42.000000');
    assert.notEqual(entry.upstream_sha256, previous.upstream_sha256);
    assert.equal(entry.validators.etag, '"e2"');
  });

  test('a changed prefix set is a change', () => {
    const entry = accept(good(), okOutcome(fixture('google-style.added.json')), T1);
    assert.equal(entry.last_change, T1);
    assert.deepEqual(entry.ipv4, ['34.100.182.96/28', '66.249.64.0/27', '66.249.64.32/27', '192.178.4.0/27']);
  });

  test('not-modified keeps the prefixes and counts as a success, not a change', () => {
    const previous = { ...good(), findings: ['kept finding'] };
    const entry = accept(previous, { kind: 'not-modified', status: 304, etag: null, lastModified: null, finalUrl: SOURCE.url, attempts: 1 }, T1);
    assert.equal(entry.state, 'ok');
    assert.deepEqual(entry.ipv4, previous.ipv4);
    assert.equal(entry.last_attempt, T1);
    assert.equal(entry.last_success, T1);
    assert.equal(entry.last_change, T0);
    assert.deepEqual(entry.validators, previous.validators);
    assert.deepEqual(entry.findings, ['kept finding']);
    const fresher = accept(previous, { kind: 'not-modified', status: 304, etag: '"e9"', lastModified: null, finalUrl: SOURCE.url, attempts: 1 }, T1);
    assert.equal(fresher.validators.etag, '"e9"');
  });

  test('not-modified after a failure returns to ok', () => {
    const failed = accept(good(), { kind: 'error', code: 'timeout', message: 'slow.', attempts: 3 }, T1);
    const entry = accept(failed, { kind: 'not-modified', status: 304, etag: null, lastModified: null, finalUrl: SOURCE.url, attempts: 1 }, T2);
    assert.equal(entry.state, 'ok');
    assert.equal(entry.error, null);
    assert.deepEqual(entry.ipv4, failed.ipv4);
  });

  test('not-modified with no accepted copy is a failure', () => {
    const entry = accept(undefined, { kind: 'not-modified', status: 304, etag: null, lastModified: null, finalUrl: SOURCE.url, attempts: 1 }, T0);
    assert.equal(entry.state, 'failed');
    assert.match(entry.error ?? '', /no copy of the list was ever accepted/);
  });

  test('a fetch error keeps everything and says why', () => {
    const previous = good();
    const entry = accept(previous, { kind: 'error', code: 'http-status', message: 'https://example.org/bot.json answered HTTP 500; expected 200 (after 3 attempts).', status: 500, attempts: 3 }, T1);
    assertKept(entry, previous, T1);
    assert.equal(entry.error, 'Fetch failed (http-status): https://example.org/bot.json answered HTTP 500; expected 200 (after 3 attempts). The previous 5 prefixes are kept.');
  });

  test('a failure with nothing before says nothing is served', () => {
    const entry = accept(undefined, { kind: 'error', code: 'network', message: 'refused.', attempts: 1 }, T0);
    assert.equal(entry.state, 'failed');
    assert.deepEqual([entry.ipv4, entry.ipv6], [[], []]);
    assert.equal(entry.last_success, null);
    assert.equal(entry.error, 'Fetch failed (network): refused. No earlier copy exists, so nothing is served yet.');
  });

  test('a parse error keeps the previous prefixes', () => {
    const previous = good();
    const entry = accept(previous, okOutcome(fixture('truncated.json')), T1);
    assertKept(entry, previous, T1);
    assert.match(entry.error ?? '', /^Parse failed: The JSON ends early: the body looks truncated .* The previous 5 prefixes are kept\.$/);
  });

  test('an empty list keeps the previous prefixes', () => {
    const previous = good();
    const entry = accept(previous, okOutcome(fixture('empty-list.json')), T1);
    assertKept(entry, previous, T1);
    assert.equal(entry.error, 'The upstream list is empty. The previous 5 prefixes are kept.');
  });

  test('one invalid prefix rejects the whole list', () => {
    const previous = good();
    const entry = accept(previous, okOutcome(fixture('invalid-cidr.json')), T1);
    assertKept(entry, previous, T1);
    assert.equal(entry.error, 'The list holds 2 invalid prefixes: "198.51.100.0/33", "not-an-ip". The previous 5 prefixes are kept.');
    assert.match(entry.findings.join('\n'), /the prefix length is over 32/);
  });

  test('a 90% shrink is implausible', () => {
    const previous = accept(undefined, okOutcome(fixture('twenty.json')), T0);
    const entry = accept(previous, okOutcome(fixture('twenty-shrunk.json')), T1);
    assertKept(entry, previous, T1);
    assert.equal(entry.error, 'Implausible shrink: the list went from 20 to 2 prefixes, losing more than 50% at once. The previous 20 prefixes are kept.');
  });

  test('the shrink threshold: exactly half is accepted, under half is not', () => {
    const previous = accept(undefined, okOutcome(listOf(20)), T0);
    assert.equal(accept(previous, okOutcome(listOf(10)), T1).state, 'ok');
    assert.equal(accept(previous, okOutcome(listOf(9)), T1).state, 'failed');
    // The threshold is a parameter.
    const strict = acceptList(previous, makeAttempt(SOURCE, okOutcome(listOf(15)), 'network'), T1, { maxShrinkRatio: 0.2 });
    assert.equal(strict.state, 'failed');
  });

  test('a vanished IPv6 half is caught even when the total looks fine', () => {
    const previous = accept(undefined, okOutcome(listOf(30, 20)), T0);
    const entry = accept(previous, okOutcome(listOf(30, 0)), T1);
    assertKept(entry, previous, T1);
    assert.equal(entry.error, 'Implausible shrink: the IPv6 list went from 20 to 0 prefixes, losing more than 50% at once. The previous 50 prefixes are kept.');
  });

  test('a small family may lose its only prefix', () => {
    const previous = accept(undefined, okOutcome(listOf(4, 1)), T0);
    const entry = accept(previous, okOutcome(listOf(4, 0)), T1);
    assert.equal(entry.state, 'ok');
    assert.deepEqual(entry.ipv6, []);
  });

  test('growth of any size is accepted', () => {
    const previous = accept(undefined, okOutcome(listOf(2)), T0);
    assert.equal(accept(previous, okOutcome(listOf(200)), T1).state, 'ok');
  });

  test('a good list after failures is accepted against the last good copy', () => {
    const first = accept(undefined, okOutcome(listOf(20)), T0);
    const failed = accept(first, okOutcome(listOf(2)), T1);
    assert.equal(failed.state, 'failed');
    const recovered = accept(failed, okOutcome(listOf(21)), T2);
    assert.equal(recovered.state, 'ok');
    assert.equal(recovered.error, null);
    assert.equal(recovered.last_change, T2);
    assert.equal(recovered.ipv4.length, 21);
  });

  test('findings of an accepted list are kept, tolerated quirks included', () => {
    const entry = accept(undefined, okOutcome(fixture('trailing-comma.json'), { contentType: 'text/plain' }), T0);
    assert.equal(entry.state, 'ok');
    assert.deepEqual(entry.findings, [
      'The response is labelled "text/plain"; expected application/json.',
      '3 trailing commas before "]" or "}" (not valid JSON) tolerated.',
    ]);
  });

  test('a redirect is reported in the findings', () => {
    const entry = accept(undefined, okOutcome(fixture('google-style.json'), { finalUrl: 'https://example.org/new.json' }), T0);
    assert.deepEqual(entry.findings, ['https://example.org/bot.json redirects to https://example.org/new.json; the source URL may need updating.']);
  });

  test('an invalid policy is refused', () => {
    assert.throws(() => acceptList(undefined, makeAttempt(SOURCE, okOutcome(listOf(1)), 'network'), T0, { maxShrinkRatio: 2 }), RangeError);
  });

  test('neverFetched is the empty starting entry', () => {
    const entry = neverFetched('x', 'https://example.org/x.json');
    assert.equal(entry.state, 'never-fetched');
    assert.equal(accept(entry, okOutcome(listOf(3)), T0, { ...SOURCE, id: 'x', url: 'https://example.org/x.json' }).last_change, T0);
  });
});

describe('contentTypeFinding', () => {
  test('expected types pass; others are reported', () => {
    assert.equal(contentTypeFinding('prefix-json', 'application/json; charset=utf-8'), null);
    assert.equal(contentTypeFinding('prefix-json', 'application/vnd.example+json'), null);
    assert.equal(contentTypeFinding('prefix-json-html', 'text/html;charset=UTF-8'), null);
    assert.equal(contentTypeFinding('prefix-json', 'text/html'), 'The response is labelled "text/html"; expected application/json.');
    assert.equal(contentTypeFinding('text', null), 'The response has no Content-Type; expected text/plain.');
    assert.equal(contentTypeFinding('csv', 'text/plain'), null);
  });
});
