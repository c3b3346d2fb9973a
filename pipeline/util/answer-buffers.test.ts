import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerBuffers, REUSED_MIN_BYTES } from './answer-buffers.ts';

test('a buffer given back is written into again for an answer it holds without wasting more than the answer, and the bounds hold', () => {
  const buffers = answerBuffers();
  const large = new ArrayBuffer(4 * REUSED_MIN_BYTES);
  buffers.keep([large, new ArrayBuffer(REUSED_MIN_BYTES - 1)]);
  assert.equal(buffers.size, 1, 'a small buffer is not kept');
  // Too large for this answer (more than twice its size): a new buffer.
  assert.notEqual(buffers.take(REUSED_MIN_BYTES).buffer, large);
  const view = buffers.take(3 * REUSED_MIN_BYTES);
  assert.equal(view.buffer, large);
  assert.equal(view.byteLength, 3 * REUSED_MIN_BYTES);
  assert.equal(buffers.size, 0, 'taken once');
  // The smallest that fits is taken.
  const sizes = [8, 3, 5].map((n) => new ArrayBuffer(n * REUSED_MIN_BYTES));
  buffers.keep(sizes);
  assert.equal(buffers.take(3 * REUSED_MIN_BYTES).buffer, sizes[1]);
  // At most 16 buffers and 16 MiB are kept.
  const many = answerBuffers();
  many.keep(Array.from({ length: 40 }, () => new ArrayBuffer(REUSED_MIN_BYTES)));
  assert.equal(many.size, 16);
  const heavy = answerBuffers();
  heavy.keep(Array.from({ length: 5 }, () => new ArrayBuffer(6 * 1024 * 1024)));
  assert.equal(heavy.size, 2);
});
