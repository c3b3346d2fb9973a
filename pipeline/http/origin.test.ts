import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { DIRECT, originReader, publicOrigin, type OriginHeaders } from './origin.ts';
import { relocate } from '../util/relocate.ts';

const LISTENING = 'http://127.0.0.1:8080';
const headers = (more: Partial<OriginHeaders>): OriginHeaders => ({ host: null, forwarded: null, forwardedProto: null, forwardedHost: null, ...more });

test('the Host the client sent names the origin, with the scheme the request came by and no default port', () => {
  assert.equal(publicOrigin(DIRECT, headers({ host: 'crawlers.example:9000' }), LISTENING), 'http://crawlers.example:9000');
  assert.equal(publicOrigin(DIRECT, headers({ host: 'Crawlers.Example' }), LISTENING), 'http://crawlers.example');
  assert.equal(publicOrigin(DIRECT, headers({ host: 'crawlers.example:80' }), LISTENING), 'http://crawlers.example');
  assert.equal(publicOrigin(DIRECT, headers({ host: 'crawlers.example:443' }), 'https://edge.example'), 'https://crawlers.example');
  assert.equal(publicOrigin(DIRECT, headers({ host: '[::1]:8080' }), LISTENING), 'http://[::1]:8080');
  assert.equal(publicOrigin(DIRECT, headers({ host: '192.0.2.1' }), LISTENING), 'http://192.0.2.1');
});

test('a missing Host, or one that is not a host, names the listening address instead', () => {
  for (const host of [null, '', 'evil"><script>', 'a b', 'x.example/path', 'x.example:99999', 'user@x.example', 'x.example:', '-x.example', 'a'.repeat(300)]) {
    assert.equal(publicOrigin(DIRECT, headers({ host }), LISTENING), LISTENING, String(host));
  }
});

test('forwarded headers count only with trustProxy; Forwarded (RFC 7239) before X-Forwarded-*', () => {
  const proxied = headers({
    host: 'internal:8080',
    forwarded: 'for=192.0.2.60;proto=https;host="crawlers.example", for=198.51.100.17',
    forwardedProto: 'http',
    forwardedHost: 'other.example',
  });
  assert.equal(publicOrigin(DIRECT, proxied, LISTENING), 'http://internal:8080');
  const trusting = { fixed: null, trustProxy: true };
  assert.equal(publicOrigin(trusting, proxied, LISTENING), 'https://crawlers.example');
  assert.equal(
    publicOrigin(trusting, headers({ host: 'internal', forwardedProto: 'https, http', forwardedHost: 'a.example, b.example' }), LISTENING),
    'https://a.example',
  );
  assert.equal(publicOrigin(trusting, headers({ host: 'internal', forwardedProto: 'gopher' }), LISTENING), 'http://internal');
  assert.equal(publicOrigin(trusting, headers({ forwardedHost: 'bad host' }), LISTENING), LISTENING);
});

test('a fixed origin (BASE_URL) wins over anything the request says', () => {
  const fixed = { fixed: 'https://crawlers.example', trustProxy: true };
  assert.equal(publicOrigin(fixed, headers({ host: 'x.example', forwardedHost: 'y.example' }), LISTENING), 'https://crawlers.example');
});

test('originReader answers as publicOrigin does, whichever header changes from one request to the next', () => {
  const trusting = { fixed: null, trustProxy: true };
  const asked: [OriginHeaders, string][] = [
    [headers({ host: 'a.example' }), LISTENING],
    [headers({ host: 'a.example' }), LISTENING],
    [headers({ host: 'b.example' }), LISTENING],
    [headers({ host: 'b.example' }), 'https://edge.example'],
    [headers({ host: 'b.example', forwarded: 'host=c.example' }), LISTENING],
    [headers({ host: 'b.example', forwarded: 'host=c.example', forwardedProto: 'https' }), LISTENING],
    [headers({ host: 'b.example', forwardedHost: 'd.example' }), LISTENING],
    [headers({ host: 'bad host' }), LISTENING],
    [headers({ host: 'a.example' }), LISTENING],
  ];
  for (const policy of [DIRECT, trusting, { fixed: 'https://crawlers.example', trustProxy: false }]) {
    const read = originReader(policy);
    for (const [asking, fallback] of asked) assert.equal(read(asking, fallback), publicOrigin(policy, asking, fallback), JSON.stringify(asking));
  }
});

test('relocate replaces every occurrence of the build origin and nothing else', () => {
  assert.equal(relocate('a https://index.example/x and https://index.example', 'https://index.example', 'http://h:1'), 'a http://h:1/x and http://h:1');
  assert.equal(relocate('https://other.example/x', 'https://index.example', 'http://h:1'), 'https://other.example/x');
  assert.equal(relocate('same', 'https://index.example', 'https://index.example'), 'same');
});
