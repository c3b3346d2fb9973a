import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { parsePrefix } from './prefix.ts';

const read = (text: string) => {
  const result = parsePrefix(text);
  return result.ok ? `${result.prefix.family} ${result.prefix.text} [${result.prefix.bytes.join('.')}] /${result.prefix.length}` : `refused: ${result.reason}`;
};

test('canonical dotted IPv4 (the fast path) and every other form read the same way', () => {
  assert.equal(read('66.249.66.0/27'), 'ipv4 66.249.66.0/27 [66.249.66.0] /27');
  assert.equal(read('0.0.0.0/0'), 'ipv4 0.0.0.0/0 [0.0.0.0] /0');
  assert.equal(read('255.255.255.255/32'), 'ipv4 255.255.255.255/32 [255.255.255.255] /32');
  // Not canonical: host bits set, no length, spaces; read by the general path, masked.
  assert.equal(read('66.249.66.1/27'), 'ipv4 66.249.66.0/27 [66.249.66.0] /27');
  assert.equal(read('66.249.66.1'), 'ipv4 66.249.66.1/32 [66.249.66.1] /32');
  assert.equal(read(' 66.249.66.0/27 '), 'ipv4 66.249.66.0/27 [66.249.66.0] /27');
  assert.equal(read('::ffff:66.249.66.0/123'), 'ipv4 66.249.66.0/27 [66.249.66.0] /27');
  assert.equal(read('1.2.3.4/032'), 'ipv4 1.2.3.4/32 [1.2.3.4] /32');
  for (const bad of ['256.0.0.0/8', '1.2.3.4/33', '1.2.3/24', '01.2.3.4/32', '', 'x']) assert.match(read(bad), /^refused/, bad);
});

test('a mapped prefix is IPv4 in any spelling; an IPv4-compatible one stays IPv6, as its addresses do', () => {
  for (const mapped of ['::ffff:66.249.66.0/120', '::ffff:42f9:4200/120', '0:0:0:0:0:FFFF:42F9:4200/120']) {
    assert.equal(read(mapped), 'ipv4 66.249.66.0/24 [66.249.66.0] /24', mapped);
  }
  // ipaddr.js alone made ::66.249.66.0/120 the IPv4 66.249.66.0/24, and ::42f9:4200/120 (the same bits) IPv6.
  assert.equal(read('::66.249.66.0/120'), read('::42f9:4200/120'));
  assert.match(read('::42f9:4200/120'), /^ipv6 ::42f9:4200\/120/);
  for (const bad of ['::ffff:066.249.66.0/120', '::ffff:0x42.249.66.0/120']) assert.match(read(bad), /^refused/, bad);
});
