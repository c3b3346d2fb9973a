import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { seededRandom } from '../../test/support/random.ts';
import { ipv4Range, ipv6Range } from './special-ranges.ts';

const random = seededRandom(4291);
const byte = () => random.int(256);
const group = () => random.int(0x10000);

describe('special-ranges.ts: the block name ipaddr.js gives, without walking its table for an ordinary address', () => {
  test('IPv4: the same name as range() for every first byte, each with addresses at both ends and 64 random ones', () => {
    let named = 0;
    for (let first = 0; first < 256; first++) {
      const addresses = [[first, 0, 0, 0], [first, 255, 255, 255], ...Array.from({ length: 64 }, () => [first, byte(), byte(), byte()])];
      for (const bytes of addresses) {
        const expected = new ipaddr.IPv4(bytes).range();
        assert.equal(ipv4Range(bytes), expected, bytes.join('.'));
        if (expected !== 'unicast') named++;
      }
    }
    // The sweep meets the special blocks, not only unicast ones.
    assert.ok(named > 1000, `${named} addresses in named blocks`);
  });

  test('IPv4: the first and last address of every range in the table, and their neighbours outside it', () => {
    for (const [name, text] of [
      ['private', '172.16.0.0'],
      ['private', '172.31.255.255'],
      ['unicast', '172.32.0.0'],
      ['unicast', '172.15.255.255'],
      ['carrierGradeNat', '100.64.0.0'],
      ['unicast', '100.128.0.0'],
      ['reserved', '198.51.100.7'],
      ['unicast', '198.51.101.0'],
      ['broadcast', '255.255.255.255'],
      ['unicast', '66.249.66.1'],
    ] as const) {
      const bytes = ipaddr.IPv4.parse(text).octets;
      assert.equal(ipv4Range(bytes), name, text);
      assert.equal(ipv4Range(bytes), new ipaddr.IPv4(bytes).range(), text);
    }
  });

  test('IPv6: the same name as range() for 4,096 random first groups and every first group a range of the table starts with', () => {
    const firsts = new Set([0, 0x64, 0x100, 0x2001, 0x2002, 0x2620, 0xfc00, 0xfd00, 0xfe80, 0xfec0, 0xff00, 0x2600, 0x2a03]);
    for (let n = 0; n < 4096; n++) firsts.add(group());
    for (const first of firsts) {
      const addresses = [
        [first, 0, 0, 0, 0, 0, 0, 0],
        [first, 0, 0, 0, 0, 0, 0, 1],
        [first, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff],
        ...Array.from({ length: 8 }, () => [first, group() % 0x40, group(), 0, 0, 0, group(), group()]),
      ];
      for (const parts of addresses) {
        const address = new ipaddr.IPv6(parts);
        assert.equal(ipv6Range(parts), address.range(), address.toString());
      }
    }
  });

  test('IPv6: named blocks and ordinary addresses', () => {
    for (const [name, text] of [
      ['unicast', '2001:4860:4801:2::1'],
      ['teredo', '2001:0:4136:e378::1'],
      ['6to4', '2002:c000:201::1'],
      ['uniqueLocal', 'fd12:3456::1'],
      ['linkLocal', 'fe80::1'],
      ['loopback', '::1'],
      ['unicast', '2600:1900:0:207::1'],
    ] as const) {
      assert.equal(ipv6Range(ipaddr.IPv6.parse(text).parts), name, text);
    }
  });
});
