import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { seededRandom } from '../../test/support/random.ts';
import { resolvePath } from './request-path.ts';

/** The rule as it reads: a `.` or `..` segment, or an empty one before the last, after the leading slash. */
function hasDotOrEmptySegment(path: string): boolean {
  const segments = path.split('/').slice(1);
  return segments.some((s, i) => s === '.' || s === '..' || (s === '' && i < segments.length - 1));
}

describe('request-path.ts: which targets name a path inside the tree', () => {
  test('dot and empty segments are refused exactly where a split into segments finds them (20,000 random paths)', () => {
    const random = seededRandom(11);
    const parts = ['/', '.', '..', '...', 'a', '.hidden', 'x.json', '%2e', '%2F', '%', 'api', 'v1'];
    for (let n = 0; n < 20_000; n++) {
      let path = '';
      for (let length = random.int(8); length >= 0; length--) path += random.pick(parts);
      let decoded: string;
      try {
        decoded = decodeURIComponent(path);
      } catch {
        assert.deepEqual(resolvePath(path), { ok: false, reason: 'malformed percent-encoding' }, path);
        continue;
      }
      const result = resolvePath(path);
      if (hasDotOrEmptySegment(decoded)) assert.deepEqual(result, { ok: false, reason: 'dot or empty segment' }, path);
      else assert.equal(result.ok, true, path);
    }
  });

  test('real targets', () => {
    assert.deepEqual(resolvePath('/crawler/gptbot.json'), { ok: true, path: '/crawler/gptbot.json', prefixed: false });
    assert.deepEqual(resolvePath('/api/v1/crawler/gptbot.json'), { ok: true, path: '/crawler/gptbot.json', prefixed: true });
    assert.deepEqual(resolvePath('/crawler/%67ptbot.json'), { ok: true, path: '/crawler/gptbot.json', prefixed: false });
    assert.equal(resolvePath('/crawler/%2e%2e/secret').ok, false);
    assert.equal(resolvePath('/crawler//gptbot.json').ok, false);
    assert.equal(resolvePath('/crawler/').ok, true);
    assert.equal(resolvePath('/a\\b').ok, false);
  });
});
