import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptList, neverFetched } from './accept.ts';
import type { MirrorEntry } from './accept.ts';
import { contentTypeFinding, makeAttempt } from './attempt.ts';
import type { SourceRef } from './attempt.ts';
import { sha256Hex } from '../util/sha256.ts';
import type { FetchOutcome } from './fetch.ts';
import { fixture } from '../../test/support/upstream-server.ts';

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

/** A list of public prefixes (accept.ts refuses documentation and private space), /24s and /64s as in real lists. */
function listOf(v4: number, v6 = 0): string {
  const prefixes = [
    ...Array.from({ length: v4 }, (_, i) => ({ ipv4Prefix: `34.${i >> 8}.${i & 255}.0/24` })),
    ...Array.from({ length: v6 }, (_, i) => ({ ipv6Prefix: `2600:1f00:${i.toString(16)}::/64` })),
  ];
  return JSON.stringify({ creationTime: '2026-08-21T00:00:00.000000', prefixes });
}

function listOfPrefixes(prefixes: readonly string[]): string {
  return JSON.stringify({
    creationTime: '2026-08-21T00:00:00.000000',
    prefixes: prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })),
  });
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
    const entry = accept(
      previous,
      {
        kind: 'error',
        code: 'http-status',
        message: 'https://example.org/bot.json answered HTTP 500; expected 200 (after 3 attempts).',
        status: 500,
        attempts: 3,
      },
      T1,
    );
    assertKept(entry, previous, T1);
    assert.equal(
      entry.error,
      'Fetch failed (http-status): https://example.org/bot.json answered HTTP 500; expected 200 (after 3 attempts). The previous 5 prefixes are kept.',
    );
  });

  test('a failure with nothing before says nothing is served', () => {
    const entry = accept(undefined, { kind: 'error', code: 'network', message: 'refused.', attempts: 1 }, T0);
    assert.equal(entry.state, 'failed');
    assert.deepEqual([entry.ipv4, entry.ipv6], [[], []]);
    assert.equal(entry.last_success, null);
    assert.equal(entry.error, 'Fetch failed (network): refused. No earlier copy exists, so no prefix is served yet.');
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

  test('growth in prefixes is accepted while the address space stays plausible (address-space.ts)', () => {
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

  test('a placeholder or private list is refused, naming each prefix and why (docs/API.md §2.3)', () => {
    const previous = good();
    const entry = accept(previous, okOutcome(listOfPrefixes(['0.0.0.0/0', '10.0.0.0/8', '127.0.0.0/8', '66.249.64.0/27'])), T1);
    assertKept(entry, previous, T1);
    assert.equal(
      entry.error,
      'The list holds 3 prefixes that cannot be a crawler\'s public addresses: "0.0.0.0/0" is wider than /8, the most any one organisation holds; "10.0.0.0/8" is in private space 10.0.0.0/8; "127.0.0.0/8" is in loopback space 127.0.0.0/8. The previous 5 prefixes are kept.',
    );
  });

  test('every kind of non-public space is refused, IPv4 and IPv6, embedded IPv4 included', () => {
    const cases: Array<[string, RegExp]> = [
      ['192.168.1.0/24', /private space 192\.168\.0\.0\/16/],
      ['172.0.0.0/8', /private space 172\.16\.0\.0\/12/], // unicast at its start, private inside
      ['169.254.0.0/16', /linkLocal/],
      ['100.64.0.0/10', /carrierGradeNat/],
      ['224.0.0.0/4', /wider than \/8/],
      ['239.1.0.0/16', /multicast/],
      ['240.0.0.0/8', /reserved space 240\.0\.0\.0\/4/],
      ['255.255.255.255/32', /reserved/],
      ['198.51.100.0/24', /documentation/],
      ['::/0', /wider than \/19/],
      ['::1/128', /outside global unicast space 2000::\/3 \(loopback\)/],
      ['fc00::/7', /wider than \/19/],
      ['fd00::/48', /outside global unicast space 2000::\/3 \(uniqueLocal\)/],
      ['fe80::/64', /outside global unicast space 2000::\/3 \(linkLocal\)/],
      ['ff02::1/128', /outside global unicast space 2000::\/3 \(multicast\)/],
      // normalise.ts publishes IPv4-mapped prefixes as the IPv4 they map, judged as such.
      ['::ffff:0:0/96', /^"0\.0\.0\.0\/0" is wider than \/8/],
      ['::ffff:10.0.0.0/104', /^"10\.0\.0\.0\/8" is in private space/],
      ['::ffff:0:0:0/96', /outside global unicast space 2000::\/3 \(rfc6145\)/],
      ['64:ff9b::/96', /outside global unicast space 2000::\/3 \(rfc6052\)/],
      ['::/80', /outside global unicast/],
      ['2002:a00::/24', /6to4 space 2002::\/16/], // 6to4 of 10.0.0.0/8
      ['2001::/32', /Teredo/],
      ['2001:db8::/32', /documentation/],
      ['2620:4f::/32', /as112v6 space 2620:4f:8000::\/48/], // public at its start, AS112 inside
      ['3fff::/20', /documentation\) space 3fff::\/20/],
    ];
    for (const [prefix, reason] of cases) {
      const entry = accept(undefined, okOutcome(listOfPrefixes([prefix, '66.249.64.0/27'])), T0);
      assert.equal(entry.state, 'failed', prefix);
      assert.deepEqual([entry.ipv4, entry.ipv6], [[], []], `${prefix}: nothing served`);
      const named = /: (".*?" is [^;]*?)\. No earlier copy/.exec(entry.error ?? '')?.[1] ?? entry.error ?? '';
      assert.match(named, reason, `${prefix}: ${entry.error}`);
    }
  });

  test('the widest real prefixes pass the bounds; one bit wider does not', () => {
    // A /8 and a /19 pass one by one; the list as a whole is judged by address-space.ts.
    const unbounded = { spaceBounds: { maxAddresses: { ipv4: 2n ** 32n, ipv6: 2n ** 128n }, maxGrowthFactor: 16, growthFloor: { ipv4: 0n, ipv6: 0n } } };
    const wide = okOutcome(listOfPrefixes(['17.0.0.0/8', '2003::/19', '34.64.0.0/16']));
    assert.equal(acceptList(undefined, makeAttempt(SOURCE, wide, 'network'), T0, unbounded).state, 'ok');
    assert.match(accept(undefined, wide, T0).error ?? '', /^The list covers 16,842,752 IPv4 addresses, more than the 4,194,304/);
    assert.match(accept(undefined, okOutcome(listOfPrefixes(['16.0.0.0/7'])), T0).error ?? '', /"16\.0\.0\.0\/7" is wider than \/8/);
    assert.match(accept(undefined, okOutcome(listOfPrefixes(['2000::/18'])), T0).error ?? '', /"2000::\/18" is wider than \/19/);
    // The bounds are a parameter.
    const strict = acceptList(undefined, makeAttempt(SOURCE, okOutcome(listOfPrefixes(['34.64.0.0/16'])), 'network'), T0, {
      prefixBounds: { ipv4: 20, ipv6: 32 },
    });
    assert.match(strict.error ?? '', /"34\.64\.0\.0\/16" is wider than \/20/);
  });

  test('more than five offending prefixes: five named, the rest counted', () => {
    const entry = accept(undefined, okOutcome(listOfPrefixes(Array.from({ length: 8 }, (_, i) => `10.${i}.0.0/16`))), T0);
    assert.match(entry.error ?? '', /^The list holds 8 prefixes that .*"10\.4\.0\.0\/16" is in private space 10\.0\.0\.0\/8 and 3 more\. No earlier copy/);
  });

  test('upstream text is quoted cut and on one line, however long or broken (docs/PRINCIPLES.md §6)', () => {
    const long = 'x'.repeat(200_000);
    const invalid = accept(undefined, okOutcome(listOfPrefixes([long])), T0);
    assert.ok((invalid.error ?? '').length < 1_100, `error is ${invalid.error?.length} characters`);
    assert.match(invalid.error ?? '', /"x{80}"… \(199920 more characters\)/);
    for (const finding of invalid.findings) assert.ok(finding.length <= 1_000, `finding of ${finding.length} characters`);

    const creation = accept(undefined, okOutcome(JSON.stringify({ creationTime: long, prefixes: [{ ipv4Prefix: '66.249.64.0/27' }] })), T0);
    assert.equal(creation.state, 'ok');
    assert.equal(creation.upstream_created, null, 'a 200,000-character creationTime is not published');
    assert.match(creation.findings.join('\n'), /"creationTime" is 200000 characters long, too long for a date string; ignored/);

    const keys = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key-${i}-${'k'.repeat(300)}`, 1]));
    const noPrefixes = accept(undefined, okOutcome(JSON.stringify(keys)), T0);
    assert.ok((noPrefixes.error ?? '').length < 1_100);
    assert.match(noPrefixes.error ?? '', /and 4995 more\)/);

    const extraKeys = accept(
      undefined,
      okOutcome(JSON.stringify({ prefixes: Array.from({ length: 100 }, (_, i) => ({ ipv4Prefix: `66.249.64.${i}/32`, [`extra${i}`]: 1 })) })),
      T0,
    );
    assert.equal(extraKeys.findings.length, 20, 'at most 20 findings');
    assert.match(extraKeys.findings.at(-1) ?? '', /^…and \d+ more findings not shown\.$/);

    // A JSON.parse message repeats the body, line breaks included: they must not survive.
    const broken = accept(undefined, okOutcome('x\n8.8.8.8/32\nrest'), T0);
    assert.match(broken.error ?? '', /^Parse failed: /);
    assert.doesNotMatch(broken.error ?? '', /[\n\r]/);
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
