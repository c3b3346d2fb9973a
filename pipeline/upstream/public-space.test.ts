import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { addressProblem, DEFAULT_PREFIX_BOUNDS, prefixProblem } from './public-space.ts';

const MIRROR = new URL('../../state/mirror/', import.meta.url);

describe('prefixProblem', () => {
  test('every prefix of every real list we mirror passes (state/mirror)', async () => {
    const files = (await readdir(MIRROR)).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 10, 'the committed mirror is there');
    let checked = 0;
    for (const file of files) {
      const entry = JSON.parse(await readFile(new URL(file, MIRROR), 'utf8')) as { ipv4: string[]; ipv6: string[] };
      for (const prefix of entry.ipv4.concat(entry.ipv6)) {
        assert.equal(prefixProblem(prefix), null, `${file}: ${prefix}`);
        checked++;
      }
    }
    assert.ok(checked > 1_000, `${checked} prefixes checked`);
  });

  test('the bounds: /8 and /19 pass, one bit wider does not', () => {
    assert.deepEqual(DEFAULT_PREFIX_BOUNDS, { ipv4: 8, ipv6: 19 });
    assert.equal(prefixProblem('17.0.0.0/8'), null);
    assert.equal(prefixProblem('2003::/19'), null);
    assert.equal(prefixProblem('16.0.0.0/7'), 'wider than /8, the most any one organisation holds');
    assert.equal(prefixProblem('2000::/18'), 'wider than /19, the most any one organisation holds');
    assert.equal(prefixProblem('0.0.0.0/0'), 'wider than /8, the most any one organisation holds');
    assert.equal(prefixProblem('::/0'), 'wider than /19, the most any one organisation holds');
  });

  test('a prefix that merely overlaps special space is refused, whichever side is wider', () => {
    assert.equal(prefixProblem('172.0.0.0/8'), 'in private space 172.16.0.0/12');
    assert.equal(prefixProblem('192.168.7.0/24'), 'in private space 192.168.0.0/16');
    assert.equal(prefixProblem('100.0.0.0/8'), 'in carrierGradeNat space 100.64.0.0/10');
    assert.equal(prefixProblem('100.63.0.0/16'), null, 'the neighbour of 100.64.0.0/10 is public');
    assert.equal(prefixProblem('172.32.0.0/11'), null, 'and so is the neighbour of 172.16.0.0/12');
  });

  test('agrees with ipaddr.js: every address it calls other than unicast is refused as a /32 or /128', () => {
    const samples = [
      '0.0.0.1',
      '10.1.2.3',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.1.1',
      '172.16.0.1',
      '192.0.0.1',
      '192.0.2.1',
      '192.31.196.1',
      '192.52.193.1',
      '192.88.99.1',
      '192.168.1.10',
      '192.175.48.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:0:0:1',
      '64:ff9b::1',
      '64:ff9b:1::1',
      '100::1',
      '2001::1',
      '2001:2::1',
      '2001:3::1',
      '2001:4:112::1',
      '2001:10::1',
      '2001:20::1',
      '2001:30::1',
      '2001:db8::1',
      '2002::1',
      '2620:4f:8000::1',
      '3fff::1',
      '5f00::1',
      'fc00::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
    ];
    for (const address of samples) {
      const parsed = ipaddr.parse(address);
      assert.notEqual(parsed.range(), 'unicast', `${address} is a special address to ipaddr.js`);
      const length = parsed.kind() === 'ipv4' ? 32 : 128;
      assert.notEqual(prefixProblem(`${address}/${length}`), null, address);
      assert.notEqual(addressProblem(address), null, address);
    }
  });
});

describe('addressProblem', () => {
  test('public addresses pass; IPv4-mapped ones are judged as the IPv4 they carry', () => {
    for (const address of ['8.8.8.8', '66.249.66.1', '2001:4860:4801:10::1', '::ffff:66.249.66.1', '::ffff:42f9:4201']) {
      assert.equal(addressProblem(address), null, address);
    }
    assert.equal(addressProblem('::ffff:127.0.0.1'), 'in loopback space 127.0.0.0/8');
    assert.equal(addressProblem('::ffff:7f00:1'), 'in loopback space 127.0.0.0/8');
    assert.equal(addressProblem('::1'), 'outside global unicast space 2000::/3 (loopback)');
    assert.equal(addressProblem('localhost'), 'not an IP address');
  });
});
