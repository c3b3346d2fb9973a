import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress } from './address.ts';
import { parseAddressList } from './address-list.ts';

describe('parseAddress', () => {
  const ok = (input: string) => {
    const parsed = parseAddress(input);
    assert.ok(parsed.ok, `${input}: ${parsed.ok ? '' : parsed.error}`);
    return parsed;
  };
  const bad = (input: string) => {
    const parsed = parseAddress(input);
    assert.ok(!parsed.ok, `${input} should be refused`);
    return parsed;
  };

  it('reads IPv4 dotted decimal', () => {
    assert.deepEqual(ok(' 192.0.2.1 '), { ok: true, family: 'ipv4', bytes: [192, 0, 2, 1], canonical: '192.0.2.1', ipv4Mapped: false, range: 'reserved' });
    assert.equal(ok('0.0.0.0').canonical, '0.0.0.0');
    assert.equal(ok('255.255.255.255').canonical, '255.255.255.255');
  });

  it('reads IPv6 compressed, full and upper case, and answers RFC 5952 text', () => {
    assert.equal(ok('2001:db8::1').canonical, '2001:db8::1');
    assert.equal(ok('2001:0DB8:0000:0000:0000:0000:0000:0001').canonical, '2001:db8::1');
    assert.equal(ok('::').canonical, '::');
    assert.equal(ok('2001:db8:0:0:1:0:0:1').canonical, '2001:db8::1:0:0:1');
    assert.equal(ok('::1').family, 'ipv6');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address, and says so', () => {
    for (const input of ['::ffff:192.0.2.1', '::FFFF:c000:201', '0:0:0:0:0:ffff:192.0.2.1']) {
      const parsed = ok(input);
      assert.equal(parsed.family, 'ipv4', input);
      assert.equal(parsed.canonical, '192.0.2.1', input);
      assert.equal(parsed.ipv4Mapped, true, input);
    }
    // NAT64 addresses are IPv6 addresses, not mapped ones.
    assert.equal(ok('64:ff9b::192.0.2.1').family, 'ipv6');
  });

  // Every spelling of one mapped address is that address: hex or dotted tail, compressed or
  // not, any case, leading zeros in the hex groups. (::ffff:4249:4201, sometimes given as a
  // spelling of 66.249.66.1, is 66.73.66.1: 0x49 is 73; 66.249.66.1 is ::ffff:42f9:4201.)
  it('reads every spelling of an IPv4-mapped address as the same IPv4 address', () => {
    const spellings = [
      '::ffff:66.249.66.1',
      '::ffff:42f9:4201',
      '::FFFF:42F9:4201',
      '::FFFF:66.249.66.1',
      '0:0:0:0:0:ffff:42f9:4201',
      '0:0:0:0:0:ffff:66.249.66.1',
      '0000:0000:0000:0000:0000:ffff:42f9:4201',
      '0000:0000:0000:0000:0000:FFFF:66.249.66.1',
      '::0:ffff:42f9:4201',
      '0::ffff:66.249.66.1',
      '::ffff:42f9:4201 ',
    ];
    for (const input of spellings) {
      const parsed = ok(input);
      assert.deepEqual([parsed.family, parsed.canonical, parsed.ipv4Mapped, parsed.bytes], ['ipv4', '66.249.66.1', true, [66, 249, 66, 1]], input);
    }
    assert.equal(ok('::ffff:4249:4201').canonical, '66.73.66.1');
    assert.equal(ok('::ffff:0102:0304').canonical, '1.2.3.4');
  });

  it('holds the IPv4 tail of an IPv6 address to the rules of an IPv4 address', () => {
    // Without this, ::ffff:010.1.1.1 was 10.1.1.1 while 010.1.1.1 was refused as ambiguous.
    for (const input of ['::ffff:010.1.1.1', '::ffff:66.249.66.01', '::ffff:00.0.0.1']) assert.equal(bad(input).code, 'ipv4-leading-zero', input);
    for (const input of ['::ffff:0x42.249.66.1', '::ffff:1.2.3', '::ffff:256.1.1.1', '::ffff:1.2.3.4.5', '::ffff:1.2.3.-4', '::ffff:.1.2.3']) {
      assert.equal(bad(input).code, 'invalid-ipv6', input);
    }
  });

  it('refuses an IPv4-compatible address in either spelling instead of guessing which address was meant', () => {
    // ipaddr.js alone read ::66.249.66.1 as the mapped ::ffff:66.249.66.1, and ::42f9:4201 (the
    // same 128 bits) as an IPv6 address: one address, two different verdicts.
    for (const input of ['::66.249.66.1', '::42f9:4201', '0:0:0:0:0:0:66.249.66.1', '::0.0.0.2']) {
      const refused = bad(input);
      assert.equal(refused.code, 'ipv4-compatible', input);
    }
    assert.match(bad('::66.249.66.1').error, /send 66\.249\.66\.1 or its IPv4-mapped form ::ffff:66\.249\.66\.1/);
    assert.equal(ok('::').canonical, '::');
    assert.equal(ok('::1').range, 'loopback');
    assert.equal(ok('::0.0.0.1').canonical, '::1');
  });

  it('refuses bad items with a code and a message naming the accepted form', () => {
    const cases: [string, string][] = [
      ['', 'empty'],
      ['   ', 'empty'],
      ['999.1.1.1', 'ipv4-octet'],
      ['1.2.3', 'ipv4-parts'],
      ['1.2.3.4.5', 'ipv4-parts'],
      ['1..2.3', 'ipv4-parts'],
      ['010.0.0.1', 'ipv4-leading-zero'],
      ['fe80::1%eth0', 'zone-id'],
      ['fe80::1%25eth0', 'zone-id'],
      ['192.0.2.0/24', 'prefix-not-address'],
      ['2001:db8::/32', 'prefix-not-address'],
      ['192.0.2.1:443', 'port'],
      ['[2001:db8::1]:443', 'port'],
      ['[2001:db8::1]', 'port'],
      ['2001:db8:::1', 'invalid-ipv6'],
      ['12345::', 'invalid-ipv6'],
      ['googlebot', 'not-an-address'],
      ['hello world', 'not-an-address'],
      ['0x7f.1', 'not-an-address'],
      ['1'.repeat(100), 'not-an-address'],
    ];
    for (const [input, code] of cases) {
      const parsed = bad(input);
      assert.equal(parsed.code, code, input);
      assert.ok(parsed.error.length > 10, input);
    }
    assert.match(bad('fe80::1%eth0').error, /zone identifier \("%eth0"\)/);
    assert.match(bad('1.2.3').error, /^"1\.2\.3" has 3 numbers; an IPv4 address is four decimal numbers/);
    assert.match(bad('1.2.3.4.5').error, /^"1\.2\.3\.4\.5" has 5 numbers;/);
    // Four numbers and a stray dot: the message names the dot, not a count of four.
    for (const input of ['66.249.66.1.', '.66.249.66.1', '66..249.66.1', '1..2.3']) {
      assert.equal(bad(input).code, 'ipv4-parts', input);
      assert.match(bad(input).error, /has a dot at its start or end, or two dots together; an IPv4 address is four decimal numbers/, input);
    }
    assert.match(bad('text').error, /192\.0\.2\.1/);
  });

  it('never throws, whatever it is given', () => {
    for (const input of [undefined, null, 42, {}, '\u0000', '::ffff:999.1.1.1', ':', '.', '%', '/']) {
      assert.equal(parseAddress(input as string).ok, false, String(input));
    }
  });
});

describe('parseAddressList', () => {
  it('splits on commas, spaces and newlines, trimming each item', () => {
    assert.deepEqual(parseAddressList('192.0.2.1, 192.0.2.2 192.0.2.3\n2001:db8::1\r\n\t10.0.0.1').items, [
      '192.0.2.1',
      '192.0.2.2',
      '192.0.2.3',
      '2001:db8::1',
      '10.0.0.1',
    ]);
  });

  it('keeps duplicates and bad items, one answer line per item sent', () => {
    assert.deepEqual(parseAddressList('1.1.1.1,1.1.1.1,nope').items, ['1.1.1.1', '1.1.1.1', 'nope']);
  });

  it('reports an empty item between two commas, but not separators at the ends', () => {
    assert.deepEqual(parseAddressList(',1.1.1.1,,2.2.2.2 , ,3.3.3.3,\n').items, ['1.1.1.1', '', '2.2.2.2', '', '3.3.3.3']);
    assert.deepEqual(parseAddressList('  \n ').items, []);
    assert.deepEqual(parseAddressList('').items, []);
  });

  it('reads a repeated parameter, splitting each value, and keeps an empty value as one item', () => {
    assert.deepEqual(parseAddressList(['1.1.1.1', '2.2.2.2,3.3.3.3', '', ' , ']).items, ['1.1.1.1', '2.2.2.2', '3.3.3.3', '', '']);
    assert.deepEqual(parseAddressList([]).items, []);
  });

  it('splits a long pasted list in linear time', () => {
    const many = Array.from({ length: 20000 }, (_, i) => `10.0.${i >> 8}.${i & 255}`).join(' ,\n ');
    assert.equal(parseAddressList(many).items.length, 20000);
    assert.deepEqual(parseAddressList('a' + ' '.repeat(100000) + 'b').items, ['a', 'b']);
  });
});
