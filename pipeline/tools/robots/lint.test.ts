import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { editDistance } from './distance.ts';
import { lintRobotsTxt, suggestDirective, tokenFromHeader } from './lint.ts';
import type { Finding } from './finding.ts';
import { PARSE_LIMIT_BYTES } from './parse.ts';

function codes(input: string | Uint8Array): Array<[number | null, string]> {
  return lintRobotsTxt(input).map((f) => [f.line, f.code]);
}

function only(input: string | Uint8Array, code: string): Finding[] {
  return lintRobotsTxt(input).filter((f) => f.code === code);
}

describe('lint: directive names', () => {
  it('edit distance counts a swap of neighbours as one edit', () => {
    assert.equal(editDistance('user-agnet', 'user-agent'), 1);
    assert.equal(editDistance('disalow', 'disallow'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  it('misspelt directives are reported with the intended spelling as the fix', () => {
    const cases: Array<[string, string]> = [
      ['Dissallow', 'Disallow'],
      ['Disalow', 'Disallow'],
      ['Disallaw', 'Disallow'],
      ['User-agnet', 'User-agent'],
      ['useragent', 'User-agent'],
      ['User agent', 'User-agent'],
      ['Alow', 'Allow'],
      ['Sitemaps', 'Sitemap'],
      ['Crawl_delay', 'Crawl-delay'],
    ];
    for (const [key, meant] of cases) {
      const f = only(`User-agent: *\n${key}: /x\n`, 'misspelled-directive');
      assert.equal(f.length, 1, key);
      assert.equal(f[0]!.line, 2);
      assert.equal(f[0]!.fix, `Write "${meant}: /x".`, key);
    }
  });

  it('a misspelling Google accepts says so; one it does not accept says both ignore it', () => {
    assert.match(only('User-agent: *\nDissallow: /x\n', 'misspelled-directive')[0]!.message, /Google's parser accepts/);
    assert.match(only('User-agent: *\nDisalllow: /x\n', 'misspelled-directive')[0]!.message, /RFC 9309 parsers and Google's parser ignore/);
    assert.equal(only('User-agent: *\nDissallow: /x\n', 'misspelled-directive')[0]!.severity, 'error');
  });

  it('exact names are not misspellings, and unrelated keys are not forced onto a directive', () => {
    assert.equal(suggestDirective('disallow'), null);
    assert.equal(suggestDirective('x-robots'), null);
    assert.deepEqual(codes('User-agent: *\nFoo-Bar: 1\n'), [[2, 'unknown-directive']]);
  });

  it('Noindex, Nofollow and Host are reported as unsupported', () => {
    const f = lintRobotsTxt('User-agent: *\nNoindex: /a\nNofollow: /b\nHost: example.com\n');
    assert.deepEqual(
      f.map((x) => [x.line, x.code]),
      [
        [2, 'unsupported-directive'],
        [3, 'unsupported-directive'],
        [4, 'unsupported-directive'],
      ],
    );
    assert.match(f[0]!.message, /2019/);
    assert.match(f[0]!.fix, /X-Robots-Tag/);
  });

  it('a misspelt unsupported directive gets the unsupported advice, not a spelling fix', () => {
    const f = only('User-agent: *\nNo-index: /a\n', 'unsupported-directive');
    assert.equal(f.length, 1);
    assert.match(f[0]!.fix, /meta tag/);
  });

  it('Crawl-delay: not in RFC 9309, honoured by Bing and Yandex, ignored by Google', () => {
    const [f] = only('User-agent: *\nCrawl-delay: 10\n', 'crawl-delay');
    assert.ok(f);
    assert.equal(f.severity, 'info');
    assert.match(f.message, /Bing and Yandex honour it, Google ignores it/);
    assert.equal(only('User-agent: *\nCrawl-delay: soon\n', 'crawl-delay')[0]!.severity, 'warning');
  });
});

describe('lint: user-agent lines', () => {
  it('a whole User-Agent header where a token belongs is an error, with the token as the fix', () => {
    const [f] = only('User-agent: Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)\nDisallow: /\n', 'user-agent-header');
    assert.ok(f);
    assert.equal(f.severity, 'error');
    assert.match(f.message, /read it as "Mozilla"/);
    assert.equal(f.fix, 'Write "User-agent: Googlebot".');
    assert.equal(tokenFromHeader('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)'), 'GPTBot');
  });

  it('a token with digits: a strict parser cuts AI2Bot to AI', () => {
    const [f] = only('User-agent: AI2Bot\nDisallow: /\n', 'not-product-token');
    assert.ok(f);
    assert.equal(f.severity, 'warning');
    assert.match(f.message, /cut it to "AI"/);
  });

  it('a token the index records for a crawler (RFC 9309 2.2.1 binds the crawler, not the site) is explained, not a warning', () => {
    const recorded = { recorded: new Map([['ai2bot', { crawler: 'AI2Bot', note: 'Google reads it as "AI".' }]]), didYouMean: () => null, lookups: 0 };
    const [f] = lintRobotsTxt('User-agent: AI2Bot\nDisallow: /\n', recorded).filter((x) => x.code === 'not-product-token');
    assert.equal(f?.severity, 'info');
    assert.match(f.message, /token AI2Bot goes by.*Google reads it as "AI"/);
    assert.match(f.fix, /Nothing to change/);
    // A name the index does not record keeps its warning.
    assert.equal(lintRobotsTxt('User-agent: AI3Bot\nDisallow: /\n', recorded).find((x) => x.code === 'not-product-token')?.severity, 'warning');
  });

  it('a name the index does not know gets the crawler it most likely meant, for a bounded number of distinct names', () => {
    const asked: string[] = [];
    const index = {
      recorded: new Map(),
      didYouMean: (value: string) => {
        asked.push(value);
        return value === 'mojeek' ? { token: 'MojeekBot', because: 'the same name with its generic ending' } : null;
      },
      lookups: 2,
    };
    const findings = lintRobotsTxt('User-agent: mojeek\nUser-agent: MOJEEK\nUser-agent: other\nUser-agent: third\nUser-agent: *\nDisallow: /\n', index).filter(
      (x) => x.code === 'unknown-user-agent',
    );
    assert.deepEqual(
      findings.map((x) => [x.line, x.severity, x.message]),
      [
        [1, 'info', '"mojeek" names no crawler in the index; did you mean MojeekBot (the same name with its generic ending)?'],
        [2, 'info', '"MOJEEK" names no crawler in the index; did you mean MojeekBot (the same name with its generic ending)?'],
      ],
    );
    assert.deepEqual(asked, ['mojeek', 'other'], 'each distinct name once, and no more than the limit');
  });

  it('two names a strict parser cuts alike are two crawlers, not a duplicate group; the same name twice is one', () => {
    assert.deepEqual(only('User-agent: AI2Bot\nDisallow: /\n\nUser-agent: AI2Bot-DeepResearchEval\nDisallow: /\n', 'duplicate-group'), []);
    const [f] = only('User-agent: Kangaroo Bot\nDisallow: /\n\nUser-agent: kangaroo bot\nDisallow: /\n', 'duplicate-group');
    assert.match(f?.message ?? '', /^"kangaroo bot" already has a group at line 1/);
    assert.equal(only('User-agent: Googlebot/2.1\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /\n', 'duplicate-group').length, 1);
  });

  it('a token with a version is only informational: it still works', () => {
    const [f] = only('User-agent: Googlebot/2.1\nDisallow: /\n', 'not-product-token');
    assert.ok(f);
    assert.equal(f.severity, 'info');
    assert.equal(f.fix, 'Write "User-agent: Googlebot".');
  });

  it('tokens with spaces or dots, or starting with a non-token character, are reported', () => {
    assert.equal(only('User-agent: Sogou web spider\nDisallow: /\n', 'not-product-token').length, 1);
    assert.equal(only('User-agent: Mail.RU_Bot\nDisallow: /\n', 'not-product-token').length, 1);
    assert.match(only('User-agent: *bot\nDisallow: /\n', 'not-product-token')[0]!.message, /matches no crawler/);
    assert.equal(only('User-agent: Googlebot-Image\nUser-agent: *\nUser-agent: foo_bar\nDisallow: /\n', 'not-product-token').length, 0);
  });

  it('an empty user-agent value is reported', () => {
    assert.deepEqual(codes('User-agent:\nDisallow: /\n'), [[1, 'empty-user-agent']]);
  });

  it('RFC 9309 2.2.1: duplicate groups for one token are reported at the later group', () => {
    const f = only('User-agent: GPTBot\nDisallow: /a\n\nUser-agent: gptbot\nDisallow: /b\n', 'duplicate-group');
    assert.equal(f.length, 1);
    assert.equal(f[0]!.line, 4);
    assert.match(f[0]!.message, /merge/);
    assert.match(f[0]!.fix, /line 1/);
    assert.deepEqual(codes('User-agent: a\nUser-agent: A\nDisallow: /\n'), [[2, 'duplicate-user-agent']]);
  });

  it('RFC 9309 2.2.4 and Google keep one group across another record; the attach draft splits it at Content-Usage', () => {
    assert.deepEqual(codes('User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n'), [[2, 'crawl-delay']]);
    assert.deepEqual(
      codes('User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n').filter(([, code]) => code === 'group-split-by-directive'),
      [[2, 'group-split-by-directive']],
    );
  });

  it('a blank line inside a group is reported once', () => {
    assert.deepEqual(codes('User-agent: a\n\nDisallow: /x\n\nDisallow: /y\n\nUser-agent: b\nDisallow: /\n'), [[2, 'blank-line-in-group']]);
  });
});

describe('lint: rules and sitemaps', () => {
  it('RFC 9309 2.2.2: rules before any user-agent line are errors', () => {
    const [f] = only('Disallow: /x\nUser-agent: *\nDisallow: /y\n', 'rule-before-user-agent');
    assert.ok(f);
    assert.equal(f.line, 1);
    assert.equal(f.severity, 'error');
  });

  it('a path not starting with "/" or "*" is reported; a full URL gets its path as the fix', () => {
    assert.equal(only('User-agent: *\nDisallow: private\n', 'path-not-absolute')[0]!.fix, 'Write "Disallow: /private".');
    assert.equal(only('User-agent: *\nDisallow: https://example.com/a/b\n', 'path-not-absolute')[0]!.fix, 'Write "Disallow: /a/b".');
    assert.equal(only('User-agent: *\nDisallow: *.gif$\nDisallow:\nAllow: /\n', 'path-not-absolute').length, 0);
  });

  it('relative Sitemap URLs are errors; absolute ones are fine', () => {
    assert.deepEqual(codes('Sitemap: /sitemap.xml\n'), [[1, 'relative-sitemap']]);
    assert.deepEqual(codes('Sitemap: https://example.com/sitemap.xml\n'), []);
    assert.deepEqual(codes('Sitemap: ftp://example.com/s.xml\nSitemap:\n'), [
      [1, 'invalid-sitemap'],
      [2, 'invalid-sitemap'],
    ]);
  });

  it('a line without a colon is an error; the fix follows how Google reads it', () => {
    const [f] = only('User-agent: *\nDisallow /x\n', 'no-colon');
    assert.ok(f);
    assert.match(f.message, /Google's parser reads it as Disallow/);
    assert.equal(f.fix, 'Write "Disallow: /x".');
  });
});

describe('lint: the file as a whole', () => {
  it('an empty file is an info finding only', () => {
    for (const input of ['', new Uint8Array([0xef, 0xbb, 0xbf])]) {
      const f = lintRobotsTxt(input).filter((x) => x.code !== 'bom');
      assert.deepEqual(
        f.map((x) => [x.line, x.severity, x.code]),
        [[null, 'info', 'empty-file']],
      );
    }
  });

  it('a file with content but no user-agent line is reported', () => {
    assert.deepEqual(codes('Disallow: /x\n'), [
      [null, 'no-user-agent'],
      [1, 'rule-before-user-agent'],
    ]);
    assert.deepEqual(codes('Sitemap: https://e.com/s.xml\n'), [], 'a file of sitemaps only is fine');
  });

  it('a byte-order mark is reported on line 1', () => {
    const [f] = only('\uFEFFUser-agent: *\nDisallow: /\n', 'bom');
    assert.ok(f);
    assert.equal(f.line, 1);
  });

  it('RFC 9309 2.3: non-UTF-8 bytes are reported per line', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 0x0a]);
    assert.deepEqual(codes(bytes), [[2, 'invalid-utf8']]);
  });

  it('RFC 9309 2.5: a file over 500 KiB is an error naming the ignored bytes', () => {
    const text = 'User-agent: *\n' + '#'.repeat(PARSE_LIMIT_BYTES) + '\nDisallow: /\n';
    const [f] = only(text, 'over-size');
    assert.ok(f);
    assert.match(f.message, /ignore the other \d+ bytes/);
  });

  it('a clean file has no findings', () => {
    const text = 'User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://example.com/sitemap.xml\n';
    assert.deepEqual(lintRobotsTxt(text), []);
  });

  it('findings are ordered by line, then by severity', () => {
    const f = lintRobotsTxt('Disallow: x\nUser-agent: AI2Bot\nDisalow: /\nSitemap: s.xml\n');
    const lines = f.map((x) => x.line ?? 0);
    assert.deepEqual(
      lines,
      [...lines].sort((a, b) => a - b),
    );
    assert.deepEqual(
      f.filter((x) => x.line === 1).map((x) => x.severity),
      ['error', 'warning'],
    );
  });
});

describe('lint: usage preferences, licences and managed blocks', () => {
  const FILE = `License: https://example.com/license.xml
Content-Signal: search=yes
User-agent: *
Allow: /
Content-Signal: search=yes, ai-input=yes, ai-train=no
Content-Usage: train-ai=n, train-genai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Usage: blog/ train-ai=n
Content-Usage: Train-AI=n
Content-Usage: search=yes, ai-train=n
License: https://example.com/other.xml
Content-Signal: /x search=yes

User-agent: CCBot
Disallow: /
Content-Usage: search=y
`;

  it('explains each line, warns on legacy and unknown labels, wrong values, misplaced lines and syntax, and never calls them errors', () => {
    const found = lintRobotsTxt(FILE).filter((f) => f.line !== null && f.line !== 3 && f.line !== 14);
    assert.deepEqual(
      found.map((f) => [f.line, f.code]),
      [
        [1, 'rsl-license'],
        [2, 'preference-outside-group'],
        [5, 'content-signal'],
        [6, 'legacy-label'],
        [6, 'content-usage'],
        [7, 'content-usage'],
        [8, 'preference-path-not-absolute'],
        [9, 'preference-syntax'],
        [10, 'invalid-preference-value'],
        [10, 'unknown-label'],
        [10, 'content-usage'],
        [11, 'license-in-group'],
        [11, 'rsl-license'],
        [12, 'content-signal-path'],
        [16, 'preference-on-disallowed-path'],
        [16, 'content-usage'],
      ],
    );
    assert.ok(
      found.every((f) => f.severity !== 'error'),
      'no preference line is an error',
    );
    const byCode = (code: string) => found.find((f) => f.code === code)!;
    assert.equal(byCode('legacy-label').fix, 'Write "train-ai=n" instead.');
    assert.equal(byCode('preference-path-not-absolute').fix, 'Write "Content-Usage: /blog/ train-ai=n".');
    assert.equal(byCode('invalid-preference-value').fix, 'Write "search=y".');
    assert.match(byCode('unknown-label').fix, /Write "train-ai=n" here/);
    assert.match(byCode('preference-syntax').message, /case-sensitive/);
    assert.match(found.find((f) => f.line === 5)!.message, /ai-train=no refuses training/);
  });

  it('a misspelt preference directive is a warning with the right name', () => {
    const f = only('User-agent: *\nContent-Signals: search=yes\n', 'misspelled-directive');
    assert.equal(f[0]!.severity, 'warning');
    assert.equal(f[0]!.fix, 'Write "Content-Signal: search=yes".');
  });

  it('a Cloudflare-managed block is named, and a managed group that overrides the site’s own is a warning', () => {
    const file = '# BEGIN Cloudflare Managed content\nUser-agent: ClaudeBot\nDisallow: /\n# END Cloudflare Managed Content\nUser-agent: *\nAllow: /\n';
    assert.deepEqual(
      lintRobotsTxt(file).map((f) => [f.line, f.severity, f.code]),
      [
        [1, 'info', 'cloudflare-managed-block'],
        [2, 'warning', 'cloudflare-managed-override'],
      ],
    );
    assert.equal(only('# BEGIN Cloudflare Managed content\nUser-agent: *\nDisallow: /x\n', 'cloudflare-managed-unclosed').length, 1);
  });

  it('a file of only a License line is not told it lacks a user-agent line', () => {
    assert.deepEqual(only('License: https://example.com/l.xml\n', 'no-user-agent'), []);
  });
});
