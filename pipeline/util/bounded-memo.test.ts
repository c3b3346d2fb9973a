import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { boundedMemo } from './bounded-memo.ts';

test('boundedMemo computes a key once, keeps at most its count of keys, and never keeps a key longer than its limit', () => {
  const computed: string[] = [];
  const memo = boundedMemo(
    (key) => {
      computed.push(key);
      return key === 'none' ? null : key.length;
    },
    { keys: 2, keyLength: 4 },
  );
  assert.equal(memo('ab'), 2);
  assert.equal(memo('ab'), 2);
  assert.equal(memo('none'), null);
  assert.equal(memo('none'), null, 'a null answer is remembered too');
  assert.deepEqual(computed, ['ab', 'none']);
  assert.equal(memo('abcde'), 5);
  assert.equal(memo('abcde'), 5);
  assert.deepEqual(computed.slice(2), ['abcde', 'abcde'], 'a key over the length limit is computed each time');
  memo('xy');
  memo('ab');
  assert.deepEqual(computed.slice(4), ['xy', 'ab'], 'past the count the memory starts over');
});
