import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundFindings, boundMessage, clip, cut, quote } from './quote.ts';

describe('quote.ts: upstream text is repeated cut, quoted and on one line', () => {
  test('quote: short text whole, long text cut with the count left out', () => {
    assert.equal(quote('ab"c'), '"ab\\"c"');
    assert.equal(quote('x'.repeat(200)), `"${'x'.repeat(200)}"`);
    assert.equal(quote('x'.repeat(200_000)), `"${'x'.repeat(200)}"… (199800 more characters)`);
    assert.equal(quote('line\nbreak'), '"line\\nbreak"');
    assert.equal(clip('{"a":1}'.repeat(100), 14), '{"a":1}{"a":1}… (686 more characters)');
  });

  test('cut never splits a surrogate pair', () => {
    assert.equal(cut('ab😀cd', 3), 'ab');
    assert.equal(cut('ab😀cd', 4), 'ab😀');
  });

  test('boundMessage: one line, at most the limit, and applying it twice changes nothing', () => {
    assert.equal(boundMessage('a\r\nb\u2028c\u0000d'), 'a b c d');
    const long = boundMessage('y'.repeat(50_000));
    assert.ok(long.length <= 1_000, `${long.length}`);
    assert.match(long, /… \(message cut: \d+ more characters\)$/);
    assert.equal(boundMessage(long), long);
  });

  test('boundFindings: at most 20 lines, the last counting the rest; idempotent', () => {
    const many = Array.from({ length: 100 }, (_, i) => `finding ${i}`);
    const bounded = boundFindings(many);
    assert.equal(bounded.length, 20);
    assert.equal(bounded.at(-1), '…and 81 more findings not shown.');
    assert.deepEqual(boundFindings(bounded), bounded);
    assert.deepEqual(boundFindings(['a', 'b']), ['a', 'b']);
  });
});
