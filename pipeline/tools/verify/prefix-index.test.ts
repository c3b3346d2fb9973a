import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildPrefixIndex, lookup } from './prefix-index.ts';
import type { FoundAddress, LookupResult, PrefixSource } from './sources.ts';
import { fixtureSources, mirrorSources, MIRROR_DIR, referenceSources } from '../../../test/support/verify-data.ts';
import { parsePrefix } from '../../net/prefix.ts';
import ipaddr from 'ipaddr.js';

const index = buildPrefixIndex(fixtureSources());

function found(result: LookupResult): FoundAddress {
  assert.ok(result.valid, result.valid ? '' : `${result.input}: ${result.error}`);
  return result;
}

/** "prefix@source" per match, in answer order. */
function where(address: string): string[] {
  return found(lookup(index, address)).matches.map((m) => `${m.prefix}@${m.source}`);
}

describe('lookup: fixture index', () => {
  it('finds the first and last address of a prefix, and not the ones just outside', () => {
    assert.deepEqual(where('198.51.100.128'), ['198.51.100.128/25@acme-main']);
    assert.deepEqual(where('198.51.100.255'), ['198.51.100.128/25@acme-main']);
    assert.deepEqual(where('198.51.100.127'), []);
    assert.deepEqual(where('198.51.101.0'), []);
    assert.deepEqual(where('10.0.0.0'), ['10.0.0.0/8@other-lists']);
    assert.deepEqual(where('10.255.255.255'), ['10.0.0.0/8@other-lists']);
    assert.deepEqual(where('9.255.255.255'), []);
    assert.deepEqual(where('11.0.0.0'), []);
  });

  it('lists every containing prefix, most specific first, a repeated prefix in source order', () => {
    assert.deepEqual(where('192.0.2.130'), ['192.0.2.128/26@other-lists', '192.0.2.0/24@acme-main', '192.0.2.0/24@acme-user']);
    assert.deepEqual(where('192.0.2.127'), ['192.0.2.0/24@acme-main', '192.0.2.0/24@acme-user']);
    assert.deepEqual(where('192.0.2.191'), ['192.0.2.128/26@other-lists', '192.0.2.0/24@acme-main', '192.0.2.0/24@acme-user']);
    assert.deepEqual(where('192.0.2.192'), ['192.0.2.0/24@acme-main', '192.0.2.0/24@acme-user']);
    assert.deepEqual(where('203.0.113.7'), ['203.0.113.7/32@acme-user', '203.0.113.0/24@acme-user']);
    assert.deepEqual(where('203.0.113.8'), ['203.0.113.0/24@acme-user']);
  });

  it('carries the source, operator and crawlers of each match', () => {
    assert.deepEqual(found(lookup(index, '192.0.2.130')).matches[0], {
      source: 'other-lists',
      operator: 'other',
      crawlers: ['otherbot'],
      scope: 'crawlers',
      prefix: '192.0.2.128/26',
    });
  });

  it('looks up IPv6, nested prefixes and a /128, at their boundaries', () => {
    assert.deepEqual(where('2001:db8:1::'), ['2001:db8:1::/48@acme-main', '2001:db8::/32@other-lists']);
    assert.deepEqual(where('2001:db8:1:ffff:ffff:ffff:ffff:ffff'), ['2001:db8:1::/48@acme-main', '2001:db8::/32@other-lists']);
    assert.deepEqual(where('2001:db8:2::'), ['2001:db8::/32@other-lists']);
    assert.deepEqual(where('2001:db8:ffff::1'), ['2001:db8:ffff::1/128@other-lists', '2001:db8::/32@other-lists']);
    assert.deepEqual(where('2001:db8:ffff::2'), ['2001:db8::/32@other-lists']);
    assert.deepEqual(where('2001:db7:ffff:ffff:ffff:ffff:ffff:ffff'), []);
    assert.deepEqual(where('2001:db9::'), []);
  });

  it('answers canonical text for any spelling of the address', () => {
    const a = found(lookup(index, '2001:0DB8:0001:0000:0000:0000:0000:0001'));
    assert.equal(a.address, '2001:db8:1::1');
    assert.equal(a.family, 'ipv6');
    assert.equal(a.input, '2001:0DB8:0001:0000:0000:0000:0000:0001');
  });

  it('looks up an IPv4-mapped IPv6 address as IPv4, and says so', () => {
    const a = found(lookup(index, '::ffff:192.0.2.130'));
    assert.equal(a.address, '192.0.2.130');
    assert.equal(a.family, 'ipv4');
    assert.equal(a.ipv4_mapped, true);
    assert.match(a.note ?? '', /IPv4-mapped/);
    assert.equal(a.matches.length, 3);
    assert.equal(found(lookup(index, '192.0.2.130')).note, null);
  });

  it("notes that a private or loopback address is no crawler's, and still answers", () => {
    for (const address of ['10.1.2.3', '127.0.0.1', '::1', 'fe80::1', 'fd00::1']) {
      const a = found(lookup(index, address));
      assert.match(a.note ?? '', /not a public one/, address);
    }
    assert.equal(found(lookup(index, '10.1.2.3')).matches.length, 1);
    assert.equal(found(lookup(index, '8.8.8.8')).note, null);
  });

  it('does not mix families: an IPv4 address is never in an IPv6 prefix', () => {
    const both = buildPrefixIndex([{ id: 'all', operator: 'x', crawlers: [], scope: 'crawlers', mirror: { ipv4: [], ipv6: ['::/0'] } }]);
    assert.deepEqual(found(lookup(both, '192.0.2.1')).matches, []);
    assert.equal(found(lookup(both, '2001:db8::1')).matches.length, 1);
  });

  it('handles /0 and /32 prefixes at the ends of the space', () => {
    const edges = buildPrefixIndex([
      { id: 'e', operator: 'x', crawlers: [], scope: 'crawlers', mirror: { ipv4: ['0.0.0.0/0', '255.255.255.255/32', '0.0.0.0/32'], ipv6: [] } },
    ]);
    assert.deepEqual(
      found(lookup(edges, '255.255.255.255')).matches.map((m) => m.prefix),
      ['255.255.255.255/32', '0.0.0.0/0'],
    );
    assert.deepEqual(
      found(lookup(edges, '0.0.0.0')).matches.map((m) => m.prefix),
      ['0.0.0.0/32', '0.0.0.0/0'],
    );
    assert.deepEqual(
      found(lookup(edges, '128.0.0.0')).matches.map((m) => m.prefix),
      ['0.0.0.0/0'],
    );
  });

  it('reports each invalid item with its own error', () => {
    const codes = ['999.1.1.1', '1.2.3', 'fe80::1%eth0', '', 'not an address'].map((input) => {
      const r = lookup(index, input);
      assert.ok(!r.valid, input);
      assert.equal(r.input, input);
      return r.code;
    });
    assert.deepEqual(codes, ['ipv4-octet', 'ipv4-parts', 'zone-id', 'empty', 'not-an-address']);
  });

  it('skips and reports list entries that are not prefixes, and reads the rest', () => {
    const messy = buildPrefixIndex([
      {
        id: 'm',
        operator: 'x',
        scope: 'crawlers',
        crawlers: [],
        mirror: { ipv4: ['192.0.2.0/24', 'garbage', '192.0.2.0/33', '192.0.2.0/24'], ipv6: ['fe80::/10%eth0', '::ffff:198.51.100.0/120', '2001:db8::1/64'] },
      },
    ]);
    assert.deepEqual(
      messy.rejected.map((r) => r.prefix),
      ['garbage', '192.0.2.0/33', 'fe80::/10%eth0'],
    );
    // A duplicate is indexed once; a mapped prefix becomes IPv4; host bits are cleared.
    assert.deepEqual(
      found(lookup(messy, '192.0.2.1')).matches.map((m) => m.prefix),
      ['192.0.2.0/24'],
    );
    assert.deepEqual(
      found(lookup(messy, '198.51.100.9')).matches.map((m) => m.prefix),
      ['198.51.100.0/24'],
    );
    assert.deepEqual(
      found(lookup(messy, '2001:db8::ffff')).matches.map((m) => m.prefix),
      ['2001:db8::/64'],
    );
    assert.deepEqual(messy.sources[0], {
      id: 'm',
      operator: 'x',
      crawlers: [],
      scope: 'crawlers',
      state: null,
      confirmed_at: null,
      ipv4_count: 2,
      ipv6_count: 1,
    });
  });

  it('gives identical answers for the same input, call after call and index after index', () => {
    const again = buildPrefixIndex(fixtureSources());
    for (const address of ['192.0.2.130', '2001:db8:1::5', 'bad', '::ffff:10.1.2.3']) {
      assert.deepEqual(lookup(index, address), lookup(index, address));
      assert.deepEqual(lookup(again, address), lookup(index, address));
    }
  });

  it('does not let a caller corrupt the index through an answer', () => {
    const first = found(lookup(index, '192.0.2.130'));
    // The matches are the index's own objects, frozen: writing to one fails loudly.
    assert.throws(() => {
      first.matches[0]!.prefix = 'changed';
    }, TypeError);
    first.matches.length = 0;
    assert.equal(found(lookup(index, '192.0.2.130')).matches[0]!.prefix, '192.0.2.128/26');
  });
});

/** Each list's first and last address are in it, and the addresses either side are not in that entry. */
function checkBoundaries(sources: readonly PrefixSource[]) {
  const real = buildPrefixIndex(sources);
  assert.deepEqual(real.rejected, []);
  let checked = 0;
  for (const source of sources) {
    for (const text of [...source.mirror.ipv4, ...source.mirror.ipv6]) {
      const read = parsePrefix(text);
      assert.ok(read.ok, text);
      const first = ipaddr.fromByteArray(read.prefix.bytes).toString();
      const last = ipaddr.fromByteArray(lastAddress(read.prefix.bytes, read.prefix.length)).toString();
      for (const address of [first, last]) {
        const hits = found(lookup(real, address)).matches;
        assert.ok(
          hits.some((m) => m.source === source.id && m.prefix === read.prefix.text),
          `${address} not found in ${text} (${source.id})`,
        );
      }
      checked++;
    }
  }
  return checked;
}

function lastAddress(bytes: readonly number[], length: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, length - i * 8));
    return b | (0xff >> keep);
  });
}

describe('lookup: real lists', () => {
  it("finds both ends of every prefix in the operators' reference lists", () => {
    assert.ok(checkBoundaries(referenceSources()) > 1000);
  });

  const mirror = mirrorSources();
  it('finds both ends of every prefix in the real mirror', { skip: mirror === null ? `${MIRROR_DIR} holds no mirror yet` : false }, () => {
    assert.ok(checkBoundaries(mirror!) > 0);
  });
});
