import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, evaluateMany, normalizeToken } from './evaluate.ts';
import { parseRobotsTxt, PARSE_LIMIT_BYTES } from './parse.ts';

function check(text: string, token: string, path: string) {
  return evaluate(parseRobotsTxt(text), token, path);
}

function allowed(text: string, token: string, path: string): boolean {
  return check(text, token, path).allowed;
}

describe('group selection (RFC 9309 2.2.1)', () => {
  it('RFC 9309 2.2.1: the group naming the product token applies, matched case-insensitively', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: ExampleBot\nAllow: /\nDisallow: /x\n';
    const v = check(text, 'examplebot', '/x/1');
    assert.equal(v.allowed, false);
    assert.equal(v.matched_by, 'token');
    assert.deepEqual(v.group, { lines: [4], tokens: ['ExampleBot'], line_count: 1, token_count: 1 });
    assert.deepEqual(v.deciding, { line: 6, text: 'Disallow: /x', directive: 'disallow', pattern: '/x', octets: 2 });
    assert.equal(allowed(text, 'EXAMPLEBOT', '/y'), true);
  });

  it('RFC 9309 2.2.1: groups that name the same token are merged', () => {
    const text = 'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n';
    const vs = evaluateMany(parseRobotsTxt(text), 'ExampleBot', ['/foo', '/bar', '/baz', '/qux']);
    assert.deepEqual(
      vs.map((v) => v.allowed),
      [false, false, false, true],
    );
    assert.deepEqual(vs[2]!.group, { lines: [1, 5], tokens: ['ExampleBot'], line_count: 2, token_count: 1 });
    assert.equal(vs[2]!.deciding?.line, 6);
  });

  it('RFC 9309 2.2.1: without a matching group the "*" group applies, and only it', () => {
    const text = 'user-agent: *\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: BazBot\ndisallow: /baz\n';
    const v = check(text, 'ExampleBot', '/foo');
    assert.equal(v.allowed, false);
    assert.equal(v.matched_by, 'star');
    assert.equal(allowed(text, 'ExampleBot', '/baz'), true);
  });

  it('RFC 9309 2.2.1: a crawler named in its own group stops reading the "*" group', () => {
    const text = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /ai-only\n';
    assert.equal(allowed(text, 'GPTBot', '/private'), true);
    assert.equal(allowed(text, 'GPTBot', '/ai-only'), false);
  });

  it('RFC 9309 2.2.1: with no matching group and no "*" group, or no groups at all, everything is allowed', () => {
    const v = check('User-agent: other\nDisallow: /\n', 'ExampleBot', '/x');
    assert.equal(v.allowed, true);
    assert.equal(v.matched_by, 'none');
    assert.equal(v.group, null);
    assert.match(v.reason, /no group for "ExampleBot" and no "\*" group/);
    assert.equal(check('', 'ExampleBot', '/x').allowed, true);
    assert.equal(check('# only a comment\n', 'ExampleBot', '/x').matched_by, 'none');
  });

  it('RFC 9309 2.2.1: several user-agent lines share one group', () => {
    const text = 'User-agent: barbot\nUser-agent: bazbot\nDisallow: /example/page.html\n';
    for (const bot of ['barbot', 'bazbot']) assert.equal(allowed(text, bot, '/example/page.html'), false);
    assert.deepEqual(check(text, 'bazbot', '/').group, { lines: [1, 2], tokens: ['barbot', 'bazbot'], line_count: 2, token_count: 2 });
  });

  it('Google: a user-agent value "Googlebot/2.1" matches the token Googlebot', () => {
    const v = check('User-agent: Googlebot/2.1\nDisallow: /\n', 'Googlebot', '/a');
    assert.equal(v.allowed, false);
    assert.equal(v.matched_by, 'token');
  });

  it('Google: "Googlebot-Image" with no group of its own falls back to the Googlebot group (flagged)', () => {
    const text = 'User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /photos\n';
    const v = check(text, 'Googlebot-Image', '/photos/1.jpg');
    assert.equal(v.allowed, false);
    assert.equal(v.matched_by, 'fallback');
    assert.equal(v.fallback_from, 'Googlebot-Image');
    assert.deepEqual(v.group?.tokens, ['Googlebot']);
    assert.equal(v.disagreements.without_fallback, true, 'strict RFC 9309 would use the * group and allow');
    assert.ok(v.notes.some((n) => n.includes('Googlebot')));
  });

  it('Google: the fallback takes the longest hyphen prefix that has a group, and never beats an exact match', () => {
    const text = 'User-agent: A\nDisallow: /a\n\nUser-agent: A-B\nDisallow: /ab\n\nUser-agent: A-B-C-D\nDisallow: /abcd\n';
    const p = parseRobotsTxt(text);
    assert.equal(evaluate(p, 'A-B-C', '/ab').allowed, false);
    assert.equal(evaluate(p, 'A-B-C', '/a').allowed, true);
    assert.equal(evaluate(p, 'A-B-C', '/').fallback_from, 'A-B-C');
    assert.equal(evaluate(p, 'A-B-C-D', '/abcd').matched_by, 'token');
    assert.equal(evaluate(p, 'A-X', '/a').allowed, false);
    assert.equal(evaluate(p, 'AB', '/a').matched_by, 'none');
  });

  it('Google: a user-agent value "*" followed by text is the global group', () => {
    assert.equal(check('User-agent: * # everyone\nDisallow: /\n', 'AnyBot', '/x').allowed, false);
    assert.equal(check('User-agent: * everyone\nDisallow: /\n', 'AnyBot', '/x').matched_by, 'star');
  });

  it('the caller token is trimmed and cut at "/" (Googlebot/2.1 is read as Googlebot), with a note', () => {
    assert.equal(normalizeToken('  Googlebot/2.1 '), 'Googlebot');
    const v = check('User-agent: Googlebot\nDisallow: /\n', 'Googlebot/2.1', '/');
    assert.equal(v.token, 'Googlebot');
    assert.equal(v.allowed, false);
    assert.ok(v.notes.some((n) => n.includes('read as the product token')));
  });

  it('RFC 9309 2.2.1: a token with digits never matches a strict reading; the whole-name reading is flagged', () => {
    const text = 'User-agent: *\nAllow: /\n\nUser-agent: AI2Bot\nDisallow: /\n';
    const v = check(text, 'AI2Bot', '/page');
    assert.equal(v.allowed, true);
    assert.equal(v.matched_by, 'star');
    assert.equal(v.disagreements.whole_name, true);
    // The strict reading of "AI2Bot" is "AI": a crawler called AI is caught by it.
    assert.equal(allowed(text, 'AI', '/page'), false);
  });
});

describe('rule selection (RFC 9309 2.2.2)', () => {
  it('RFC 9309 2.2.2: the longest matching rule wins, in octets', () => {
    const text = 'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n';
    assert.equal(allowed(text, 'x', '/a/x'), false);
    assert.equal(allowed(text, 'x', '/a/b/x'), true);
    assert.equal(allowed(text, 'x', '/a/b/c/x'), false);
    assert.match(check(text, 'x', '/a/b/x').reason, /line 3 .*4 octets/);
  });

  it('RFC 9309 2.2.2: length is counted in octets after normalisation, not in characters as written', () => {
    // "/é" is 2 characters but 7 octets once encoded (/%C3%A9); "/%C3" is 4 either way.
    const text = 'User-agent: *\nDisallow: /%C3\nAllow: /\u00e9\n';
    const v = check(text, 'x', '/\u00e9');
    assert.equal(v.allowed, true);
    assert.equal(v.deciding?.octets, 7);
  });

  it('RFC 9309 2.2.2: Allow wins a tie with a Disallow of the same length, whatever the order', () => {
    for (const text of ['User-agent: *\nDisallow: /page\nAllow: /page\n', 'User-agent: *\nAllow: /page\nDisallow: /page\n']) {
      const v = check(text, 'x', '/page');
      assert.equal(v.allowed, true);
      assert.equal(v.deciding?.directive, 'allow');
      assert.match(v.reason, /Allow wins a tie/);
    }
    // Same length, different patterns: the tie rule still applies.
    assert.equal(allowed('User-agent: *\nDisallow: /*.x\nAllow: /a.*\n', 'x', '/a.x'), true);
  });

  it('RFC 9309 2.2.2: an empty Disallow matches nothing', () => {
    const v = check('User-agent: *\nDisallow:\n', 'x', '/anything');
    assert.equal(v.allowed, true);
    assert.equal(v.deciding, null);
    assert.equal(v.reason, 'no rule matched: allowed');
  });

  it('RFC 9309 2.2.2: /robots.txt is implicitly allowed', () => {
    const v = check('User-agent: *\nDisallow: /\n', 'x', '/robots.txt');
    assert.equal(v.allowed, true);
    assert.match(v.reason, /RFC 9309 2\.2\.2/);
    assert.equal(check('User-agent: *\nDisallow: /\n', 'x', '/robots.txt.bak').allowed, false);
  });

  it('RFC 9309 2.2.2: with no matching rule, or a group without rules, the path is allowed', () => {
    assert.equal(check('User-agent: quxbot\n', 'quxbot', '/x').reason, 'no rule matched: allowed');
    assert.equal(allowed('User-agent: *\nDisallow: /a\n', 'x', '/b'), true);
  });

  it('RFC 9309 2.2.2: rules before any user-agent line are ignored', () => {
    assert.equal(allowed('Disallow: /\nUser-agent: *\nDisallow: /x\n', 'bot', '/y'), true);
  });

  it('RFC 9309 2.2.3: wildcards and end anchors in rules', () => {
    const text = 'User-agent: *\nDisallow: /*.gif$\nAllow: /public/*.gif$\n';
    assert.equal(allowed(text, 'x', '/a/b.gif'), false);
    assert.equal(allowed(text, 'x', '/a/b.gif?x=1'), true);
    assert.equal(allowed(text, 'x', '/public/b.gif'), true);
  });

  it('RFC 9309 2.2.2: percent-encoding is normalised on both sides', () => {
    const text = 'User-agent: *\nDisallow: /caf\u00e9\nDisallow: /%7euser\n';
    assert.equal(allowed(text, 'x', '/caf%C3%A9/menu'), false);
    assert.equal(allowed(text, 'x', '/caf%c3%a9'), false);
    assert.equal(allowed(text, 'x', '/~user/x'), false);
  });

  it('a whole URL may be given as the path', () => {
    assert.equal(allowed('User-agent: *\nDisallow: /x\n', 'bot', 'https://example.com/x/y?z#f'), false);
  });
});

describe('RFC 9309 section 5 examples', () => {
  const simple = [
    'User-Agent: *',
    'Disallow: *.gif$',
    'Disallow: /example/',
    'Allow: /publications/',
    '',
    'User-Agent: foobot',
    'Disallow:/',
    'Allow:/example/page.html',
    'Allow:/example/allowed.gif',
    '',
    'User-Agent: barbot',
    'User-Agent: bazbot',
    'Disallow: /example/page.html',
    '',
    'User-Agent: quxbot',
    '',
  ].join('\n');
  const p = parseRobotsTxt(simple);

  it('RFC 9309 5.1: the "*" group', () => {
    assert.equal(evaluate(p, 'otherbot', '/pics/a.gif').allowed, false);
    assert.equal(evaluate(p, 'otherbot', '/example/a').allowed, false);
    assert.equal(evaluate(p, 'otherbot', '/publications/a').allowed, true);
    assert.equal(evaluate(p, 'otherbot', '/a.html').allowed, true);
  });

  it('RFC 9309 5.1: foobot may fetch only /example/page.html and /example/allowed.gif', () => {
    assert.deepEqual(
      evaluateMany(p, 'foobot', ['/example/page.html', '/example/allowed.gif', '/example/x', '/', '/robots.txt']).map((v) => v.allowed),
      [true, true, false, false, true],
    );
  });

  it('RFC 9309 5.1: barbot and bazbot share a group', () => {
    for (const bot of ['barbot', 'bazbot']) {
      assert.equal(evaluate(p, bot, '/example/page.html').allowed, false);
      assert.equal(evaluate(p, bot, '/pics/a.gif').allowed, true);
    }
  });

  it('RFC 9309 5.1: quxbot has an empty group at the end and may fetch everything', () => {
    const v = evaluate(p, 'quxbot', '/example/page.html');
    assert.equal(v.allowed, true);
    assert.equal(v.matched_by, 'token');
  });

  it('RFC 9309 5.2: the longest match is used', () => {
    const text = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
    const v = check(text, 'foobot', '/example/page/disallowed.gif');
    assert.equal(v.allowed, false);
    assert.equal(v.deciding?.line, 3);
    assert.equal(allowed(text, 'foobot', '/example/page/other.gif'), true);
  });
});

describe('disagreements between parser behaviours', () => {
  it('non_merging: a parser that obeys only the first of two groups for the token would answer differently', () => {
    const text = 'User-agent: GPTBot\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /b\n';
    const p = parseRobotsTxt(text);
    assert.equal(evaluate(p, 'GPTBot', '/b').disagreements.non_merging, true);
    assert.equal(evaluate(p, 'GPTBot', '/a').disagreements.non_merging, false);
  });

  it('first_group_wins: a parser that stops at the first group naming the token or "*" would answer differently', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n';
    const v = check(text, 'GPTBot', '/x');
    assert.equal(v.allowed, true);
    assert.equal(v.disagreements.first_group_wins, true);
    assert.ok(v.notes.some((n) => n.includes('line 1')));
    assert.equal(check('User-agent: GPTBot\nAllow: /\n\nUser-agent: *\nDisallow: /\n', 'GPTBot', '/x').disagreements.first_group_wins, false);
  });

  it('first_rule_wins: a parser taking the first matching rule in file order would answer differently', () => {
    const text = 'User-agent: *\nDisallow: /\nAllow: /public\n';
    assert.equal(check(text, 'x', '/public/a').disagreements.first_rule_wins, true);
    assert.equal(check(text, 'x', '/private').disagreements.first_rule_wins, false);
  });

  it('google_parser: a "Dissallow" rule is ignored here but obeyed by Google\'s parser', () => {
    const v = check('User-agent: *\nDissallow: /private\n', 'bot', '/private');
    assert.equal(v.allowed, true);
    assert.equal(v.disagreements.google_parser, true);
  });

  it('google_parser: a Crawl-delay between user-agent lines keeps one group for Google too', () => {
    const text = 'User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n';
    const v = check(text, 'a', '/x');
    assert.equal(v.allowed, false, 'RFC 9309 2.2.4: the other record does not interfere');
    assert.equal(v.disagreements.google_parser, false, "Google's parser lets only a rule end a run of user-agent lines");
  });

  it('google_parser: the Google reading runs only where it can differ, and its note names the RFC 9309 section', () => {
    const text = 'User-agent: *\nDisallow: /\nAllow: /caf%C3%A9\nAllow: /a/index.html\n';
    assert.equal(check(text, 'bot', '/café').disagreements.google_parser, true, 'a raw é is not encoded by Google');
    assert.match(check(text, 'bot', '/café').notes.at(-1)!, /URL as given \(\/café\).*RFC 9309 2\.2\.2.*\/caf%C3%A9/);
    assert.equal(check(text, 'bot', '/caf%C3%A9').disagreements.google_parser, false);
    assert.equal(check(text, 'bot', '/a/').allowed, false);
    assert.equal(check(text, 'bot', '/a/').disagreements.google_parser, true, 'Google allows the directory of an allowed index.html');
    assert.equal(check(text, 'bot', '/a/x').disagreements.google_parser, false, 'only the directory itself');
    assert.equal(check('User-agent: *\nDisallow: /\n', ' bot ', '/x').disagreements.google_parser, false, 'surrounding spaces are not a different value');
    const long = check('User-agent: *\nAllow: /%C3%A9\nDisallow: /\n', 'bot', `/é${'é'.repeat(5_000)}`);
    assert.equal(long.disagreements.google_parser, true);
    assert.ok(long.notes.at(-1)!.length < 500, 'a long path is quoted by its start');
  });

  it('no disagreement is flagged on a plain file', () => {
    const v = check('User-agent: *\nDisallow: /private\n', 'bot', '/private/x');
    assert.deepEqual(v.disagreements, {
      non_merging: false,
      first_group_wins: false,
      first_rule_wins: false,
      without_fallback: false,
      google_parser: false,
      whole_name: false,
    });
    assert.deepEqual(v.notes, []);
  });
});

describe('batches and large files', () => {
  it('evaluateMany answers each path in order and equals evaluate path by path', () => {
    const p = parseRobotsTxt('User-agent: *\nDisallow: /a\nAllow: /a/b\n');
    const paths = ['/a', '/a/b', '/c', '/robots.txt'];
    const many = evaluateMany(p, 'bot', paths);
    assert.deepEqual(
      many,
      paths.map((path) => evaluate(p, 'bot', path)),
    );
    assert.deepEqual(evaluateMany(p, 'bot', []), []);
  });

  it('a 500 KiB file with thousands of rules answers 200 paths correctly', () => {
    const starRules = 3000;
    const lines = ['User-agent: *'];
    for (let i = 0; i < starRules; i++) lines.push(`Allow: /a/${i}/*.html$`);
    lines.push('Disallow: /');
    let size = lines.join('\n').length;
    for (let i = 0; size < PARSE_LIMIT_BYTES - 200; i++) {
      const group = `User-agent: bot${i}x\nDisallow: /d/${i}/\nAllow: /d/${i}/public`;
      lines.push(group);
      size += group.length + 1;
    }
    lines.push('User-agent: target', 'Disallow: /t/', 'Allow: /t/ok');
    const p = parseRobotsTxt(lines.join('\n') + '\n');
    assert.equal(p.size.excess_bytes, 0);
    assert.ok(p.groups.length > 5000);
    const paths = Array.from({ length: 200 }, (_, k) => (k % 2 === 0 ? `/a/${k * 13}/p.html` : `/a/${k * 13}/p.htm`));
    const vs = evaluateMany(p, 'unknownbot', paths);
    assert.deepEqual(
      vs.map((v) => v.allowed),
      paths.map((_, k) => k % 2 === 0),
    );
    assert.equal(vs[0]!.deciding?.line, 2);
    const t = evaluateMany(p, 'target', ['/t/x', '/t/ok']);
    assert.deepEqual(
      t.map((v) => v.allowed),
      [false, true],
    );
  });
});
