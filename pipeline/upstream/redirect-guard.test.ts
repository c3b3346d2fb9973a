// Redirects leaving the configured origin go only to https on public addresses. Tested over
// real sockets on 127.0.0.1: the redirect targets are loopback ports that count connections,
// so "refused" means no connection was ever made, not just that the answer was dropped.

import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fetchUpstream } from './fetch.ts';
import type { FetchOutcome } from './fetch.ts';
import { NotPublicAddressError, publicOnlyLookup, redirectProblem } from './redirect-guard.ts';
import type { Resolve } from './redirect-guard.ts';
import { file, redirect, startUpstreamServer } from '../../test/support/upstream-server.ts';
import type { UpstreamServer } from '../../test/support/upstream-server.ts';

const FAST = { attempts: 2, baseDelayMs: 1, timeoutMs: 2_000 };

function expectError(outcome: FetchOutcome): Extract<FetchOutcome, { kind: 'error' }> {
  if (outcome.kind !== 'error') assert.fail(`expected an error, got ${outcome.kind}`);
  return outcome;
}

describe('redirectProblem', () => {
  const configured = new URL('http://127.0.0.1:8000/list');
  test('the configured origin is trusted as configured', () => {
    assert.equal(redirectProblem(new URL('http://127.0.0.1:8000/elsewhere'), configured), null);
  });
  test('off the origin: https only', () => {
    assert.match(redirectProblem(new URL('http://127.0.0.1:8001/'), configured) ?? '', /followed only to https/);
    assert.match(redirectProblem(new URL('http://example.org/'), configured) ?? '', /followed only to https/);
  });
  test('off the origin: an address literal must be public', () => {
    assert.equal(
      redirectProblem(new URL('https://127.0.0.1:8001/'), configured),
      '127.0.0.1 is in loopback space 127.0.0.0/8; redirects are followed only to public addresses',
    );
    assert.match(redirectProblem(new URL('https://[::1]/'), configured) ?? '', /^::1 is outside global unicast/);
    assert.match(redirectProblem(new URL('https://[::ffff:7f00:1]/'), configured) ?? '', /loopback space 127\.0\.0\.0\/8/);
    assert.match(redirectProblem(new URL('https://0x7f.1/'), configured) ?? '', /^127\.0\.0\.1 is in loopback/, 'URL parsing normalises IPv4 forms first');
    assert.match(redirectProblem(new URL('https://169.254.169.254/latest/meta-data/'), configured) ?? '', /linkLocal/);
    assert.match(redirectProblem(new URL('https://10.0.0.1/'), configured) ?? '', /private/);
    assert.equal(redirectProblem(new URL('https://8.8.8.8/'), configured), null);
    // A name is judged by the connection's own lookup (publicOnlyLookup).
    assert.equal(redirectProblem(new URL('https://example.org/'), configured), null);
  });
});

describe('publicOnlyLookup', () => {
  const lookupWith = (addresses: string[]) => {
    const resolve: Resolve = async () => addresses;
    const lookup = publicOnlyLookup(resolve);
    return (all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((done) => {
        lookup('host.example', { all }, (error, address, family) => done({ error, address, family }));
      });
  };

  test('public addresses are handed to the connection, in either lookup form', async () => {
    const lookup = lookupWith(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    assert.deepEqual(await lookup(true), {
      error: null,
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
      family: undefined,
    });
    assert.deepEqual(await lookup(false), { error: null, address: '93.184.215.14', family: 4 });
  });

  test('one private address refuses the name (DNS rebinding is caught at connect time)', async () => {
    const { error } = await lookupWith(['93.184.215.14', '10.0.0.7'])(true);
    assert.ok(error instanceof NotPublicAddressError);
    assert.equal(error.message, 'host.example resolves to 10.0.0.7, which is in private space 10.0.0.0/8; redirects are followed only to public addresses');
  });

  test('no address is ENOTFOUND', async () => {
    const { error } = await lookupWith([])(false);
    assert.equal(error?.code, 'ENOTFOUND');
  });
});

describe('fetchUpstream: redirects off the configured origin, over real sockets', () => {
  let upstream: UpstreamServer;
  let target: Server;
  let targetPort = 0;
  let connections = 0;

  before(async () => {
    // The would-be victim: a local service on another loopback port. It never answers; it
    // only counts the connections it gets, which must stay zero.
    target = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetPort = (target.address() as AddressInfo).port;
    upstream = await startUpstreamServer({
      '/same-origin': redirect('/list', 302),
      '/list': file('google-style.json'),
      '/to-http-loopback': redirect(`http://127.0.0.1:${targetPort}/token`, 302),
      '/to-https-loopback': redirect(`https://127.0.0.1:${targetPort}/token`, 302),
      '/to-https-localhost': redirect(`https://localhost:${targetPort}/token`, 302),
      '/to-https-v6-loopback': redirect(`https://[::1]:${targetPort}/token`, 302),
      '/to-https-mapped-loopback': redirect(`https://[::ffff:127.0.0.1]:${targetPort}/token`, 302),
      '/to-metadata': redirect('https://169.254.169.254/latest/meta-data/', 302),
      '/long-location': redirect(`https://127.0.0.1:${targetPort}/${'a'.repeat(8_000)}`, 302),
    });
  });
  after(async () => {
    await upstream.close();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  test('a redirect within the configured origin is still followed', async () => {
    const outcome = await fetchUpstream(upstream.url('/same-origin'), FAST);
    assert.equal(outcome.kind, 'ok');
  });

  const refused: Array<[string, RegExp]> = [
    ['/to-http-loopback', /which was not followed: redirects away from the configured origin are followed only to https addresses\.$/],
    ['/to-https-loopback', /which was not followed: 127\.0\.0\.1 is in loopback space 127\.0\.0\.0\/8; redirects are followed only to public addresses\.$/],
    [
      '/to-https-localhost',
      /^The redirect to https:\/\/localhost:\d+\/token was not followed: localhost resolves to (127\.0\.0\.1|::1), which is (in loopback space 127\.0\.0\.0\/8|outside global unicast space 2000::\/3 \(loopback\)); redirects are followed only to public addresses\.$/,
    ],
    ['/to-https-v6-loopback', /::1 is outside global unicast space 2000::\/3 \(loopback\)/],
    ['/to-https-mapped-loopback', /loopback space 127\.0\.0\.0\/8/],
    ['/to-metadata', /169\.254\.169\.254 is in linkLocal space 169\.254\.0\.0\/16/],
  ];
  for (const [path, message] of refused) {
    test(`${path}: refused without connecting, not retried`, async () => {
      const before = connections;
      const error = expectError(await fetchUpstream(upstream.url(path), FAST));
      assert.equal(error.code, 'bad-redirect');
      assert.equal(error.attempts, 1, 'a refused redirect is not retried');
      assert.match(error.message, message);
      assert.equal(connections, before, 'the target was never connected to');
    });
  }

  test('a long redirect target is quoted cut, not whole', async () => {
    const error = expectError(await fetchUpstream(upstream.url('/long-location'), FAST));
    assert.equal(error.code, 'bad-redirect');
    assert.ok(error.message.length < 600, `${error.message.length} characters`);
    assert.match(error.message, /… \(\d+ more characters\)/);
  });

  test('no connection reached the target in any of the above', () => {
    assert.equal(connections, 0);
  });
});
