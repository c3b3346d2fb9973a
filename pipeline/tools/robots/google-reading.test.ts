import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GOOGLE_LINE_BYTES, googleLine, googlePath, googlePattern, indexDirectoryPattern } from './google-reading.ts';

// Expected values: the path-extraction and escaping checks of google/robotstxt's robots_test.cc
// (commit 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9), test/fixtures/google-robotstxt/README.md.
describe("Google's reading of URLs and rule values", () => {
  it('googlePath keeps path, parameters and query, drops scheme, authority and fragment', () => {
    const cases: Array<[string, string]> = [
      ['', '/'],
      ['http://www.example.com', '/'],
      ['http://www.example.com/', '/'],
      ['http://www.example.com/a', '/a'],
      ['http://www.example.com/a/', '/a/'],
      ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
      ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['example.com', '/'],
      ['example.com/', '/'],
      ['example.com/a', '/a'],
      ['example.com/a/', '/a/'],
      ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['a', '/'],
      ['a/', '/'],
      ['/a', '/a'],
      ['a/b', '/b'],
      ['example.com?a', '/?a'],
      ['example.com/a;b#c', '/a;b'],
      ['//a/b/c', '/b/c'],
    ];
    for (const [url, path] of cases) assert.equal(googlePath(url), path, url);
    assert.equal(googlePath('http://e.com/ツ'), '/ツ', 'nothing is encoded');
  });

  it('googlePattern escapes non-ASCII octets and upper-cases escapes, and decodes nothing', () => {
    assert.equal(googlePattern('http://www.example.com'), 'http://www.example.com');
    assert.equal(googlePattern('/a/b/c'), '/a/b/c');
    assert.equal(googlePattern('á'), '%C3%A1');
    assert.equal(googlePattern('%aa'), '%AA');
    assert.equal(googlePattern('/foo/bar/%62%61%7a'), '/foo/bar/%62%61%7A');
    assert.equal(googlePattern('/😀%'), '/%F0%9F%98%80%');
  });

  it('indexDirectoryPattern: an index.htm… last segment also names its directory, exactly', () => {
    assert.equal(indexDirectoryPattern('/allowed-slash/index.html'), '/allowed-slash/$');
    assert.equal(indexDirectoryPattern('/a/index.htm'), '/a/$');
    assert.equal(indexDirectoryPattern('/a/index.php'), null);
    assert.equal(indexDirectoryPattern('/index.html/a'), null);
  });

  it('googleLine keeps the first 16,663 bytes of a line, never half a character', () => {
    assert.equal(GOOGLE_LINE_BYTES, 16_663);
    assert.equal(googleLine('a'.repeat(20_000)).length, 16_663);
    assert.equal(googleLine('é'.repeat(9_000)).length, 8_331, '8,331 two-byte characters fit, the next would not');
    const short = 'Disallow: /x';
    assert.equal(googleLine(short), short);
  });
});
