// The change log for people: /feed.json (JSON Feed 1.1) and /feed.xml (RSS 2.0) carry the
// same newest events with the same ids, titles, dates and text, so a reader can subscribe to
// either. /changes.json stays the complete, paged, machine-readable record.

import type { ChangeEvent, EventLog, FamilyCounts, PrefixDelta } from '../changes/types.ts';
import type { Model } from '../model/model.ts';
import type { SiteSettings } from '../records/types.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';

/** Readers show the top of a feed; older events stay reachable through /changes.json. */
export const FEED_ITEM_LIMIT = 100;

/** Prefixes listed per side (added, removed) of a ranges.changed item before "and N more". */
export const FEED_PREFIX_LIMIT = 50;

const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

const DESCRIPTION =
  'What changed in the index: crawler records added, edited or withdrawn; operator IP-range lists that gained or lost prefixes; upstream lists that stopped or started answering. Newest first; the complete history is paged at /changes.json.';

interface FeedItem {
  id: string;
  url: string;
  title: string;
  content_text: string;
  date_published: string;
  tags: [string, string];
}

/**
 * Characters XML 1.0 cannot carry at all, not even as references (C0 controls other than tab,
 * LF and CR; lone surrogates; U+FFFE and U+FFFF). They are dropped from both feeds, not just
 * the XML one, so the two always say the same thing.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text fit for both feeds: XML-legal characters only, line breaks as LF (XML would fold CR anyway). */
function feedText(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/\r\n?/g, '\n');
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escaped for element content and attribute values alike; `>` is escaped too, so `]]>` cannot appear. */
export function escapeXml(text: string): string {
  return feedText(text).replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

/** RFC 822 date as RSS 2.0 wants it (RFC 1123 form: four-digit year, GMT). */
export function rfc822(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) throw new Error(`feeds: not a date: ${JSON.stringify(iso)}`);
  return new Date(time).toUTCString();
}

function subjectPage(site: SiteSettings, subject: ChangeEvent['subject']): string {
  const id = encodeURIComponent(subject.id);
  if (subject.type === 'crawler') return `${site.base_url}${href('crawler_html', id)}`;
  return subject.type === 'signature-agent' ? `${site.base_url}${href('signature_agent', id)}` : `${site.base_url}${href('ip_ranges', id)}`;
}

/**
 * The page of /changes.json that starts at this event: unique per cursor, stable once
 * published, and a real address, so readers that treat the id as a link still land well.
 */
function itemId(site: SiteSettings, cursor: number): string {
  return `${site.base_url}${href('changes')}?since=${cursor - 1}`;
}

function prefixLines(label: string, sample: PrefixDelta | undefined, counts: FamilyCounts | undefined): string[] {
  // An event written before the counts existed holds every prefix: its sample is its count.
  const count = counts === undefined ? (sample?.ipv4.length ?? 0) + (sample?.ipv6.length ?? 0) : counts.ipv4 + counts.ipv6;
  if (!sample || count === 0) return [];
  // The event holds a bounded sample (docs/API.md §3); the counts say how many there are.
  const shown = sample.ipv4.slice(0, FEED_PREFIX_LIMIT).concat(sample.ipv6.slice(0, Math.max(0, FEED_PREFIX_LIMIT - sample.ipv4.length)));
  const rest = count - shown.length;
  return ['', `${label} (${count}):`].concat(shown, rest > 0 ? [`and ${rest} more`] : []);
}

function contentText(event: ChangeEvent): string {
  const lines =
    event.kind === 'ranges.changed'
      ? [event.summary].concat(prefixLines('Added', event.added, event.added_count), prefixLines('Removed', event.removed, event.removed_count))
      : [event.summary];
  if (event.whole_list) lines.push('', `The whole list: ${event.whole_list.url}`, `Every earlier version: ${event.whole_list.history}`);
  if (event.kind === 'keys.changed')
    lines.push('', `Added: ${(event.keys_added ?? []).join(', ') || 'none'}`, `Removed: ${(event.keys_removed ?? []).join(', ') || 'none'}`);
  if (event.fields && event.fields.length > 0) lines.push('', `Fields changed: ${event.fields.join(', ')}`);
  if (event.error) lines.push('', `Last error: ${event.error}`);
  return feedText(lines.join('\n'));
}

/** The newest events, newest first, as the items both feeds share. */
function feedItems(site: SiteSettings, log: EventLog): FeedItem[] {
  // Sorted by cursor rather than trusting the log's order; the cursor is the feed's clock.
  const newest = [...log.events].sort((a, b) => b.cursor - a.cursor).slice(0, FEED_ITEM_LIMIT);
  return newest.map((event) => ({
    id: itemId(site, event.cursor),
    url: subjectPage(site, event.subject),
    title: feedText(`${event.kind}: ${event.subject.id}`),
    content_text: contentText(event),
    date_published: event.observed_at,
    tags: [event.kind, event.subject.type],
  }));
}

function feedTitle(site: SiteSettings): string {
  return feedText(`${site.name}: changes`);
}

function jsonFeed(site: SiteSettings, items: readonly FeedItem[]): string {
  return canonicalJson({
    version: JSON_FEED_VERSION,
    title: feedTitle(site),
    home_page_url: `${site.base_url}${href('home')}`,
    feed_url: `${site.base_url}${href('feed_json')}`,
    description: DESCRIPTION,
    user_comment: `At most ${FEED_ITEM_LIMIT} items. Each item id is the ${href('changes')} page that starts at that event; poll ${href('changes')}?since=<cursor> for everything, no more often than every six hours.`,
    language: 'en',
    authors: [{ name: feedText(site.name), url: `${site.base_url}${href('home')}` }],
    items,
  });
}

function rssFeed(site: SiteSettings, items: readonly FeedItem[], generatedAt: string): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(feedTitle(site))}</title>`,
    `    <link>${escapeXml(`${site.base_url}${href('home')}`)}</link>`,
    `    <description>${escapeXml(DESCRIPTION)}</description>`,
    '    <language>en</language>',
    `    <lastBuildDate>${rfc822(generatedAt)}</lastBuildDate>`,
    '    <docs>https://www.rssboard.org/rss-specification</docs>',
    `    <atom:link href="${escapeXml(`${site.base_url}${href('feed_rss')}`)}" rel="self" type="application/rss+xml"/>`,
  ];
  for (const item of items) {
    lines.push(
      '    <item>',
      `      <title>${escapeXml(item.title)}</title>`,
      `      <link>${escapeXml(item.url)}</link>`,
      `      <guid isPermaLink="false">${escapeXml(item.id)}</guid>`,
      `      <pubDate>${rfc822(item.date_published)}</pubDate>`,
      `      <description>${escapeXml(item.content_text)}</description>`,
      ...item.tags.map((tag) => `      <category>${escapeXml(tag)}</category>`),
      '    </item>',
    );
  }
  lines.push('  </channel>', '</rss>', '');
  return lines.join('\n');
}

/**
 * Both feeds. `generatedAt` becomes the RSS lastBuildDate, the only part not derived from the
 * events; pass a time that moves only when the content does, or the bytes change every build.
 */
export function renderFeeds(site: SiteSettings, log: EventLog, generatedAt: string): RenderedFile[] {
  const items = feedItems(site, log);
  return [
    { path: href('feed_json'), kind: 'feed', body: jsonFeed(site, items) },
    { path: href('feed_rss'), kind: 'feed', body: rssFeed(site, items, generatedAt) },
  ];
}

/** The feeds carry a build date, so they are rendered with the ledger's stamp like other dated files. */
export function renderFeedFiles(model: Model): RenderedFile[] {
  return [href('feed_json'), href('feed_rss')].map(
    (path): RenderedFile => ({
      path,
      kind: 'feed',
      body: (stamp) => {
        const file = renderFeeds(model.site, model.log, stamp).find((f) => f.path === path);
        if (!file || typeof file.body !== 'string') throw new Error(`feeds: ${path} not rendered`);
        return file.body;
      },
    }),
  );
}
