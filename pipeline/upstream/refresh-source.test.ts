// End to end over real sockets: an upstream server plays each fault, and the mirror entry
// that comes out must still serve the last good prefixes, with an error saying why.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { MirrorEntry } from './accept.ts';
import type { SourceRef } from './attempt.ts';
import type { FetchOptions } from './fetch.ts';
import { refreshSource } from './refresh-source.ts';
import { conditional, file, hang, large, redirect, reset, sequence, startUpstreamServer, status } from '../../test/support/upstream-server.ts';
import type { UpstreamServer } from '../../test/support/upstream-server.ts';

const SOURCE: SourceRef = { id: 'google-googlebot', url: 'https://developers.google.com/static/crawling/ipranges/common-crawlers.json', format: 'prefix-json' };
const T0 = '2026-08-21T00:00:00Z';
const T1 = '2026-08-21T06:00:00Z';
const FAST: Omit<FetchOptions, 'validators'> = { attempts: 3, baseDelayMs: 1, timeoutMs: 2_000, maxBytes: 16 * 1024 };

describe('refreshSource: last good wins, over real HTTP', () => {
  let server: UpstreamServer;
  let good: MirrorEntry;
  let twenty: MirrorEntry;

  const refresh = (
    path: string,
    previous: MirrorEntry | undefined,
    fetch: Omit<FetchOptions, 'validators'> = FAST,
    source: SourceRef = SOURCE,
  ): Promise<MirrorEntry> => refreshSource(source, previous, { now: T1, fetchUrl: server.url(path), fetch });

  before(async () => {
    server = await startUpstreamServer({
      '/good': file('google-style.json', 'application/json', { etag: '"g1"' }),
      '/twenty': file('twenty.json'),
      '/500': status(500),
      '/503-then-200': sequence(status(503), file('google-style.added.json')),
      '/404': status(404),
      '/hang': hang(),
      '/reset': reset(),
      '/garbage': file('garbage.bin', 'application/json'),
      '/garbage-text': file('garbage.txt', 'text/plain'),
      '/truncated': file('truncated.json'),
      '/empty': file('empty-list.json'),
      '/shrunk': file('twenty-shrunk.json'),
      '/oversize': large(64 * 1024, false),
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a'),
      '/moved': redirect('/next-day', 301),
      '/next-day': file('google-style.next-day.json'),
      '/invalid': file('invalid-cidr.json'),
      '/html': file('html-no-json.html', 'text/html; charset=utf-8'),
      '/conditional': conditional('google-style.json', '"c1"', 'Fri, 21 Aug 2026 14:45:42 GMT'),
      '/amazon': file('amazon-style.html', 'text/html; charset=utf-8'),
    });
    good = await refreshSource(SOURCE, undefined, { now: T0, fetchUrl: server.url('/good'), fetch: FAST });
    twenty = await refreshSource(SOURCE, undefined, { now: T0, fetchUrl: server.url('/twenty'), fetch: FAST });
  });
  after(() => server.close());

  test('the starting copies are good', () => {
    assert.equal(good.state, 'ok');
    assert.equal(good.ipv4.length + good.ipv6.length, 5);
    assert.equal(good.url, SOURCE.url, 'the entry names the configured URL, not the test server');
    assert.equal(good.via, 'upstream-base');
    assert.equal(twenty.ipv4.length, 20);
  });

  // Every fault: the previous prefixes survive and the error says why.
  const faults: Array<{ name: string; path: string; error: RegExp; previous?: () => MirrorEntry; fetch?: Omit<FetchOptions, 'validators'> }> = [
    {
      name: '500, retried then given up',
      path: '/500',
      error:
        /^Fetch failed \(http-status\): http:\/\/127\.0\.0\.1:\d+\/500 answered HTTP 500; expected 200 \(after 3 attempts\)\. The previous 5 prefixes are kept\.$/,
    },
    {
      name: '404, not retried',
      path: '/404',
      error: /^Fetch failed \(http-status\): .*\/404 answered HTTP 404; expected 200\. The previous 5 prefixes are kept\.$/,
    },
    {
      name: 'timeout',
      path: '/hang',
      error: /^Fetch failed \(timeout\): .*\/hang did not answer in full within 150 ms \(after 2 attempts\)\./,
      fetch: { ...FAST, attempts: 2, timeoutMs: 150 },
    },
    { name: 'connection reset', path: '/reset', error: /^Fetch failed \(network\): Could not fetch .*\/reset: .*\(after 3 attempts\)\./ },
    {
      name: 'garbage bytes',
      path: '/garbage',
      error: /^Parse failed: The body is not valid UTF-8 text \(binary or garbage\?\)\. The previous 5 prefixes are kept\.$/,
    },
    { name: 'garbage text', path: '/garbage-text', error: /^Parse failed: The body is not valid JSON: / },
    { name: 'truncated JSON', path: '/truncated', error: /^Parse failed: The JSON ends early: the body looks truncated/ },
    { name: 'empty list', path: '/empty', error: /^The upstream list is empty\. The previous 5 prefixes are kept\.$/ },
    {
      name: '90% shrink',
      path: '/shrunk',
      error: /^Implausible shrink: the list went from 20 to 2 prefixes, losing more than 50% at once\. The previous 20 prefixes are kept\.$/,
      previous: () => twenty,
    },
    { name: 'oversize body', path: '/oversize', error: /^Fetch failed \(too-large\): .*\/oversize sent more than 16384 bytes; the download was stopped\./ },
    { name: 'redirect loop', path: '/loop-a', error: /^Fetch failed \(redirect-loop\): Redirect loop: .*\/loop-b sends us back to .*\/loop-a\./ },
    {
      name: 'invalid CIDR',
      path: '/invalid',
      error: /^The list holds 2 invalid prefixes: "198\.51\.100\.0\/33", "not-an-ip"\. The previous 5 prefixes are kept\.$/,
    },
    { name: 'HTML where JSON is expected', path: '/html', error: /^Parse failed: Expected JSON but the body is HTML or XML \(it starts "<!DOCTYPE html>/ },
  ];

  for (const fault of faults) {
    test(`${fault.name}: no prefix lost`, async () => {
      const previous = fault.previous?.() ?? good;
      const entry = await refresh(fault.path, previous, fault.fetch);
      assert.equal(entry.state, 'failed');
      assert.deepEqual(entry.ipv4, previous.ipv4);
      assert.deepEqual(entry.ipv6, previous.ipv6);
      assert.equal(entry.upstream_sha256, previous.upstream_sha256);
      assert.equal(entry.last_success, T0);
      assert.equal(entry.last_attempt, T1);
      assert.match(entry.error ?? '', fault.error);
    });
  }

  test('retry counts: 500 tried 3 times, 404 once', () => {
    assert.equal(server.hits('/500'), 3);
    assert.equal(server.hits('/404'), 1);
  });

  test('HTML where JSON is expected also notes the Content-Type', async () => {
    const entry = await refresh('/html', good);
    assert.ok(entry.findings.includes('The response is labelled "text/html; charset=utf-8"; expected application/json.'));
  });

  test('503 then 200: the retry brings the new list', async () => {
    const entry = await refresh('/503-then-200', good);
    assert.equal(entry.state, 'ok');
    assert.equal(entry.error, null);
    assert.equal(entry.ipv4.length, 4);
    assert.equal(entry.last_change, T1);
  });

  test('redirect then 200: accepted, the redirect reported, and no change for a new creationTime', async () => {
    const entry = await refresh('/moved', good);
    assert.equal(entry.state, 'ok');
    assert.deepEqual(entry.ipv4, good.ipv4);
    assert.equal(entry.upstream_created, '2026-08-22T14:45:42.000000');
    assert.equal(entry.last_change, T0);
    assert.match(entry.findings[0] ?? '', /\/moved redirects to http:\/\/127\.0\.0\.1:\d+\/next-day; the source URL may need updating\.$/);
  });

  test('304 on a conditional request keeps the prefixes and counts as success', async () => {
    const first = await refreshSource(SOURCE, undefined, { now: T0, fetchUrl: server.url('/conditional'), fetch: FAST });
    assert.equal(first.validators.etag, '"c1"');
    const second = await refresh('/conditional', first);
    assert.equal(server.headers('/conditional').at(-1)?.['if-none-match'], '"c1"');
    assert.equal(second.state, 'ok');
    assert.deepEqual(second.ipv4, first.ipv4);
    assert.deepEqual(second.ipv6, first.ipv6);
    assert.equal(second.last_success, T1);
    assert.equal(second.last_change, T0);
    assert.equal(second.upstream_sha256, first.upstream_sha256);
  });

  test('validators are not sent for a source that never succeeded', async () => {
    const failedFirst = await refresh('/404', undefined);
    await refresh('/conditional', { ...failedFirst, validators: { etag: '"c1"', last_modified: null } });
    assert.equal(server.headers('/conditional').at(-1)?.['if-none-match'], undefined);
  });

  test('Amazon-style HTML page through the prefix-json-html parser', async () => {
    const amazon: SourceRef = { id: 'amazon-amazonbot', url: 'https://developer.amazon.com/amazonbot/ip-addresses/', format: 'prefix-json-html' };
    const entry = await refresh('/amazon', undefined, FAST, amazon);
    assert.equal(entry.state, 'ok');
    assert.deepEqual(entry.ipv4, ['3.81.245.78/32', '52.70.240.171/32', '100.24.149.244/32']);
    assert.equal(entry.upstream_created, '2026-04-30T00:00:00.000000+00:00');
    assert.deepEqual(entry.findings, ['2 entries are bare addresses without a prefix length, read as /32: "3.81.245.78", "52.70.240.171".']);
  });
});
