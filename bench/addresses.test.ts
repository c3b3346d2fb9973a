import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { benchAddresses, mirroredPrefixes } from './addresses.ts';

const ALL = {
  ipv4_count: 2,
  sources: [
    { id: 'a', ipv4: ['66.249.64.0/27', 'not a prefix'], ipv6: ['2001:4860:4801:10::/64'] },
    { id: 'b', ipv4: ['20.171.206.0/24'], ipv6: [] },
    { id: 'c' },
  ],
};

describe('mirroredPrefixes', () => {
  test('reads every readable prefix of every source and skips what is not one', () => {
    assert.deepEqual(
      mirroredPrefixes(ALL).map((p) => p.text),
      ['66.249.64.0/27', '2001:4860:4801:10::/64', '20.171.206.0/24'],
    );
  });

  test('a document of another shape gives no prefixes rather than an exception', () => {
    assert.deepEqual(mirroredPrefixes(null), []);
    assert.deepEqual(mirroredPrefixes({ sources: 'x' }), []);
  });
});

describe('benchAddresses', () => {
  const prefixes = mirroredPrefixes(ALL);
  const addresses = benchAddresses(prefixes, 500);

  test('gives as many valid addresses as asked, the same list on every run', () => {
    assert.equal(addresses.length, 500);
    for (const a of addresses) assert.ok(ipaddr.isValid(a), a);
    assert.deepEqual(benchAddresses(prefixes, 500), addresses);
  });

  test('every other address lies inside a mirrored prefix; the rest are public unicast IPv4', () => {
    const cidrs = prefixes.map((p) => ipaddr.parseCIDR(p.text));
    addresses.forEach((text, i) => {
      const address = ipaddr.parse(text);
      if (i % 2 === 0)
        assert.ok(
          cidrs.some(([network, length]) => address.kind() === network.kind() && address.match(network, length)),
          `${text} in a prefix`,
        );
      else assert.ok(address.kind() === 'ipv4' && address.range() === 'unicast', `${text} public IPv4`);
    });
  });

  test('without prefixes every address is random public IPv4', () => {
    for (const a of benchAddresses([], 50)) assert.equal(ipaddr.parse(a).range(), 'unicast');
  });
});
