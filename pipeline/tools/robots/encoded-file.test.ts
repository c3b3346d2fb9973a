import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { encodedWhole } from './encoded-file.ts';

test('a whole file percent-encoded once more than needed is recognised, in either form encoding', () => {
  assert.deepEqual(encodedWhole('User-agent%3A%20*%0ADisallow%3A%20%2F'), { lines: 2, first: 'User-agent: *' });
  assert.deepEqual(encodedWhole('User-agent%3A+GPTBot%0D%0ADisallow%3A+%2F%0D%0A'), { lines: 2, first: 'User-agent: GPTBot' });
  assert.deepEqual(encodedWhole('%23%20comment%0AUser-agent%3A%20*%0AAllow%3A%20%2F'), { lines: 3, first: 'User-agent: *' });
});

test('anything else is a file: line breaks, no encoded line break, lines that are no directives, bad escapes', () => {
  assert.equal(encodedWhole('User-agent: *\nDisallow: /a%0Ab'), null);
  assert.equal(encodedWhole('Disallow: /a%0Ab'), null);
  assert.equal(encodedWhole('User-agent%3A%20*'), null);
  assert.equal(encodedWhole('%23%20just%20a%20comment%0A%23%20another'), null);
  assert.equal(encodedWhole('User-agent%3A%20*%0ADisallow%3A%20%E0%A4%A'), null);
  assert.equal(encodedWhole(''), null);
});
