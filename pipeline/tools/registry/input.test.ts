import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { notUtf8Parameter } from './input.ts';

describe('notUtf8Parameter', () => {
  test('names the first parameter whose percent-encoded bytes are not UTF-8', () => {
    assert.equal(notUtf8Parameter('?ua=caf%E9'), 'ua');
    assert.equal(notUtf8Parameter('?ip=1.2.3.4&ua=%C3'), 'ua');
    assert.equal(notUtf8Parameter('?a=%FF&b=%FE'), 'a');
    // Overlong and surrogate encodings are not UTF-8 either.
    assert.equal(notUtf8Parameter('?ua=%C0%AF'), 'ua');
    assert.equal(notUtf8Parameter('?ua=%ED%A0%80'), 'ua');
    // A bad name is named as URLSearchParams reads it.
    assert.equal(notUtf8Parameter('?u%E9=x'), 'u\uFFFD');
    assert.equal(notUtf8Parameter('ua=%80'), 'ua');
    // Characters outside ASCII (a query given as text, not as a URL serialises it) count as their UTF-8.
    assert.equal(notUtf8Parameter('?ua=é%FF'), 'ua');
    assert.equal(notUtf8Parameter('?ua=%C3é'), 'ua');
  });

  test('reads the lenient parameter (a robots.txt) whatever its bytes, and still names the others', () => {
    assert.equal(notUtf8Parameter('?robots_txt=caf%E9&ua=x', 'robots_txt'), null);
    assert.equal(notUtf8Parameter('?robots_txt=caf%E9&ua=%FF', 'robots_txt'), 'ua');
    assert.equal(notUtf8Parameter('robots_txt%FF=x', 'robots_txt'), 'robots_txt\uFFFD');
    assert.equal(notUtf8Parameter('?robots_txt=caf%E9'), 'robots_txt');
  });

  test('passes UTF-8, ASCII escapes, bare percent signs and escapes that are not escapes', () => {
    for (const search of [
      '',
      '?',
      '?ua=GPTBot',
      '?ua=caf%C3%A9',
      '?ua=%F0%9F%A4%96',
      '?ua=100%',
      '?ua=%ZZ',
      '?ua=%2',
      '?ua=a+b%20c',
      '?ua=%EF%BB%BFx',
      '?ua=é🤖',
      '?ua=%C3%A9é',
    ]) {
      assert.equal(notUtf8Parameter(search), null, search);
    }
  });
});
