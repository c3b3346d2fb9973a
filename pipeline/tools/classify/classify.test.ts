import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildClassifier, classify, type Classification } from './classify.ts';
import { compareText } from '../../util/compare.ts';
import { utf8Length } from '../../util/utf8-length.ts';
import { HEURISTIC_LABEL, UA_LIMIT_BYTES } from './heuristic.ts';
import { BROWSER_USER_AGENTS } from '../browser-user-agents.ts';
import { fixtureCrawler, realCrawlers } from '../../../test/support/classify-data.ts';
import type { CrawlerView } from '../../model/model.ts';

const crawlers = realCrawlers();
const classifier = buildClassifier(crawlers);
const indexed = crawlers.filter((c) => c.user_agent_substring !== null);

function slugOf(answer: Classification): string | null {
  return answer.matched ? answer.crawler.slug : null;
}

/** The rule written the slow, obvious way: the classifier must give the same answers. */
function naiveClassify(list: readonly CrawlerView[], ua: string): { slug: string; others: string[] } | null {
  const withSub = list.filter((c) => c.user_agent_substring);
  // Every string here is ASCII, so toLowerCase is the classifier's ASCII folding. An occurrence
  // counts when no letter or digit touches a word-character end before it (for a name, none of
  // - _ . / : @ = ? & # % ~ either), and no letter after it.
  const tokenStart = (text: string, sub: string): number => {
    const [t, s] = [text.toLowerCase(), sub.toLowerCase()];
    const name = /^[a-z0-9]/.test(s) && !/[.:@]|\/./.test(s);
    for (let i = 0; i + s.length <= t.length; i++) {
      if (t.slice(i, i + s.length) !== s) continue;
      const before = /[a-z0-9]/.test(s[0]!) && (name ? /[a-z0-9_./:@=?&#%~-]/ : /[a-z0-9]/).test(t[i - 1] ?? '');
      const after = /[a-z0-9]/.test(s.at(-1)!) && /[a-z]/.test(t[i + s.length] ?? '');
      if (!before && !after) return i;
    }
    return -1;
  };
  const has = (text: string, sub: string) => tokenStart(text, sub) !== -1;
  // A crawler is known by its own substring and its variants', and carries each of its examples.
  const formsOf = (c: CrawlerView) => [c.user_agent_substring!, ...c.variants.map((v) => v.user_agent_substring)];
  const examplesOf = (c: CrawlerView) => [c.user_agent_example ?? '', ...c.variants.map((v) => v.user_agent_example)];
  const carries = (c: CrawlerView, sub: string) => !formsOf(c).includes(sub) && examplesOf(c).some((example) => has(example, sub));
  // A record with full forms is named by its own substring only in a header of one of them.
  const wholeForm = (form: string) =>
    new RegExp(
      `^${form
        .split(/(\{version\}|\{number\}|\{letter\})/)
        .map((part) =>
          part === '{version}'
            ? '[0-9][0-9.]*'
            : part === '{number}'
              ? '[0-9]+'
              : part === '{letter}'
                ? '[A-Za-z]'
                : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
      'i',
    );
  const inItsForm = (c: CrawlerView, sub: string) =>
    sub !== c.user_agent_substring || c.user_agent_full_forms.length === 0 || c.user_agent_full_forms.some((form) => wholeForm(form).test(ua));
  const rest = withSub
    .flatMap((c) => formsOf(c).map((sub) => ({ c, sub, start: tokenStart(ua, sub) })))
    .filter((x) => x.start !== -1 && inItsForm(x.c, x.sub))
    .sort((a, b) => b.sub.length - a.sub.length || a.start - b.start || compareText(a.c.slug, b.c.slug));
  const order: string[] = [];
  while (rest.length > 0) {
    const i = rest.findIndex((x) => !rest.some((y) => y !== x && carries(y.c, x.sub) && !carries(x.c, y.sub)));
    const slug = rest.splice(Math.max(i, 0), 1)[0]!.c.slug;
    if (!order.includes(slug)) order.push(slug);
  }
  const [first, ...others] = order;
  return first ? { slug: first, others } : null;
}

describe('classify: real records', () => {
  it('leaves every browser User-Agent unmatched', () => {
    const matched = BROWSER_USER_AGENTS.map((ua) => ({ ua, answer: classify(classifier, ua) })).filter((r) => r.answer.matched);
    assert.deepEqual(
      matched.map((r) => `${slugOf(r.answer)} <- ${r.ua}`),
      [],
      'browser headers must never be identified as crawlers',
    );
  });

  it("classifies the spellings operators document on other pages (AMZN-User on Amazon's page) and any change of ASCII case", () => {
    assert.equal(
      slugOf(classify(classifier, 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; AMZN-User/0.1) Chrome/119.0.6045.214 Safari/537.36')),
      'amzn-user',
    );
    const swapCase = (text: string) => text.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
    const changed = indexed
      .filter((c) => c.user_agent_example !== null)
      .filter((c) => slugOf(classify(classifier, swapCase(c.user_agent_example!))) !== slugOf(classify(classifier, c.user_agent_example!)))
      .map((c) => c.slug);
    assert.deepEqual(changed, []);
  });

  it("classifies every record's own example as that record", () => {
    const wrong = indexed
      .filter((c) => c.user_agent_example !== null)
      .map((c) => ({ slug: c.slug, got: slugOf(classify(classifier, c.user_agent_example!)) }))
      .filter((r) => r.got !== r.slug);
    assert.deepEqual(wrong, []);
  });

  it('picks Googlebot-Image over Googlebot and lists Googlebot as another match', () => {
    assert.equal(slugOf(classify(classifier, 'Googlebot-Image/1.0')), 'googlebot-image');
    const answer = classify(classifier, 'Mozilla/5.0 (compatible; Googlebot-Image/1.0; +http://www.google.com/bot.html) Googlebot/2.1');
    assert.ok(answer.matched);
    assert.equal(answer.crawler.slug, 'googlebot-image');
    assert.equal(answer.matched_substring, 'Googlebot-Image');
    assert.deepEqual(answer.other_matches, [{ slug: 'googlebot', matched_substring: 'Googlebot/' }]);
  });

  it('picks kakaotalk-scrap inside a header that also names facebookexternalhit', () => {
    const answer = classify(classifier, 'facebookexternalhit/1.1;kakaotalk-scrap/1.0; +https://devtalk.kakao.com/t/scrap/33984');
    assert.ok(answer.matched);
    assert.equal(answer.crawler.slug, 'kakaotalk-scrap');
    assert.deepEqual(answer.other_matches, [{ slug: 'facebookexternalhit', matched_substring: 'facebookexternalhit' }]);
  });

  it('answers with the record fields the tool promises, copied from the record', () => {
    const answer = classify(classifier, 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)');
    assert.ok(answer.matched);
    const record = crawlers.find((c) => c.slug === 'gptbot')!;
    assert.deepEqual(Object.keys(answer.crawler).sort(), [
      'category',
      'category_label',
      'cost_of_blocking',
      'html_url',
      'json_url',
      'name',
      'operator',
      'operator_slug',
      'respects_robots_txt',
      'respects_robots_txt_label',
      'retired_since',
      'robots_token',
      'slug',
      'status',
      'verification_label',
      'verification_method',
      'verification_source',
    ]);
    for (const [key, value] of Object.entries(answer.crawler)) assert.equal(value, record[key as keyof CrawlerView], key);
    assert.match(answer.note, /Any client can send any User-Agent/);
  });

  it('ignores the case of ASCII letters, and reports the substring as the record writes it', () => {
    const answer = classify(classifier, 'googlebot-image/1.0');
    assert.equal(slugOf(answer), 'googlebot-image');
    assert.ok(answer.matched && answer.matched_substring === 'Googlebot-Image');
    assert.equal(slugOf(classify(classifier, 'GOOGLEBOT-IMAGE/1.0')), 'googlebot-image');
  });

  it('agrees with the naive rule on every example, browser header and mixed header', () => {
    const inputs = [
      ...indexed.map((c) => c.user_agent_example ?? ''),
      ...BROWSER_USER_AGENTS,
      // Several crawlers in one header, in both orders.
      ...indexed.slice(0, 40).map((c, i) => `${c.user_agent_example} ${indexed[(i * 7) % indexed.length]!.user_agent_substring}`),
      ...indexed.slice(0, 40).map((c, i) => `${indexed[(i * 11) % indexed.length]!.user_agent_substring} ${c.user_agent_substring}`),
    ].filter((ua) => ua !== '');
    for (const ua of inputs) {
      const answer = classify(classifier, ua);
      const expected = naiveClassify(crawlers, ua);
      assert.equal(slugOf(answer), expected?.slug ?? null, ua);
      if (answer.matched)
        assert.deepEqual(
          answer.other_matches.map((o) => o.slug),
          expected!.others,
          ua,
        );
    }
  });

  it('gives the same answers whatever order the records are loaded in', () => {
    const reversed = buildClassifier([...crawlers].reverse());
    for (const c of indexed) {
      const ua = `${c.user_agent_example} ${c.user_agent_substring}`;
      assert.deepEqual(classify(reversed, ua), classify(classifier, ua));
    }
  });
});

describe('classify: ties', () => {
  const fixtures = [
    fixtureCrawler('alpha', { user_agent_substring: 'AaaaBot' }),
    fixtureCrawler('beta', { user_agent_substring: 'BbbbBot' }),
    fixtureCrawler('twin-b', { user_agent_substring: 'TwinBot' }),
    fixtureCrawler('twin-a', { user_agent_substring: 'TwinBot' }),
    fixtureCrawler('short', { user_agent_substring: 'Bot' }),
  ];
  const small = buildClassifier(fixtures);

  it('breaks a length tie by the earlier occurrence in the header', () => {
    const answer = classify(small, 'x BbbbBot/1 AaaaBot/2 Bot');
    assert.ok(answer.matched);
    assert.equal(answer.crawler.slug, 'beta');
    assert.deepEqual(answer.other_matches, [
      { slug: 'alpha', matched_substring: 'AaaaBot' },
      { slug: 'short', matched_substring: 'Bot' },
    ]);
  });

  it('breaks a shared substring by slug, independent of record order', () => {
    for (const list of [fixtures, [...fixtures].reverse()]) {
      const answer = classify(buildClassifier(list), 'TwinBot/1.0 (Bot)');
      assert.ok(answer.matched);
      assert.equal(answer.crawler.slug, 'twin-a');
      assert.deepEqual(
        answer.other_matches.map((o) => o.slug),
        ['twin-b', 'short'],
      );
    }
  });

  it('takes a substring only where it stands as a token: not inside a longer name', () => {
    const inside = classify(small, 'AaaaBot/2');
    assert.ok(inside.matched);
    assert.deepEqual(inside.other_matches, [], '"Bot" inside "AaaaBot" is not the crawler "short"');
    assert.equal(classify(small, 'RobotLab/1.0').matched, false);
    // A later occurrence that stands alone still counts; a digit may follow (a glued version).
    assert.equal(slugOf(classify(small, 'RobotLab/1.0 Bot2.1')), 'short');
    assert.equal(classify(small, 'Botany/1.0').matched, false);
  });

  it('takes a name neither inside a URL nor joined to a longer name, and a host- or path-shaped substring inside either', () => {
    // GoogleAgent-Search's real header (device-detector's bot fixtures) carries the docs URL
    // .../google-agent-search, which holds Google-Agent's substring after a slash.
    const search =
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GoogleAgent-Search; +https://developers.google.com/search/docs/crawling-indexing/google-agent-search) Chrome/114.0.0.0 Safari/537.36';
    assert.equal(slugOf(classify(classifier, search)), null);
    assert.equal(
      slugOf(classify(classifier, 'Mozilla/5.0 (compatible; Google-Agent; +https://developers.google.com/crawling/docs/crawlers-fetchers/google-agent)')),
      'google-agent',
    );
    // A name after a hyphen, underscore or dot is part of a longer one.
    assert.equal(slugOf(classify(classifier, 'elmahio-uptimebot/2.0')), 'elmahio-uptimebot');
    const ccbot = classify(classifier, 'Mozilla/5.0 (compatible; CCBot/2.0; +https://commoncrawl.org/faq/)');
    assert.ok(ccbot.matched);
    assert.equal(ccbot.crawler.slug, 'ccbot');
    assert.deepEqual(ccbot.other_matches, [], 'OnCrawl is not in commoncrawl.org');
    for (const header of [
      'Mozilla/5.0 (+https://example.com/gptbot)',
      'Mozilla/5.0 (+https://gptbot.example.com)',
      'Foo/1.0 (x_GPTBot)',
      'Foo/1.0 (see?bot=GPTBot)',
    ])
      assert.equal(slugOf(classify(classifier, header)), null, header);
    assert.equal(slugOf(classify(classifier, 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')), 'gptbot');
    // Substrings shaped like a place are written to be found in one.
    assert.equal(slugOf(classify(classifier, 'Mozilla/2.0 (compatible; Ask Jeeves/Teoma)')), 'teoma');
    assert.equal(slugOf(classify(classifier, 'Mozilla/5.0 (compatible; heritrix/3.4.0 +https://www.kb.dk/netarkivindsamling/) Firefox/57')), 'kb-dk-bot');
  });

  it("says a check from a third party proves less than the operator's own", () => {
    const listed = fixtureCrawler('scanbot', { verification_method: 'fixed-ips', verification_source: 'operator' });
    const thirdParty = fixtureCrawler('listbot', { verification_method: 'fixed-ips', verification_source: 'third-party' });
    const classifier = buildClassifier([listed, thirdParty]);
    const own = classify(classifier, 'scanbot/1.0');
    const other = classify(classifier, 'listbot/1.0');
    assert.ok(own.matched && other.matched);
    assert.match(own.note, /addresses the operator lists on its page/);
    assert.match(other.note, /a check a third party gives, not the operator .* likely, not proven/);
    assert.doesNotMatch(other.note, /the operator lists on its page/);
  });

  it('names a crawler by a variant form as by its own, says which it was, and lists it once when both occur', () => {
    const citation = { url: 'https://example.com/bots', publisher: 'Example', kind: 'observed' as const, retrieved: '2026-11-28' };
    const variant = { user_agent_substring: 'OldAaaa/', user_agent_example: 'OldAaaa/0.9 (+https://example.com/bots)', note: null, citation };
    const withVariant = buildClassifier([...fixtures, fixtureCrawler('alpha2', { user_agent_substring: 'NewAaaa', variants: [variant] })]);
    const old = classify(withVariant, 'OldAaaa/0.9 (+https://example.com/bots)');
    assert.ok(old.matched);
    assert.equal(old.crawler.slug, 'alpha2');
    assert.equal(old.matched_substring, 'OldAaaa/');
    assert.match(old.note, /a variant user-agent substring of alpha2/);
    const both = classify(withVariant, 'NewAaaa/2.0 OldAaaa/0.9 Bot');
    assert.ok(both.matched);
    assert.equal(both.crawler.slug, 'alpha2');
    assert.equal(both.matched_substring, 'OldAaaa/', 'the longer of its two forms');
    assert.deepEqual(both.other_matches, [{ slug: 'short', matched_substring: 'Bot' }], 'alpha2 is not listed again');
    const own = classify(withVariant, 'NewAaaa/2.0');
    assert.ok(own.matched);
    assert.match(own.note, /the user-agent substring of alpha2/);
  });

  it('names a crawler with full forms only for a header of one of them, whatever the case; its variants are not bound by them', () => {
    const citation = { url: 'https://example.com/bots', publisher: 'Example', kind: 'observed' as const, retrieved: '2026-11-28' };
    const chat = fixtureCrawler('chat-preview', {
      user_agent_substring: 'ChatApp/',
      user_agent_example: 'ChatApp/2.19.258 A',
      user_agent_full_forms: ['ChatApp/{version} {letter}', 'ChatApp/{version}/{letter}'],
      variants: [{ user_agent_substring: 'ChatAppPreview/', user_agent_example: 'ChatAppPreview/1.0 (Android 14)', note: null, citation }],
    });
    const small = buildClassifier([chat]);
    assert.equal(slugOf(classify(small, 'ChatApp/2.19.258 A')), 'chat-preview');
    assert.equal(slugOf(classify(small, 'chatapp/2.12.15/I')), 'chat-preview');
    assert.equal(slugOf(classify(small, 'ChatApp/2.17.427 Android/7.0 Device/Moto')), null, 'the app itself');
    assert.equal(slugOf(classify(small, 'x ChatApp/2.19.258 A')), null, 'a form is the whole header');
    assert.equal(slugOf(classify(small, 'ChatAppPreview/1.0 (Android 14)')), 'chat-preview');
  });

  it("ranks a record whose own example carries another's substring above it, even when shorter", () => {
    const list = [
      fixtureCrawler('famous-preview', { user_agent_substring: 'famousexternalhit', operator_slug: 'famous' }),
      fixtureCrawler('tiny', { user_agent_substring: 'tiny-scrap', user_agent_example: 'famousexternalhit/1.1;tiny-scrap/1.0', operator_slug: 'other' }),
    ];
    const answer = classify(buildClassifier(list), 'famousexternalhit/1.1;tiny-scrap/1.0');
    assert.ok(answer.matched);
    assert.equal(answer.crawler.slug, 'tiny');
    assert.deepEqual(answer.other_matches, [{ slug: 'famous-preview', matched_substring: 'famousexternalhit' }]);
    // Without the example saying so, the longer substring wins (rule 3).
    const plain = buildClassifier(list.map((c) => ({ ...c, user_agent_example: null })));
    assert.equal(slugOf(classify(plain, 'famousexternalhit/1.1;tiny-scrap/1.0')), 'famous-preview');
  });

  it("lets two records that carry each other's substrings fall back to length", () => {
    const list = [
      fixtureCrawler('one', { user_agent_substring: 'OneBot', user_agent_example: 'OneBot TwoBotLonger' }),
      fixtureCrawler('two', { user_agent_substring: 'TwoBotLonger', user_agent_example: 'TwoBotLonger OneBot' }),
    ];
    assert.equal(slugOf(classify(buildClassifier(list), 'OneBot TwoBotLonger')), 'two');
  });

  it('counts only crawlers that have a substring', () => {
    const withRobotsOnly = buildClassifier([...fixtures, fixtureCrawler('control', { user_agent_substring: null, robots_only: true })]);
    assert.equal(withRobotsOnly.size, fixtures.length);
  });
});

describe('classify: unmatched answers are a labelled heuristic', () => {
  it('labels an automated-looking header without identifying it', () => {
    const answer = classify(classifier, 'curl/8.5.0');
    assert.equal(answer.matched, false);
    assert.ok(!answer.matched);
    assert.equal(answer.heuristic.label, HEURISTIC_LABEL);
    assert.equal(answer.heuristic.looks_automated, true);
    assert.equal(typeof answer.heuristic.pattern, 'string');
    assert.equal(answer.heuristic.matched_text, 'curl/8.5.0');
    assert.match(answer.heuristic.note, /not an identification/);
    assert.equal(answer.input_issue, null);
    assert.equal('crawler' in answer, false);
  });

  it('says a browser header does not look automated', () => {
    const answer = classify(classifier, BROWSER_USER_AGENTS[0]!);
    assert.ok(!answer.matched);
    assert.equal(answer.heuristic.looks_automated, false);
    assert.equal(answer.heuristic.pattern, null);
  });

  it('never throws on input the HTTP layer should have refused', () => {
    const cases: [unknown, string][] = [
      ['', 'empty'],
      ['   ', 'empty'],
      ['Googlebot/2.1 ' + 'x'.repeat(UA_LIMIT_BYTES), 'too-long'],
      // 3,000 characters but 9,000 bytes: the limit is in bytes.
      ['Googlebot/2.1 ' + '€'.repeat(3000), 'too-long'],
      ['Googlebot/2.1\u0000', 'control-characters'],
      ['Googlebot/2.1\r\nX-Injected: 1', 'control-characters'],
      [undefined, 'not-a-string'],
      [42, 'not-a-string'],
    ];
    for (const [input, issue] of cases) {
      // The type says string; the guard exists for callers that skipped validation.
      const answer = classify(classifier, input as string);
      assert.ok(!answer.matched, String(input).slice(0, 40));
      assert.equal(answer.input_issue, issue);
      assert.equal(answer.heuristic.looks_automated, false);
    }
  });

  it('examines a header exactly at the limit, and a tab inside it', () => {
    const ua = 'Googlebot/2.1\t' + 'x'.repeat(UA_LIMIT_BYTES - 14);
    assert.equal(utf8Length(ua), UA_LIMIT_BYTES);
    assert.equal(slugOf(classify(classifier, ua)), 'googlebot');
  });

  it('measures UTF-8 length like TextEncoder does', () => {
    for (const s of ['', 'abc', 'é', '€', '🤖', 'a\ud800b', '\udc00', 'x🤖é€']) {
      assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
    }
  });
});

describe('classify: a retired crawler', () => {
  it('is still named, and the note says a request carrying it is probably not from its operator', () => {
    const retired = buildClassifier([fixtureCrawler('oldbot', { status: 'retired', retired_since: '2022-05-01' }), fixtureCrawler('newbot')]);
    const answer = classify(retired, 'Mozilla/5.0 (compatible; oldbot/1.0)');
    assert.ok(answer.matched);
    assert.equal(answer.crawler.status, 'retired');
    assert.match(answer.note, /Its operator retired it on 2022-05-01, so a request carrying it now is probably not from ACME\./);
    const active = classify(retired, 'Mozilla/5.0 (compatible; newbot/1.0)');
    assert.ok(active.matched && active.crawler.status === 'active' && !/retired/.test(active.note));
  });
});
