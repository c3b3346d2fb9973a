import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compilePattern } from './match.ts';
import { normalizePattern, normalizeRequestPath } from './percent-encoding.ts';
import { seededRandom } from '../../../test/support/random.ts';

function matches(pattern: string, path: string): boolean {
  return compilePattern(normalizePattern(pattern))(normalizeRequestPath(path));
}

describe('normalisation (RFC 9309 2.2.2, 2.2.3)', () => {
  it('RFC 9309 2.2.2: example table, percent-encoded URI components', () => {
    // [path in robots.txt, encoded form, path to match]
    const rows: Array<[string, string, string]> = [
      ['/foo/bar?baz=quz', '/foo/bar?baz=quz', '/foo/bar?baz=quz'],
      ['/foo/bar/\u30C4', '/foo/bar/%E3%83%84', '/foo/bar/%E3%83%84'],
      ['/foo/bar/%E3%83%84', '/foo/bar/%E3%83%84', '/foo/bar/%E3%83%84'],
      ['/foo/bar/%62%61%7A', '/foo/bar/baz', '/foo/bar/baz'],
    ];
    for (const [written, normalised, request] of rows) {
      assert.equal(normalizePattern(written), normalised, written);
      assert.ok(matches(written, request), `${written} should match ${request}`);
    }
    assert.ok(matches('/foo/bar/%E3%83%84', '/foo/bar/\u30C4'), 'a raw non-ASCII request path is encoded too');
  });

  it('RFC 9309 2.2.2: hex digits compare case-insensitively; unreserved escapes decode, reserved ones do not', () => {
    assert.equal(normalizePattern('/a%2fb%7e%41'), '/a%2Fb~A');
    assert.ok(matches('/a%2fb', '/a%2Fb'));
    assert.ok(!matches('/a%2Fb', '/a/b'), '%2F is a reserved character and stays encoded');
    assert.ok(matches('/%7Euser', '/~user'));
  });

  it('RFC 9309 2.2.3: a %-encoded "*" or "$" in a pattern matches the literal character in the URI', () => {
    assert.ok(matches('/path/file-with-a-%2A.html', 'https://www.example.com/path/file-with-a-*.html'));
    assert.ok(matches('/path/foo-%24', 'https://www.example.com/path/foo-$'));
    assert.ok(!matches('/path/file-with-a-%2A.html', '/path/file-with-a-b.html'));
  });

  it('RFC 9309 2.2.3: "$" is special only at the end of a pattern', () => {
    assert.equal(normalizePattern('/a$b$'), '/a%24b$');
    assert.ok(matches('/a$b$', '/a$b'));
    assert.ok(!matches('/a$b$', '/a$bc'));
  });

  it('a stray "%" is a literal percent sign on both sides', () => {
    assert.equal(normalizePattern('/100%'), '/100%25');
    assert.ok(matches('/100%', '/100%25'));
    assert.ok(matches('/100%', '/100%'));
  });

  it('request paths: full URLs lose scheme, host and fragment; a missing "/" is added', () => {
    assert.equal(normalizeRequestPath('https://example.com/a/b?c=d#frag'), '/a/b?c=d');
    assert.equal(normalizeRequestPath('https://example.com'), '/');
    assert.equal(normalizeRequestPath('https://example.com?q=1'), '/?q=1');
    assert.equal(normalizeRequestPath('a/b'), '/a/b');
    assert.equal(normalizeRequestPath(''), '/');
    assert.equal(normalizeRequestPath('/a b'), '/a%20b');
  });
});

describe('pattern matching (RFC 9309 2.2.2, 2.2.3)', () => {
  it('RFC 9309 2.2.2: matching starts with the first octet of the path and is case-sensitive', () => {
    assert.ok(matches('/fish', '/fish.html'));
    assert.ok(matches('/fish', '/fishheads/yummy.html'));
    assert.ok(!matches('/fish', '/Fish.asp'));
    assert.ok(!matches('/fish', '/catfish'));
    assert.ok(!matches('fish', '/fish'));
  });

  it('RFC 9309 2.2.3: "*" matches any run of characters, including "/" and nothing', () => {
    assert.ok(matches('/*.php', '/index.php'));
    assert.ok(matches('/*.php', '/folder/sub/file.php?x=1'));
    assert.ok(!matches('/*.php', '/index.PHP'));
    assert.ok(matches('/this/*/exactly', '/this/a/b/exactly'));
    assert.ok(matches('/a*', '/a'));
    assert.ok(matches('*', '/anything'));
  });

  it('RFC 9309 2.2.3: "$" anchors the end', () => {
    assert.ok(matches('/*.php$', '/a.php'));
    assert.ok(!matches('/*.php$', '/a.php?x'));
    assert.ok(matches('/this/path/exactly$', '/this/path/exactly'));
    assert.ok(!matches('/this/path/exactly$', '/this/path/exactly/'));
    assert.ok(matches('/a*b*c$', '/axxbyyc'));
    assert.ok(!matches('/a*bc*c$', '/abc'));
    assert.ok(matches('/ab*b$', '/abb'));
    assert.ok(!matches('/ab*b$', '/ab'), 'suffix may not overlap the prefix');
  });

  it('RFC 9309 2.2.2: an empty pattern matches nothing', () => {
    assert.ok(!compilePattern('')('/'));
  });

  it('agrees with a regular-expression reference on 5000 seeded random cases', () => {
    const rnd = seededRandom(9309);
    const toRegex = (p: string): RegExp => {
      const anchored = p.endsWith('$');
      const body = (anchored ? p.slice(0, -1) : p)
        .split('*')
        .map((s) => s.replace(/[.?+^${}()|[\]\\/]/g, '\\$&'))
        .join('[\\s\\S]*');
      return new RegExp('^' + body + (anchored ? '$' : ''));
    };
    for (let i = 0; i < 5000; i++) {
      let pattern = '/';
      const plen = rnd.int(7);
      for (let j = 0; j < plen; j++) pattern += rnd.pick(['a', 'b', '/', '*', '*', 'ab']);
      if (rnd.next() < 0.4) pattern += '$';
      let path = '/';
      const len = rnd.int(10);
      for (let j = 0; j < len; j++) path += rnd.pick(['a', 'b', '/']);
      assert.equal(compilePattern(pattern)(path), toRegex(pattern).test(path), `pattern ${pattern} path ${path}`);
    }
  });

  it('stays fast on a pathological pattern (many stars against a long path)', () => {
    const pattern = '/' + 'a*'.repeat(20000) + 'b';
    const path = '/' + 'a'.repeat(4000);
    assert.equal(compilePattern(pattern)(path), false);
  });
});
