import assert from 'node:assert/strict';
import { test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { seededRandom } from '../../test/support/random.ts';
import { ipv6Groups, rfc5952Text } from './ipv6-text.ts';

// ipv6-text.ts reads IPv6 text itself instead of through ipaddr.js (which is ten times slower):
// for every spelling of thousands of addresses it must give ipaddr.js's groups and RFC 5952
// text, and it must refuse exactly the texts near them that ipaddr.js refuses.

const random = seededRandom(5952);

/** Eight groups with zero runs of every length somewhere: what compression has to find. */
function groups(): number[] {
  const parts = Array.from({ length: 8 }, () => (random.int(3) === 0 ? 0 : random.int(0x10000)));
  const run = random.int(9);
  const start = random.int(9 - run);
  for (let i = start; i < start + run; i++) parts[i] = 0;
  return parts;
}

/** Spellings of the same address: full and padded, normalised, RFC 5952, upper case, and `::` over each zero run of two or more groups. */
function spellings(parts: readonly number[]): string[] {
  const address = new ipaddr.IPv6([...parts]);
  const hex = parts.map((part) => part.toString(16));
  const padded = hex.map((part) => part.padStart(4, '0'));
  const out = [padded.join(':'), address.toNormalizedString(), address.toRFC5952String(), address.toRFC5952String().toUpperCase()];
  for (let start = 0; start < 8; start++) {
    for (let end = start + 1; end <= 8; end++) {
      if (parts.slice(start, end).every((part) => part === 0)) out.push(`${hex.slice(0, start).join(':')}::${hex.slice(end).join(':')}`);
    }
  }
  return out;
}

/** Texts near a valid one: a colon more or less, a group too long, a character that is not hex, a second `::`, a group more or less. */
function mutations(text: string): string[] {
  const at = random.int(text.length + 1);
  return [
    text.slice(0, at) + ':' + text.slice(at),
    text.slice(0, at) + text.slice(at + 1),
    text.slice(0, at) + 'g' + text.slice(at),
    text.slice(0, at) + '0' + text.slice(at),
    text.slice(0, at) + 'f' + text.slice(at),
    `${text}::`,
    `::${text}`,
    `${text}:1`,
    `1:${text}`,
    text.replace(/:[^:]*$/, ''),
    text.replace('::', ':::'),
  ];
}

const parsedByIpaddr = (text: string): number[] | null => (ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text).parts : null);

test('every spelling of 300 addresses: the groups ipaddr.js reads and its RFC 5952 text', () => {
  let spelled = 0;
  for (let n = 0; n < 300; n++) {
    const parts = groups();
    const expected = new ipaddr.IPv6([...parts]).toRFC5952String();
    assert.equal(rfc5952Text(parts), expected, parts.join(','));
    for (const text of spellings(parts)) {
      assert.deepEqual(ipv6Groups(text), parts, text);
      spelled++;
    }
  }
  assert.ok(spelled > 3_000, `${spelled} spellings`);
});

test('texts near valid ones: refused wherever ipaddr.js refuses them, read alike wherever it reads them', () => {
  let refused = 0;
  let read = 0;
  for (let n = 0; n < 300; n++) {
    for (const valid of spellings(groups())) {
      for (const text of mutations(valid)) {
        const expected = parsedByIpaddr(text);
        assert.deepEqual(ipv6Groups(text), expected, text);
        if (expected === null) refused++;
        else read++;
      }
    }
  }
  // Both outcomes are met many times over, so neither side of the comparison is left untried.
  assert.ok(refused > 3_000 && read > 3_000, `${refused} refused, ${read} read`);
});

test('edge forms: the unspecified and loopback addresses, a :: at either end, and what no form allows', () => {
  assert.deepEqual(ipv6Groups('::'), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(ipv6Groups('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(ipv6Groups('1::'), [1, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(ipv6Groups('1:2:3:4:5:6:7::'), [1, 2, 3, 4, 5, 6, 7, 0]);
  for (const text of [
    '',
    ':',
    ':::',
    '1:2:3:4:5:6:7:8::',
    '::1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':1::',
    '1:2:3:4:5:6:7:8:9',
    '00001::',
    'fe80::1%eth0',
  ]) {
    assert.equal(ipv6Groups(text), null, JSON.stringify(text));
  }
  assert.equal(rfc5952Text([0, 0, 0, 0, 0, 0, 0, 0]), '::');
  assert.equal(rfc5952Text([1, 0, 0, 1, 0, 0, 0, 1]), '1:0:0:1::1');
  assert.equal(rfc5952Text([1, 0, 0, 1, 0, 0, 1, 1]), '1::1:0:0:1:1');
  assert.equal(rfc5952Text([1, 0, 1, 1, 1, 1, 1, 1]), '1:0:1:1:1:1:1:1');
});
