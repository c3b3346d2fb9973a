import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ChangeEvent, EventLog } from '../changes/types.ts';
import { EMPTY_LOG } from '../changes/types.ts';
import type { SiteSettings } from '../records/types.ts';
import { describeErrors, validatorFor } from '../schema/ajv.ts';
import { escapeXml, FEED_ITEM_LIMIT, FEED_PREFIX_LIMIT, renderFeeds, rfc822 } from './feeds.ts';
import type { RenderedFile } from './output.ts';

const SITE: SiteSettings = {
  name: 'Crawler Index',
  base_url: 'https://example.test/index',
  repository: 'https://github.com/example/crawler-index',
  license: 'CC0-1.0',
  contact: 'https://github.com/example/crawler-index/issues',
  security_contact: 'https://github.com/example/crawler-index/issues',
};
const GENERATED_AT = '2025-03-04T06:00:00Z';

function event(cursor: number, fields: Partial<ChangeEvent> & Pick<ChangeEvent, 'kind' | 'subject'>): ChangeEvent {
  const day = String(1 + (cursor % 28)).padStart(2, '0');
  return { cursor, observed_at: `2025-02-${day}T${String(cursor % 24).padStart(2, '0')}:00:00Z`, summary: `Event ${cursor}.`, ...fields };
}

const crawler = (id: string) => ({ type: 'crawler' as const, id, url: `https://example.test/index/crawler/${id}.html` });
const source = (id: string) => ({ type: 'source' as const, id, url: `https://example.test/index/ip-ranges/${id}.json` });

/** A few of each kind, oldest first, as the log keeps them. */
const EVENTS: ChangeEvent[] = [
  event(1, { kind: 'crawler.added', subject: crawler('gptbot'), summary: 'GPTBot was added.' }),
  event(2, { kind: 'crawler.added', subject: crawler('claudebot'), summary: 'ClaudeBot was added.' }),
  event(3, {
    kind: 'ranges.changed',
    subject: source('openai-gptbot'),
    summary: 'OpenAI GPTBot ranges gained 2 and lost 1 prefix.',
    added: { ipv4: ['20.15.240.64/28'], ipv6: ['2a0b:4140::/32'] },
    removed: { ipv4: ['52.230.152.0/24'], ipv6: [] },
  }),
  event(4, { kind: 'crawler.edited', subject: crawler('gptbot'), summary: 'GPTBot was edited.', fields: ['user_agent_example', 'last_reviewed'] }),
  event(5, { kind: 'source.stopped-answering', subject: source('google-googlebot'), summary: 'Google Googlebot list stopped answering.', error: 'HTTP 503' }),
  event(6, { kind: 'source.started-answering', subject: source('google-googlebot'), summary: 'Google Googlebot list answers again.' }),
  event(7, { kind: 'crawler.withdrawn', subject: crawler('oldbot'), summary: 'OldBot was withdrawn.' }),
  event(8, { kind: 'ranges.changed', subject: source('bing-bingbot'), summary: 'Bing ranges lost 1 prefix.', removed: { ipv4: [], ipv6: ['2620:1ec::/36'] } }),
];

function logOf(events: ChangeEvent[]): EventLog {
  const head = events.reduce((max, e) => Math.max(max, e.cursor), 0);
  const oldest = events.reduce((min, e) => Math.min(min, e.cursor), head + 1);
  return { head, oldest, last_base: null, last_batch_start: null, events };
}

function bodies(files: RenderedFile[]): { json: string; xml: string } {
  const text = (path: string) => {
    const file = files.find((f) => f.path === path);
    assert.ok(file, `${path} rendered`);
    assert.equal(typeof file.body, 'string');
    return file.body as string;
  };
  return { json: text('/feed.json'), xml: text('/feed.xml') };
}

interface JsonFeedItem {
  id: string;
  url: string;
  title: string;
  content_text: string;
  date_published: string;
  tags: string[];
}
interface JsonFeedDoc {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  language: string;
  authors: { name: string }[];
  items: JsonFeedItem[];
}
interface RssItem {
  title: string;
  link: string;
  guid: { '#text': string; '@_isPermaLink': string };
  pubDate: string;
  description: string;
  category: string[];
}
interface RssChannel {
  title: string;
  link: string;
  description: string;
  language: string;
  lastBuildDate: string;
  'atom:link': Record<string, string>;
  item?: RssItem[];
}

function render(events: ChangeEvent[]): { json: string; xml: string; feed: JsonFeedDoc; channel: RssChannel } {
  const { json, xml } = bodies(renderFeeds(SITE, logOf(events), GENERATED_AT));
  return { json, xml, feed: JSON.parse(json) as JsonFeedDoc, channel: parseRss(xml) };
}

function parseRss(xml: string): RssChannel {
  assert.equal(XMLValidator.validate(xml), true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    isArray: (name) => name === 'item' || name === 'category',
  });
  const doc = parser.parse(xml) as { rss: { '@_version': string; '@_xmlns:atom': string; channel: RssChannel } };
  assert.equal(doc.rss['@_version'], '2.0');
  assert.equal(doc.rss['@_xmlns:atom'], 'http://www.w3.org/2005/Atom');
  return doc.rss.channel;
}

/** JSON Feed 1.1's own rules, independent of our schema (https://jsonfeed.org/version/1.1). */
function assertJsonFeed11(feed: JsonFeedDoc): void {
  assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
  assert.equal(typeof feed.title, 'string');
  assert.ok(Array.isArray(feed.items));
  for (const item of feed.items) {
    assert.equal(typeof item.id, 'string');
    assert.ok(typeof item.content_text === 'string', 'an item has content_html or content_text');
    assert.ok(!Number.isNaN(Date.parse(item.date_published)), 'date_published is RFC 3339');
  }
  assert.equal(new Set(feed.items.map((i) => i.id)).size, feed.items.length, 'ids are unique');
}

function assertSchemaValid(json: string): void {
  const validate = validatorFor('outputs/feed.schema.json');
  const ok = validate(JSON.parse(json));
  assert.equal(ok, true, JSON.stringify(describeErrors(validate.errors)));
}

// XML 1.0 section 2.2: the characters a document may contain at all.
const ILLEGAL_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

describe('renderFeeds: JSON Feed', () => {
  it('renders both files with kind feed', () => {
    const files = renderFeeds(SITE, logOf(EVENTS), GENERATED_AT);
    assert.deepEqual(
      files.map((f) => [f.path, f.kind]),
      [
        ['/feed.json', 'feed'],
        ['/feed.xml', 'feed'],
      ],
    );
  });

  it('satisfies the output schema and JSON Feed 1.1', () => {
    const { json, feed } = render(EVENTS);
    assertSchemaValid(json);
    assertJsonFeed11(feed);
    assert.equal(feed.home_page_url, 'https://example.test/index/index.html');
    assert.equal(feed.feed_url, 'https://example.test/index/feed.json');
    assert.equal(feed.language, 'en');
    assert.equal(feed.authors[0]?.name, 'Crawler Index');
    assert.ok(json.endsWith('}\n'), 'canonical JSON ends with a newline');
  });

  it('the schema rejects a feed that breaks it', () => {
    const { feed } = render(EVENTS);
    const validate = validatorFor('outputs/feed.schema.json');
    assert.equal(validate({ ...feed, version: 'https://jsonfeed.org/version/1' }), false);
    const first = feed.items[0];
    assert.ok(first);
    assert.equal(validate({ ...feed, items: [{ ...first, tags: ['crawler.renamed', 'crawler'] }] }), false);
    assert.equal(validate({ ...feed, items: [{ ...first, date_published: 'yesterday' }] }), false);
    assert.equal(validate({ ...feed, items: Array.from({ length: 101 }, () => first) }), false);
  });

  it('lists the newest first, with stable ids and subject pages', () => {
    const { feed } = render(EVENTS);
    assert.deepEqual(
      feed.items.map((i) => i.id),
      [8, 7, 6, 5, 4, 3, 2, 1].map((c) => `https://example.test/index/changes.json?since=${c - 1}`),
    );
    const byCursor = (cursor: number) => feed.items[EVENTS.length - cursor];
    assert.deepEqual(byCursor(1), {
      id: 'https://example.test/index/changes.json?since=0',
      url: 'https://example.test/index/crawler/gptbot.html',
      title: 'crawler.added: gptbot',
      content_text: 'GPTBot was added.',
      date_published: EVENTS[0]?.observed_at,
      tags: ['crawler.added', 'crawler'],
    });
    assert.equal(byCursor(8)?.url, 'https://example.test/index/ip-ranges/bing-bingbot.json');
    assert.deepEqual(byCursor(5)?.tags, ['source.stopped-answering', 'source']);
    assert.match(byCursor(5)?.content_text ?? '', /HTTP 503/);
    assert.match(byCursor(4)?.content_text ?? '', /user_agent_example, last_reviewed/);
  });

  it('lists the prefixes of a ranges.changed event', () => {
    const { feed } = render(EVENTS);
    assert.equal(
      feed.items.find((i) => i.id.endsWith('since=2'))?.content_text,
      'OpenAI GPTBot ranges gained 2 and lost 1 prefix.\n\nAdded (2):\n20.15.240.64/28\n2a0b:4140::/32\n\nRemoved (1):\n52.230.152.0/24',
    );
    assert.equal(feed.items[0]?.content_text, 'Bing ranges lost 1 prefix.\n\nRemoved (1):\n2620:1ec::/36');
  });

  it(`caps each side of a prefix list at ${FEED_PREFIX_LIMIT} with an "and N more" line`, () => {
    const added = {
      ipv4: Array.from({ length: 40 }, (_, i) => `10.0.${i}.0/24`),
      ipv6: Array.from({ length: 25 }, (_, i) => `2001:db8:${i.toString(16)}::/48`),
    };
    const removed = { ipv4: Array.from({ length: 50 }, (_, i) => `192.0.${i}.0/24`), ipv6: [] };
    const { feed } = render([event(1, { kind: 'ranges.changed', subject: source('big'), summary: 'Big change.', added, removed })]);
    const lines = (feed.items[0]?.content_text ?? '').split('\n');
    const addedAt = lines.indexOf('Added (65):');
    const removedAt = lines.indexOf('Removed (50):');
    assert.ok(addedAt > 0 && removedAt > addedAt);
    const addedLines = lines.slice(addedAt + 1, removedAt - 1);
    assert.equal(addedLines.length, FEED_PREFIX_LIMIT + 1);
    assert.equal(addedLines.at(-2), '2001:db8:9::/48', 'ipv4 first, then ipv6, in log order');
    assert.equal(addedLines.at(-1), 'and 15 more');
    const removedLines = lines.slice(removedAt + 1);
    assert.equal(removedLines.length, 50, 'exactly at the cap: no "more" line');
    assert.ok(!removedLines.some((l) => l.startsWith('and ')));
  });

  it(`keeps only the ${FEED_ITEM_LIMIT} newest events`, () => {
    const many = Array.from({ length: 150 }, (_, i) => event(i + 1, { kind: 'crawler.edited', subject: crawler(`bot-${i + 1}`) }));
    const { json, feed, channel } = render(many);
    assertSchemaValid(json);
    assert.equal(feed.items.length, FEED_ITEM_LIMIT);
    assert.equal(feed.items[0]?.title, 'crawler.edited: bot-150');
    assert.equal(feed.items.at(-1)?.title, 'crawler.edited: bot-51');
    assert.equal(channel.item?.length, FEED_ITEM_LIMIT);
  });
});

describe('renderFeeds: RSS', () => {
  it('is well-formed RSS 2.0 with the channel fields', () => {
    const { xml, channel } = render(EVENTS);
    assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"'));
    assert.ok(xml.endsWith('</rss>\n'));
    assert.equal(channel.title, 'Crawler Index: changes');
    assert.equal(channel.link, 'https://example.test/index/index.html');
    assert.equal(channel.language, 'en');
    assert.equal(channel.lastBuildDate, 'Tue, 04 Mar 2025 06:00:00 GMT');
    assert.deepEqual(channel['atom:link'], { '@_href': 'https://example.test/index/feed.xml', '@_rel': 'self', '@_type': 'application/rss+xml' });
    assert.ok(channel.description.length > 0);
  });

  it('carries the same items as the JSON feed', () => {
    const { feed, channel } = render(EVENTS);
    const items = channel.item ?? [];
    assert.equal(items.length, feed.items.length);
    feed.items.forEach((json, index) => {
      const rss = items[index];
      assert.ok(rss);
      assert.equal(rss.guid['#text'], json.id);
      assert.equal(rss.guid['@_isPermaLink'], 'false');
      assert.equal(rss.title, json.title);
      assert.equal(rss.link, json.url);
      assert.equal(rss.description, json.content_text);
      assert.equal(Date.parse(rss.pubDate), Date.parse(json.date_published));
      assert.equal(rss.pubDate, rfc822(json.date_published));
      assert.deepEqual(rss.category, json.tags);
    });
  });

  it('writes an item in a fixed shape', () => {
    const { xml } = render([EVENTS[0] as ChangeEvent]);
    assert.ok(
      xml.includes(`    <item>
      <title>crawler.added: gptbot</title>
      <link>https://example.test/index/crawler/gptbot.html</link>
      <guid isPermaLink="false">https://example.test/index/changes.json?since=0</guid>
      <pubDate>Sun, 02 Feb 2025 01:00:00 GMT</pubDate>
      <description>GPTBot was added.</description>
      <category>crawler.added</category>
      <category>crawler</category>
    </item>
`),
      xml,
    );
  });
});

describe('renderFeeds: hostile text', () => {
  const HOSTILE = 'Bad <script>alert("x")</script> & co\'s ]]> list\u0000\u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uD800 done\r\nnext line';
  const CLEAN = 'Bad <script>alert("x")</script> & co\'s ]]> list done\nnext line';
  const hostile = [
    event(1, { kind: 'source.stopped-answering', subject: source('evil<&>"\'src'), summary: HOSTILE, error: '<b>500</b> & ]]>' }),
    event(2, { kind: 'crawler.edited', subject: crawler('plain'), summary: HOSTILE, fields: ['what_it_is'] }),
  ];

  it('stays escaped, parses back to the same text, and holds no character XML forbids', () => {
    const { json, xml, feed, channel } = render(hostile);
    assert.equal(XMLValidator.validate(xml), true);
    assert.ok(!ILLEGAL_XML.test(xml), 'no illegal XML characters');
    assert.ok(!xml.includes('<script>'));
    assert.ok(!xml.includes(']]>'));
    assert.ok(xml.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co&apos;s ]]&gt;'));
    const items = channel.item ?? [];
    assert.equal(items.length, 2);
    assert.equal(items[1]?.description, `${CLEAN}\n\nLast error: <b>500</b> & ]]>`);
    assert.equal(items[0]?.description, `${CLEAN}\n\nFields changed: what_it_is`);
    assert.equal(items[1]?.title, 'source.stopped-answering: evil<&>"\'src');
    assert.equal(feed.items[1]?.content_text, items[1]?.description, 'both feeds say the same');
    assert.equal(feed.items[1]?.url, "https://example.test/index/ip-ranges/evil%3C%26%3E%22'src.json");
    assert.ok(!ILLEGAL_XML.test(json));
    assertSchemaValid(json);
  });

  it('escapeXml escapes the five specials and drops illegal characters', () => {
    assert.equal(escapeXml('a&b<c>d"e\'f\u0007g\tz'), 'a&amp;b&lt;c&gt;d&quot;e&apos;fg\tz');
    assert.equal(escapeXml('emoji \u{1F916} stays'), 'emoji \u{1F916} stays');
  });
});

describe('renderFeeds: edges', () => {
  it('renders valid, empty feeds from an empty log', () => {
    const { json, xml } = bodies(renderFeeds(SITE, EMPTY_LOG, GENERATED_AT));
    assertSchemaValid(json);
    const feed = JSON.parse(json) as JsonFeedDoc;
    assertJsonFeed11(feed);
    assert.deepEqual(feed.items, []);
    const channel = parseRss(xml);
    assert.equal(channel.item, undefined);
    assert.ok(!xml.includes('<item>'));
    assert.equal(channel.title, 'Crawler Index: changes');
  });

  it('is deterministic and independent of the order of the log', () => {
    const first = renderFeeds(SITE, logOf(EVENTS), GENERATED_AT);
    const again = renderFeeds(SITE, logOf(EVENTS), GENERATED_AT);
    const shuffled = renderFeeds(SITE, logOf([...EVENTS].reverse()), GENERATED_AT);
    assert.deepEqual(bodies(again), bodies(first));
    assert.deepEqual(bodies(shuffled), bodies(first));
  });

  it('changes lastBuildDate only with generatedAt', () => {
    const a = bodies(renderFeeds(SITE, logOf(EVENTS), GENERATED_AT));
    const b = bodies(renderFeeds(SITE, logOf(EVENTS), '2025-03-04T12:00:00Z'));
    assert.equal(b.json, a.json);
    assert.notEqual(b.xml, a.xml);
    assert.equal(b.xml.replace(/<lastBuildDate>[^<]*</, ''), a.xml.replace(/<lastBuildDate>[^<]*</, ''));
  });

  it('rfc822 formats UTC dates and refuses a non-date', () => {
    assert.equal(rfc822('2025-01-05T23:59:07Z'), 'Sun, 05 Jan 2025 23:59:07 GMT');
    assert.equal(rfc822('2025-01-05T23:59:07+02:00'), 'Sun, 05 Jan 2025 21:59:07 GMT');
    assert.throws(() => rfc822('not a date'), /not a date/);
  });
});
