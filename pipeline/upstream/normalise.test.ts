import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalisePrefixes } from './normalise.ts';
import { parsePrefixList } from './parse.ts';
import { fixture } from '../../test/support/upstream-server.ts';

describe('normalisePrefixes', () => {
  test('the quirky fixture: host bits, duplicates, containment, mapped IPv6, numeric order', () => {
    const parsed = parsePrefixList('text', fixture('quirky.txt'));
    assert.ok(parsed.ok);
    const result = normalisePrefixes(parsed.prefixes);
    assert.deepEqual(result.ipv4, ['9.255.255.0/24', '10.0.0.0/8', '192.0.2.0/24', '192.0.2.128/25', '198.51.100.0/24']);
    assert.deepEqual(result.ipv6, ['2001:db8::/32']);
    assert.deepEqual(result.invalid, []);
    assert.deepEqual(result.findings, [
      '1 prefix has host bits set and was masked to the network address: "192.0.2.77/24 → 192.0.2.0/24".',
      '2 duplicates removed (after canonicalising): "192.0.2.0/24", "2001:db8::/32".',
      '1 IPv4-mapped IPv6 prefix was published as IPv4: "::ffff:198.51.100.0/120 → 198.51.100.0/24".',
      '1 prefix lies inside another listed prefix and is kept as the operator listed it: "192.0.2.128/25 in 192.0.2.0/24".',
    ]);
  });

  test('sorts numerically, not as strings', () => {
    const result = normalisePrefixes(['100.0.0.0/8', '9.0.0.0/8', '20.0.0.0/8', '2.0.0.0/8', '10.0.0.0/16', '10.0.0.0/8']);
    assert.deepEqual(result.ipv4, ['2.0.0.0/8', '9.0.0.0/8', '10.0.0.0/8', '10.0.0.0/16', '20.0.0.0/8', '100.0.0.0/8']);
    const v6 = normalisePrefixes(['2001:db8:a::/48', '2001:db8:9::/48', '2001:db8::/48', 'fe80::/10', '::/0']);
    assert.deepEqual(v6.ipv6, ['::/0', '2001:db8::/48', '2001:db8:9::/48', '2001:db8:a::/48', 'fe80::/10']);
  });

  test('IPv6 is compressed and lower case (RFC 5952)', () => {
    const result = normalisePrefixes(['2001:0DB8:0000:0000:0001:0000:0000:0001/128', '2001:DB8::/32', '2001:db8:0:0:1::/80', '64:ff9b::192.0.2.1/128']);
    assert.deepEqual(result.ipv6, ['64:ff9b::c000:201/128', '2001:db8::/32', '2001:db8:0:0:1::/80', '2001:db8::1:0:0:1/128']);
  });

  test('host bits are masked, and each one reported', () => {
    const result = normalisePrefixes(['192.0.2.1/24', '2001:db8::1/32', '10.1.2.3/0']);
    assert.deepEqual(result.ipv4, ['0.0.0.0/0', '192.0.2.0/24']);
    assert.deepEqual(result.ipv6, ['2001:db8::/32']);
    assert.match(
      result.findings[0] ?? '',
      /^3 prefixes have host bits set and were masked to the network address: "192\.0\.2\.1\/24 → 192\.0\.2\.0\/24", "2001:db8::1\/32 → 2001:db8::\/32", "10\.1\.2\.3\/0 → 0\.0\.0\.0\/0"\.$/,
    );
  });

  test('IPv4-mapped IPv6 wider than the mapped range stays IPv6, reported', () => {
    const result = normalisePrefixes(['::ffff:0.0.0.0/80', '::ffff:192.0.2.1']);
    assert.deepEqual(result.ipv4, ['192.0.2.1/32']);
    assert.deepEqual(result.ipv6, ['::/80']);
    assert.match(result.findings.join('\n'), /kept as IPv6: "::ffff:0\.0\.0\.0\/80"/);
    assert.match(result.findings.join('\n'), /published as IPv4: "::ffff:192\.0\.2\.1 → 192\.0\.2\.1\/32"/);
  });

  test('nested containment is found across a chain', () => {
    const result = normalisePrefixes(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.2.0.0/16', '11.0.0.0/8', '2001:db8::/32', '2001:db8:1::/48']);
    assert.match(
      result.findings[0] ?? '',
      /^4 prefixes lie inside another listed prefix and are kept as the operator listed them: "10\.1\.0\.0\/16 in 10\.0\.0\.0\/8", "10\.1\.2\.0\/24 in 10\.1\.0\.0\/16", "10\.2\.0\.0\/16 in 10\.0\.0\.0\/8", "2001:db8:1::\/48 in 2001:db8::\/32"\.$/,
    );
  });

  test('invalid entries are listed with the reason', () => {
    const bad = [
      '',
      '1.2.3.4/33',
      '2001:db8::/129',
      '1.2.3/24',
      '127.1/8',
      '0x7f.0.0.1/8',
      '010.0.0.0/8',
      '1.2.3.4/24/1',
      'fe80::1%eth0/64',
      '1.2.3.4/x',
      '1.2.3.4/ 24',
      '300.1.1.1/8',
      'example.com',
    ];
    const result = normalisePrefixes([...bad, '192.0.2.0/24']);
    assert.deepEqual(result.invalid, bad);
    assert.deepEqual(result.ipv4, ['192.0.2.0/24']);
    const text = result.findings.join('\n');
    assert.match(text, /not a valid prefix \(the prefix length is over 32\): "1\.2\.3\.4\/33"/);
    assert.match(text, /not a valid prefix \(the prefix length is over 128\): "2001:db8::\/129"/);
    assert.match(text, /octets with leading zeros are ambiguous\): "010\.0\.0\.0\/8"/);
    assert.match(text, /zone index/);
    assert.match(text, /more than one "\/"/);
  });

  test('the result does not depend on input order', () => {
    const input = ['2001:db8::/32', '192.0.2.0/24', '10.0.0.0/8', '198.51.100.0/24'];
    assert.deepEqual(normalisePrefixes(input), normalisePrefixes([...input].reverse()));
  });

  test('an empty input gives empty lists and no findings', () => {
    assert.deepEqual(normalisePrefixes([]), { ipv4: [], ipv6: [], invalid: [], findings: [] });
  });

  test('many repeats collapse into one finding line', () => {
    const raw = Array.from({ length: 40 }, (_, i) => `198.51.100.${i}`);
    const result = normalisePrefixes(raw);
    assert.equal(result.ipv4.length, 40);
    assert.deepEqual(result.findings, [
      '40 entries are bare addresses without a prefix length, read as /32: "198.51.100.0", "198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4" and 35 more.',
    ]);
  });
});
