// The measurement behind /data/policy-accuracy.json: that it catches what peers' configs got
// wrong (a substring inside another product's token), that every dialect's quoting reads back to
// the same regex, and that the regex is the classifier's own rule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { CrawlerView, PolicyView } from '../../model/model.ts';
import type { SiteSettings } from '../../records/types.ts';
import { containsToken, tokenPattern } from '../../tools/classify/token.ts';
import { fixtureCrawler, peerEntries, realCrawlers } from '../../../test/support/classify-data.ts';
import { alternatives, HeaderSet, measure, requiredText, type Headers } from './accuracy.ts';
import { serverConfig } from './configs.ts';
import { DIALECTS } from './dialects.ts';

const SITE: SiteSettings = {
  name: 'Crawler Index',
  base_url: 'https://index.example',
  repository: 'https://github.com/crawler-index/crawler-index',
  license: 'CC0-1.0',
  contact: 'https://github.com/crawler-index/crawler-index/issues',
  security_contact: 'https://example.org/security',
};

function policyOf(crawlers: CrawlerView[]): PolicyView {
  return { id: 'block-ai-training', title: 'Block the test crawlers', directive: 'disallow', rationale: 'A test.', caveats: [], crawlers };
}

function headers(browsers: string[], crawlers: CrawlerView[]): Headers {
  const examples = crawlers.map((crawler) => ({ crawler, header: crawler.user_agent_example! }));
  return {
    examples,
    exampleSet: new HeaderSet(examples.map((e) => e.header)),
    browsers: new HeaderSet(browsers),
    apps: new HeaderSet([]),
    peers: new HeaderSet([]),
    peerAttribution: [],
  };
}

// Real headers of the kind peers' configs blocked by mistake.
const IE8 = 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; SLCC2; .NET CLR 2.0.50727; Media Center PC 6.0)';
const BAIDU = 'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)';
const EDITOR =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.95.3 Chrome/128.0.6613.186 Electron/32.2.1 Safari/537.36';

describe('policy accuracy: the measurement can fail', () => {
  const lcc = fixtureCrawler('lcc', { user_agent_substring: 'LCC', user_agent_example: 'LCC (+http://corpora.informatik.uni-leipzig.de/crawler_faq.html)' });
  const spider = fixtureCrawler('spider', { user_agent_substring: 'Spider', user_agent_example: 'Mozilla/5.0 (compatible; Spider/1.0)' });
  const crawlers = [lcc, spider];
  const set = headers([IE8, BAIDU, EDITOR], crawlers);

  it('counts browser matches of a bare-substring matcher (SLCC2 holds LCC, Baiduspider holds Spider)', () => {
    const naive = measure(set, policyOf(crawlers), ['LCC', 'Spider', 'Code']);
    assert.equal(naive.browsers.matched, 3);
    assert.deepEqual(naive.browsers.matched_user_agents, [IE8, BAIDU, EDITOR]);
  });

  it('counts a named crawler whose example the matcher misses (an anchored regex)', () => {
    const anchored = measure(set, policyOf(crawlers), ['^LCC', '^Spider']);
    assert.deepEqual(anchored.named_crawler_examples.missed, ['spider']);
  });

  it('the token rule keeps LCC out of SLCC2 and Spider out of a URL path, and matches both crawlers', () => {
    const figures = measure(
      set,
      policyOf(crawlers),
      crawlers.map((c) => tokenPattern(c.user_agent_substring!)),
    );
    assert.deepEqual(figures.named_crawler_examples, { tested: 2, matched: 2, missed: [] });
    // "spider" in Baidu's URL (/search/spider.html) follows a slash, so it is inside a path, not
    // a name of its own. A generic word still counts wherever it stands alone, which is why
    // records/checks/specific-substring.ts refuses such substrings.
    assert.deepEqual(figures.browsers.matched_user_agents, []);
    const alone = measure(
      headers([`${BAIDU} Spider`], crawlers),
      policyOf(crawlers),
      crawlers.map((c) => tokenPattern(c.user_agent_substring!)),
    );
    assert.equal(alone.browsers.matched, 1);
  });
});

describe('policy accuracy: every dialect reads back what it wrote', () => {
  // Characters each config language treats specially: quotes, backslash, $, braces, ;, #, backtick.
  const awkward = ['Odd"Bot', "It'sBot", 'Back\\slashBot', 'Dollar$Bot', 'Brace{1}Bot', 'Semi;Bot', 'Hash#Bot', 'Tick`Bot', 'Space Bot/'];
  const crawlers = awkward.map((substring, i) =>
    fixtureCrawler(`odd-${i}`, { user_agent_substring: substring, user_agent_example: `Mozilla/5.0 (compatible; ${substring}/1.0)` }),
  );
  for (const dialect of DIALECTS) {
    it(`${dialect.label}: each crawler's example matched, the same name inside a longer word not`, () => {
      const patterns = dialect.extract(serverConfig(SITE, policyOf(crawlers), dialect, '2026-01-01T00:00:00Z'));
      const figures = measure(headers([], crawlers), policyOf(crawlers), patterns);
      assert.deepEqual(figures.named_crawler_examples.missed, []);
      const regexes = patterns.map((p) => new RegExp(p, 'i'));
      for (const substring of awkward) assert.ok(!regexes.some((r) => r.test(`X${substring}s`)), `${substring} inside a longer word`);
    });
  }
});

describe('policy accuracy: the regex is the classifier rule', () => {
  it('tokenPattern matches exactly where containsToken says the substring stands as a token', () => {
    const crawlers = realCrawlers().filter((c) => c.user_agent_substring !== null);
    const browsers = (JSON.parse(readFileSync(new URL('../../../records/corpus/browsers.json', import.meta.url), 'utf8')) as { user_agents: string[] })
      .user_agents;
    const sample = [
      ...crawlers.map((c) => c.user_agent_example ?? ''),
      ...browsers.filter((_, i) => i % 25 === 0),
      ...peerEntries()
        .flatMap((e) => e.instances)
        .filter((_, i) => i % 3 === 0),
      // Glued and embedded forms, in both cases.
      ...crawlers.flatMap((c) => [`x${c.user_agent_substring}`, `${c.user_agent_substring}9`, `${c.user_agent_substring!.toUpperCase()}z`]),
    ];
    const differ: string[] = [];
    for (const { user_agent_substring: substring } of crawlers) {
      const regex = new RegExp(tokenPattern(substring!), 'i');
      for (const header of sample) if (regex.test(header) !== containsToken(header, substring!)) differ.push(`${substring} in ${header}`);
    }
    assert.deepEqual(differ, []);
  });
});

describe('the text a pattern needs (what narrows the headers each regex runs over)', () => {
  it('a served crawler pattern needs its literal, in lower case, escapes undone', () => {
    assert.equal(requiredText(tokenPattern('GPTBot')), 'gptbot');
    assert.equal(requiredText(tokenPattern('Google-Extended')), 'google-extended');
    assert.equal(requiredText(tokenPattern('bnf.fr_bot')), 'bnf.fr_bot');
  });

  it('anything but a plain ASCII literal inside the bounds needs nothing, so every header is tried', () => {
    assert.equal(requiredText('GPTBot'), 'gptbot');
    assert.equal(requiredText('(?:^|[^A-Za-z0-9])GPT\\dBot(?:[^A-Za-z]|$)'), null);
    assert.equal(requiredText('(?:^|[^A-Za-z0-9])GPT(?:Bot|User)(?:[^A-Za-z]|$)'), null);
    assert.equal(requiredText('(?:^|[^A-Za-z0-9])Bot.*(?:[^A-Za-z]|$)'), null);
    assert.equal(requiredText('(?:^|[^A-Za-z0-9])Yeti-ñ(?:[^A-Za-z]|$)'), null);
  });

  it('matches exactly what the regex alone matches, over the real crawlers and headers whose case differs', () => {
    const crawlers = realCrawlers();
    const samples = [
      ...crawlers.flatMap((c) =>
        c.user_agent_example === null ? [] : [c.user_agent_example, c.user_agent_example.toUpperCase(), c.user_agent_example.toLowerCase()],
      ),
      IE8,
      // Non-ASCII letters that fold to ASCII under toLowerCase (Kelvin sign, dotted I) but not under the regex's `i`.
      'Mozilla/5.0 (compatible; \u212Aagi/1.0; \u0130A_Archiver)',
    ];
    const set = new HeaderSet(samples);
    for (const crawler of crawlers) {
      if (crawler.user_agent_substring === null) continue;
      const pattern = tokenPattern(crawler.user_agent_substring);
      const regex = new RegExp(pattern, 'i');
      const expected = samples.flatMap((header, i) => (regex.test(header) ? [i] : []));
      assert.deepEqual(
        [...set.matching([pattern])].sort((a, b) => a - b),
        expected,
        crawler.slug,
      );
    }
  });
});

describe('a joined pattern is measured through its alternatives', () => {
  it('splits only at a top-level |, and unwraps a group only when its parentheses pair', () => {
    assert.deepEqual(alternatives('(?:a)|(?:b|c)|d'), ['a', 'b|c', 'd']);
    assert.deepEqual(alternatives('(?:a)(?:b)|c'), ['(?:a)(?:b)', 'c']);
    assert.deepEqual(alternatives('[|]x|\\|y'), ['[|]x', '\\|y']);
    assert.deepEqual(alternatives('(?:a|b)'), ['a|b']);
    assert.equal(alternatives('(?:a)(?:b)'), null);
    assert.equal(alternatives('abc'), null);
    assert.equal(alternatives('(a|b'), null);
  });

  it('a config joining every pattern matches the headers its patterns match one by one, in every dialect', () => {
    const crawlers = realCrawlers().filter((c) => c.user_agent_substring !== null && c.user_agent_example !== null);
    const samples = [...crawlers.map((c) => c.user_agent_example!), IE8];
    const policy = policyOf(crawlers);
    for (const dialect of DIALECTS) {
      const patterns = dialect.extract(serverConfig(SITE, policy, dialect, '2026-01-01T00:00:00Z'));
      const expected = samples.flatMap((header, i) => (patterns.some((p) => new RegExp(p, 'i').test(header)) ? [i] : []));
      assert.deepEqual(
        [...new HeaderSet(samples).matching(patterns)].sort((a, b) => a - b),
        expected,
        dialect.id,
      );
    }
  });
});
