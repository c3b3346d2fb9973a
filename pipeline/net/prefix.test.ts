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
