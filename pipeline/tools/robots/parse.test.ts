import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseRobotsTxt, PARSE_LIMIT_BYTES } from './parse.ts';

const enc = new TextEncoder();

function uaTokens(text: string): string[][] {
  return parseRobotsTxt(text).groups.map((g) => g.user_agents.map((u) => u.token));
}

describe('parse: lines and syntax (RFC 9309 2.2)', () => {
  it('RFC 9309 2.2: LF, CRLF and CR-only line endings give the same lines and numbers', () => {
    const lines = ['User-agent: a', 'Disallow: /x', '', '# c', 'Allow: /y'];
    for (const eol of ['\n', '\r\n', '\r']) {
      const p = parseRobotsTxt(lines.join(eol) + eol);
      assert.equal(p.lines.length, 5, JSON.stringify(eol));
      assert.deepEqual(
        p.lines.map((l) => [l.line, l.text, l.kind]),
        [
          [1, 'User-agent: a', 'user-agent'],
          [2, 'Disallow: /x', 'disallow'],
          [3, '', 'blank'],
          [4, '# c', 'blank'],
          [5, 'Allow: /y', 'allow'],
        ],
      );
    }
  });

  it('RFC 9309 2.2: mixed line endings; CR then LF is one break, LF then CR is two', () => {
    const p = parseRobotsTxt('a: 1\r\nb: 2\rc: 3\n\rd: 4');
    assert.deepEqual(
      p.lines.map((l) => [l.line, l.key]),
      [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
        [4, null],
        [5, 'd'],
      ],
    );
  });

  it('RFC 9309 2.2: "#" starts a comment, whitespace around key and value is trimmed', () => {
    const p = parseRobotsTxt('  User-Agent \t:\t FooBot  # the bot\nDisallow:/a#b # c\n');
    assert.equal(p.groups[0]!.user_agents[0]!.value, 'FooBot');
    assert.equal(p.groups[0]!.rules[0]!.value, '/a');
    assert.equal(p.groups[0]!.rules[0]!.text, 'Disallow:/a#b # c');
  });

  it('RFC 9309 2.2: directive names are case-insensitive', () => {
    const p = parseRobotsTxt('USER-AGENT: a\ndIsAlLoW: /x\nALLOW: /y\nSiteMap: https://e.com/s.xml\n');
    assert.deepEqual(
      p.lines.map((l) => l.kind),
      ['user-agent', 'disallow', 'allow', 'sitemap'],
    );
  });

  it('RFC 9309 2.2.2: a value keeps inner spaces; an empty value is kept as empty', () => {
    const p = parseRobotsTxt('User-agent: a\nDisallow:\nDisallow: /a b\n');
    assert.deepEqual(
      p.groups[0]!.rules.map((r) => [r.value, r.pattern]),
      [
        ['', ''],
        ['/a b', '/a%20b'],
      ],
    );
  });

  it('a line without a colon is reported and not used by the RFC reading', () => {
    const p = parseRobotsTxt('User-agent: a\nDisallow /x\nthis line is prose\n');
    assert.equal(p.groups[0]!.rules.length, 0);
    assert.deepEqual(
      p.issues.filter((i) => i.code === 'no-colon').map((i) => i.line),
      [2, 3],
    );
    assert.equal(p.lines[1]!.kind, 'invalid');
    assert.equal(p.lines[2]!.google_kind, 'invalid');
  });

  it('a colon with no key before it is reported', () => {
    const p = parseRobotsTxt(': /x\n');
    assert.deepEqual(
      p.issues.map((i) => [i.line, i.code]),
      [[1, 'empty-key']],
    );
  });

  it('every group, user-agent line and rule keeps its 1-based line number and original text', () => {
    const text = '# header\n\nUser-agent: *  # all\nDisallow: /p # private\n';
    const p = parseRobotsTxt(text);
    const g = p.groups[0]!;
    assert.deepEqual([g.user_agents[0]!.line, g.user_agents[0]!.text], [3, 'User-agent: *  # all']);
    assert.deepEqual([g.rules[0]!.line, g.rules[0]!.text], [4, 'Disallow: /p # private']);
  });
});

describe('parse: groups (RFC 9309 2.1, 2.2.1, 2.2.4)', () => {
  it('RFC 9309 2.1: consecutive user-agent lines form one group; a user-agent after a rule starts a new one', () => {
    assert.deepEqual(uaTokens('User-agent: a\nUser-agent: b\nDisallow: /\nUser-agent: c\nAllow: /\n'), [['a', 'b'], ['c']]);
  });

  it('RFC 9309 2.2: blank lines and comments do not end a group', () => {
    const p = parseRobotsTxt('User-agent: a\n\n# x\nUser-agent: b\n\nDisallow: /x\n\nDisallow: /y\n');
    assert.equal(p.groups.length, 1);
    assert.deepEqual(
      p.groups[0]!.rules.map((r) => r.line),
      [6, 8],
    );
  });

  it('RFC 9309 2.1: the last group may have no rules', () => {
    const p = parseRobotsTxt('User-agent: a\nDisallow: /\nUser-agent: q\n');
    assert.equal(p.groups.length, 2);
    assert.equal(p.groups[1]!.rules.length, 0);
  });

  it('RFC 9309 2.2.4: a Sitemap or other record does not end a group or split user-agent lines', () => {
    const p = parseRobotsTxt(
      'User-agent: a\nSitemap: https://e.com/s.xml\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\nSitemap: https://e.com/t.xml\nDisallow: /y\n',
    );
    assert.deepEqual(
      p.groups.map((g) => [g.user_agents.map((u) => u.token), g.rules.map((r) => r.value)]),
      [
        [
          ['a', 'b'],
          ['/x', '/y'],
        ],
      ],
    );
    assert.deepEqual(
      p.sitemaps.map((s) => [s.line, s.url]),
      [
        [2, 'https://e.com/s.xml'],
        [6, 'https://e.com/t.xml'],
      ],
    );
    assert.deepEqual(p.unknown, [{ line: 3, text: 'Crawl-delay: 5', key: 'Crawl-delay', value: '5' }]);
  });

  it('RFC 9309 2.2.2: rules before any user-agent line are kept aside as orphans and reported', () => {
    const p = parseRobotsTxt('Disallow: /x\nUser-agent: a\nDisallow: /y\n');
    assert.deepEqual(
      p.orphan_rules.map((r) => r.line),
      [1],
    );
    assert.deepEqual(
      p.groups[0]!.rules.map((r) => r.line),
      [3],
    );
    assert.ok(p.issues.some((i) => i.code === 'rule-outside-group' && i.line === 1));
  });

  it('RFC 9309 2.2.1: a user-agent value is read as its leading product-token characters', () => {
    assert.deepEqual(uaTokens('User-agent: Googlebot/2.1\nUser-agent: AI2Bot\nUser-agent: Mail.RU_Bot\nUser-agent: 2bot\nUser-agent: Foo_Bar-Baz\n'), [
      ['Googlebot', 'AI', 'Mail', '', 'Foo_Bar-Baz'],
    ]);
    const ua = parseRobotsTxt('User-agent: AI2Bot/1.0\n').groups[0]!.user_agents[0]!;
    assert.equal(ua.whole_name, 'AI2Bot');
  });

  it('Google: "*" followed by whitespace and more text is the global group; "*bot" is not', () => {
    assert.deepEqual(uaTokens('User-agent: * everyone\nUser-agent: *bot\n'), [['*', '']]);
  });
});

describe('parse: misspellings (decision: the RFC reading is exact, the Google reading is kept apart)', () => {
  it('RFC 9309 2.2.4: "Dissallow" is not a disallow rule in the RFC reading; it is an unknown directive', () => {
    const p = parseRobotsTxt('User-agent: a\nDissallow: /x\n');
    assert.equal(p.groups[0]!.rules.length, 0);
    assert.deepEqual(
      p.unknown.map((u) => u.key),
      ['Dissallow'],
    );
    assert.equal(p.lines[1]!.google_kind, 'disallow');
  });

  it("Google: the reference parser's typo list and prefix matching are reflected in google_groups", () => {
    const text = [
      'useragent: a',
      'Dissallow: /1',
      'Dissalow: /2',
      'Disalow: /3',
      'Diasllow: /4',
      'Disallaw: /5',
      'Disallowed: /6',
      'User agent: b',
      'Allow /7',
    ].join('\n');
    const p = parseRobotsTxt(text);
    assert.equal(p.groups.length, 0, 'the RFC reading has no user-agent line at all');
    assert.ok(p.google_groups);
    assert.deepEqual(
      p.google_groups.map((g) => [g.user_agents.map((u) => u.token), g.rules.map((r) => [r.directive, r.value])]),
      [
        [
          ['a'],
          [
            ['disallow', '/1'],
            ['disallow', '/2'],
            ['disallow', '/3'],
            ['disallow', '/4'],
            ['disallow', '/5'],
            ['disallow', '/6'],
          ],
        ],
        [['b'], [['allow', '/7']]],
      ],
    );
  });

  it('Google, like RFC 9309 2.2.4: only a rule ends a run of user-agent lines, not a Sitemap or another record', () => {
    for (const other of ['Crawl-delay: 5', 'Sitemap: https://e.com/s', 'Invalid-Unknown-Line: x']) {
      const p = parseRobotsTxt(`User-agent: a\n${other}\nUser-agent: b\nDisallow: /\n`);
      assert.equal(p.groups.length, 1);
      assert.equal(p.google_groups, null, other);
    }
  });

  it("Google: a rule on a line over 16,663 bytes is read from the line's first 16,663 bytes; RFC 9309 reads it whole", () => {
    const value = `/x/${'a'.repeat(16_700)}`;
    const p = parseRobotsTxt(`User-agent: a\nDisallow: ${value}\n`);
    assert.equal(p.groups[0]!.rules[0]!.value, value);
    const cut = p.google_groups?.[0]?.rules[0];
    assert.equal(cut?.value, value.slice(0, 16_663 - 'Disallow: '.length));
    assert.equal(cut?.line, 2);
    assert.equal(cut?.text, `Disallow: ${value}`, 'the line keeps its whole text');
  });

  it('google_groups is null when both readings agree', () => {
    assert.equal(parseRobotsTxt('User-agent: a\nDisallow: /\nSitemap: https://e.com/s\n').google_groups, null);
  });
});

describe('parse: encoding and limits (RFC 9309 2.3, 2.5)', () => {
  it('a UTF-8 byte-order mark is stripped and recorded, for bytes and for strings', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('User-agent: a\nDisallow: /\n')]);
    for (const input of [bytes, '\uFEFFUser-agent: a\nDisallow: /\n']) {
      const p = parseRobotsTxt(input);
      assert.equal(p.bom, true);
      assert.equal(p.lines[0]!.kind, 'user-agent');
      assert.equal(p.lines[0]!.text, 'User-agent: a');
      assert.ok(p.issues.some((i) => i.code === 'bom'));
    }
    assert.equal(parseRobotsTxt('User-agent: a\n').bom, false);
  });

  it('a second byte-order mark is content, not stripped', () => {
    const p = parseRobotsTxt('\uFEFF\uFEFFUser-agent: a\n');
    assert.equal(p.lines[0]!.kind, 'other');
  });

  it('RFC 9309 2.3: invalid UTF-8 is decoded with U+FFFD and its lines are reported', () => {
    const bytes = new Uint8Array([
      ...enc.encode('User-agent: a\r\nDisallow: /caf'),
      0xe9,
      ...enc.encode('\nDisallow: /ok\rDisallow: /'),
      0xff,
      0xfe,
      ...enc.encode('\n'),
    ]);
    const p = parseRobotsTxt(bytes);
    assert.deepEqual(p.invalid_utf8_lines, [2, 4]);
    assert.equal(p.groups[0]!.rules[0]!.value, '/caf\uFFFD');
    assert.equal(p.groups[0]!.rules[0]!.pattern, '/caf%EF%BF%BD');
    assert.deepEqual(
      p.issues.filter((i) => i.code === 'invalid-utf8').map((i) => i.line),
      [2, 4],
    );
  });

  it('RFC 9309 2.5: content past 500 KiB is ignored and the excess bytes reported', () => {
    const head = 'User-agent: *\nDisallow: /in\n';
    const filler = '#'.repeat(PARSE_LIMIT_BYTES - head.length - 1) + '\n'; // ends exactly at the limit
    const tail = 'Disallow: /out\n';
    for (const input of [head + filler + tail, enc.encode(head + filler + tail)]) {
      const p = parseRobotsTxt(input);
      assert.deepEqual(
        p.groups[0]!.rules.map((r) => r.value),
        ['/in'],
      );
      assert.equal(p.size.total_bytes, PARSE_LIMIT_BYTES + tail.length);
      assert.equal(p.size.excess_bytes, tail.length);
      assert.equal(p.size.parsed_bytes, PARSE_LIMIT_BYTES);
      assert.equal(p.size.dropped_line, null);
      assert.ok(p.issues.some((i) => i.code === 'over-limit'));
    }
  });

  it('RFC 9309 2.5: a line cut by the limit is dropped whole, not parsed shortened', () => {
    const head = 'User-agent: *\nDisallow: /in\n';
    const filler = '#'.repeat(PARSE_LIMIT_BYTES - head.length - 8) + '\n';
    const text = head + filler + 'Disallow: /private-area\n';
    const p = parseRobotsTxt(text);
    assert.deepEqual(
      p.groups[0]!.rules.map((r) => r.value),
      ['/in'],
    );
    assert.equal(p.size.dropped_line, 4);
    assert.equal(p.size.parsed_bytes, head.length + filler.length);
  });

  it('RFC 9309 2.5: a file of exactly 500 KiB is parsed whole', () => {
    const head = 'User-agent: *\n';
    const last = 'Disallow: /end';
    const text = head + '#'.repeat(PARSE_LIMIT_BYTES - head.length - last.length - 1) + '\n' + last;
    assert.equal(enc.encode(text).length, PARSE_LIMIT_BYTES);
    const p = parseRobotsTxt(text);
    assert.equal(p.size.excess_bytes, 0);
    assert.deepEqual(
      p.groups[0]!.rules.map((r) => r.value),
      ['/end'],
    );
  });

  it('the byte count of a string input counts UTF-8 octets, not UTF-16 units', () => {
    const p = parseRobotsTxt('Disallow: /é😀\n');
    assert.equal(p.size.total_bytes, enc.encode('Disallow: /é😀\n').length);
  });

  it('an empty input parses to nothing and does not throw', () => {
    for (const input of ['', new Uint8Array(0)]) {
      const p = parseRobotsTxt(input);
      assert.deepEqual([p.lines.length, p.groups.length, p.issues.length], [0, 0, 0]);
    }
  });
});
