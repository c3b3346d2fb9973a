import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DEFAULT_USER_AGENT, fetchUpstream } from './fetch.ts';
import type { FetchOptions, FetchOutcome } from './fetch.ts';
import {
  bytes,
  conditional,
  file,
  fixture,
  gzipped,
  hang,
  large,
  redirect,
  reset,
  sequence,
  stallBody,
  startUpstreamServer,
  status,
} from '../../test/support/upstream-server.ts';
import type { UpstreamServer } from '../../test/support/upstream-server.ts';

// Fast but real: retries happen, with a 1 ms base delay.
const FAST: FetchOptions = { attempts: 3, baseDelayMs: 1, timeoutMs: 2_000 };

function expectError(outcome: FetchOutcome): Extract<FetchOutcome, { kind: 'error' }> {
  assert.equal(outcome.kind, 'error', `expected an error outcome, got ${outcome.kind}`);
  return outcome as Extract<FetchOutcome, { kind: 'error' }>;
}

function expectOk(outcome: FetchOutcome): Extract<FetchOutcome, { kind: 'ok' }> {
  assert.equal(outcome.kind, 'ok', `expected ok, got ${JSON.stringify(outcome)}`);
  return outcome as Extract<FetchOutcome, { kind: 'ok' }>;
}

describe('fetchUpstream against a real local server', () => {
  let server: UpstreamServer;
  before(async () => {
    server = await startUpstreamServer({
      '/ok': file('google-style.json', 'application/json; charset=utf-8', { etag: '"v1"', 'last-modified': 'Fri, 21 Aug 2026 14:45:42 GMT' }),
      '/500': status(500),
      '/503-then-200': sequence(status(503), file('google-style.json')),
      '/404': status(404),
      '/429': status(429),
      '/hang': hang(),
      '/stall-body': stallBody(),
      '/reset': reset(),
      '/reset-then-200': sequence(reset(), file('google-style.json')),
      '/large-announced': large(64 * 1024, true),
      '/large-chunked': large(64 * 1024, false),
      '/small-chunked': large(1000, false),
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a', 302),
      '/self': redirect('/self'),
      '/old': redirect('/new', 301),
      '/new': file('google-style.json'),
      '/chain-0': redirect('/chain-1'),
      '/chain-1': redirect('/chain-2'),
      '/chain-2': redirect('/chain-3'),
      '/chain-3': redirect('/new'),
      '/no-location': (_req, res) => void res.writeHead(302).end(),
      '/to-ftp': redirect('ftp://127.0.0.1/x'),
      '/conditional': conditional('google-style.json', '"abc"', 'Fri, 21 Aug 2026 14:45:42 GMT'),
      '/304-always': status(304, ''),
      '/gzip': gzipped('google-style.json'),
      '/gzip-bomb': bytes(gzipSync(Buffer.alloc(512 * 1024, 0x20)), { 'content-encoding': 'gzip' }),
      '/bad-gzip': bytes('not gzip at all', { 'content-encoding': 'gzip' }),
      '/zstd': bytes('whatever', { 'content-encoding': 'zstd' }),
      '/no-type': (_req, res) => void res.writeHead(200).end('{"prefixes": []}'),
      '/204': status(204, ''),
    });
  });
  after(() => server.close());

  test('a 200 gives the bytes, their sha-256, the validators and the content type', async () => {
    const ok = expectOk(await fetchUpstream(server.url('/ok'), FAST));
    const expected = fixture('google-style.json');
    assert.deepEqual(Buffer.from(ok.bytes), expected);
    assert.equal(ok.sha256, createHash('sha256').update(expected).digest('hex'));
    assert.equal(ok.status, 200);
    assert.equal(ok.etag, '"v1"');
    assert.equal(ok.lastModified, 'Fri, 21 Aug 2026 14:45:42 GMT');
    assert.equal(ok.contentType, 'application/json; charset=utf-8');
    assert.equal(ok.finalUrl, server.url('/ok'));
    assert.equal(ok.attempts, 1);
  });

  test('the User-Agent names the project and its URL; it can be overridden', async () => {
    await fetchUpstream(server.url('/ok'), FAST);
    await fetchUpstream(server.url('/ok'), { ...FAST, userAgent: 'Other/2.0 (+https://example.org)' });
    const agents = server.headers('/ok').map((h) => h['user-agent']);
    assert.equal(agents.at(-2), DEFAULT_USER_AGENT);
    assert.match(DEFAULT_USER_AGENT, /^CrawlerIndex\/1\.0 \(\+https:\/\/github\.com\/crawler-index\/crawler-index\)$/);
    assert.equal(agents.at(-1), 'Other/2.0 (+https://example.org)');
  });

  test('500 is retried up to the attempt limit, then reported', async () => {
    const error = expectError(await fetchUpstream(server.url('/500'), FAST));
    assert.equal(error.code, 'http-status');
    assert.equal(error.status, 500);
    assert.equal(error.attempts, 3);
    assert.equal(server.hits('/500'), 3);
    assert.match(error.message, /answered HTTP 500; expected 200 \(after 3 attempts\)\.$/);
  });

  test('503 then 200: the retry succeeds', async () => {
    const ok = expectOk(await fetchUpstream(server.url('/503-then-200'), FAST));
    assert.equal(ok.attempts, 2);
    assert.deepEqual(Buffer.from(ok.bytes), fixture('google-style.json'));
  });

  test('404 and 429 are not retried', async () => {
    const notFound = expectError(await fetchUpstream(server.url('/404'), FAST));
    assert.equal(notFound.code, 'http-status');
    assert.equal(notFound.status, 404);
    assert.equal(server.hits('/404'), 1);
    assert.equal(notFound.attempts, 1);
    assert.match(notFound.message, /answered HTTP 404; expected 200\.$/);
    expectError(await fetchUpstream(server.url('/429'), FAST));
    assert.equal(server.hits('/429'), 1);
  });

  test('other non-200 answers are errors, not empty bodies', async () => {
    const error = expectError(await fetchUpstream(server.url('/204'), FAST));
    assert.equal(error.status, 204);
  });

  test('no answer within the deadline is a timeout (and retried)', async () => {
    const error = expectError(await fetchUpstream(server.url('/hang'), { attempts: 2, baseDelayMs: 1, timeoutMs: 150 }));
    assert.equal(error.code, 'timeout');
    assert.equal(server.hits('/hang'), 2);
    assert.match(error.message, /did not answer in full within 150 ms/);
  });

  test('a body that stalls after the headers is a timeout too', async () => {
    const error = expectError(await fetchUpstream(server.url('/stall-body'), { attempts: 1, timeoutMs: 150 }));
    assert.equal(error.code, 'timeout');
  });

  test('a reset connection is a network error, retried', async () => {
    const error = expectError(await fetchUpstream(server.url('/reset'), FAST));
    assert.equal(error.code, 'network');
    assert.equal(server.hits('/reset'), 3);
    assert.match(error.message, /^Could not fetch http:\/\/127\.0\.0\.1:\d+\/reset: /);
    const ok = expectOk(await fetchUpstream(server.url('/reset-then-200'), FAST));
    assert.equal(ok.attempts, 2);
  });

  test('a refused connection is a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = expectError(await fetchUpstream(`http://127.0.0.1:${port}/x`, { attempts: 1 }));
    assert.equal(error.code, 'network');
    assert.match(error.message, /ECONNREFUSED/);
  });

  test('a body over the limit is refused, announced or not, and never retried', async () => {
    const announced = expectError(await fetchUpstream(server.url('/large-announced'), { ...FAST, maxBytes: 10_000 }));
    assert.equal(announced.code, 'too-large');
    assert.match(announced.message, /announced 65536 bytes, over the 10000-byte limit/);
    const streamed = expectError(await fetchUpstream(server.url('/large-chunked'), { ...FAST, maxBytes: 10_000 }));
    assert.equal(streamed.code, 'too-large');
    assert.match(streamed.message, /sent more than 10000 bytes; the download was stopped/);
    assert.equal(server.hits('/large-chunked'), 1);
    // Under the limit, the same route is fine.
    const ok = expectOk(await fetchUpstream(server.url('/small-chunked'), { ...FAST, maxBytes: 10_000 }));
    assert.equal(ok.bytes.byteLength, 1000);
  });

  test('a redirect loop is an error, not retried', async () => {
    const error = expectError(await fetchUpstream(server.url('/loop-a'), FAST));
    assert.equal(error.code, 'redirect-loop');
    assert.match(error.message, /^Redirect loop: .*\/loop-b sends us back to .*\/loop-a\.$/);
    assert.equal(server.hits('/loop-a'), 1);
    assert.equal(expectError(await fetchUpstream(server.url('/self'), FAST)).code, 'redirect-loop');
  });

  test('a redirect then 200 follows to the final URL', async () => {
    const ok = expectOk(await fetchUpstream(server.url('/old'), FAST));
    assert.equal(ok.finalUrl, server.url('/new'));
    assert.deepEqual(Buffer.from(ok.bytes), fixture('google-style.json'));
  });

  test('redirects are bounded', async () => {
    expectOk(await fetchUpstream(server.url('/chain-0'), { ...FAST, maxRedirects: 4 }));
    const error = expectError(await fetchUpstream(server.url('/chain-0'), { ...FAST, maxRedirects: 3 }));
    assert.equal(error.code, 'too-many-redirects');
    assert.match(error.message, /More than 3 redirects/);
  });

  test('broken redirects are errors', async () => {
    assert.equal(expectError(await fetchUpstream(server.url('/no-location'), FAST)).code, 'bad-redirect');
    assert.equal(expectError(await fetchUpstream(server.url('/to-ftp'), FAST)).code, 'bad-redirect');
  });

  test('validators are sent; 304 is not-modified with the fresh validators', async () => {
    const first = expectOk(await fetchUpstream(server.url('/conditional'), FAST));
    assert.equal(first.etag, '"abc"');
    const second = await fetchUpstream(server.url('/conditional'), {
      ...FAST,
      validators: { etag: first.etag, lastModified: first.lastModified },
    });
    assert.deepEqual(second, {
      kind: 'not-modified',
      status: 304,
      etag: '"abc"',
      lastModified: 'Fri, 21 Aug 2026 14:45:42 GMT',
      finalUrl: server.url('/conditional'),
      attempts: 1,
    });
    const sent = server.headers('/conditional').at(-1);
    assert.equal(sent?.['if-none-match'], '"abc"');
    assert.equal(sent?.['if-modified-since'], 'Fri, 21 Aug 2026 14:45:42 GMT');
    assert.equal(server.headers('/conditional').at(0)?.['if-none-match'], undefined);
  });

  test('a 304 to an unconditional request is an error', async () => {
    const error = expectError(await fetchUpstream(server.url('/304-always'), FAST));
    assert.equal(error.code, 'http-status');
    assert.match(error.message, /304 Not Modified to a request that was not conditional/);
  });

  test('a compressed body is decoded, within the size limit', async () => {
    const ok = expectOk(await fetchUpstream(server.url('/gzip'), FAST));
    assert.deepEqual(Buffer.from(ok.bytes), fixture('google-style.json'));
    const bomb = expectError(await fetchUpstream(server.url('/gzip-bomb'), { ...FAST, maxBytes: 64 * 1024 }));
    assert.equal(bomb.code, 'too-large');
    assert.equal(expectError(await fetchUpstream(server.url('/bad-gzip'), FAST)).code, 'bad-encoding');
    assert.match(expectError(await fetchUpstream(server.url('/zstd'), FAST)).message, /unsupported Content-Encoding "zstd"/);
  });

  test('a missing Content-Type is captured as null', async () => {
    assert.equal(expectOk(await fetchUpstream(server.url('/no-type'), FAST)).contentType, null);
  });

  test('bad URLs and bad options are reported up front', async () => {
    assert.equal(expectError(await fetchUpstream('not a url', FAST)).code, 'invalid-url');
    assert.equal(expectError(await fetchUpstream('file:///etc/passwd', FAST)).code, 'invalid-url');
    await assert.rejects(fetchUpstream(server.url('/ok'), { maxBytes: 0 }), RangeError);
    await assert.rejects(fetchUpstream(server.url('/ok'), { attempts: -1 }), RangeError);
  });
});
