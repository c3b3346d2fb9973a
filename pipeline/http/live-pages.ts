// Pages with the request log's counters written in (docs/API.md §2.5, §4.3a). A page is rebuilt at most once
// per reading of the log (a minute), on the first request that asks for it; every other request
// gets the prepared bytes, so the counters cost the document path one WeakMap lookup.

import { liveText } from '../log/live.ts';
import { matchTemplate, PATHS } from '../paths.ts';
import { escapeHtml } from '../site/html.ts';
import { LIVE_MARKER } from '../site/live.ts';
import { etagOfWeb } from '../util/etag-rule.ts';
import type { Coding } from './encoding.ts';
import type { LogViews } from './request-log.ts';
import type { StoredDocument } from './store.ts';
import { compareText } from '../util/compare.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** gzip through the Web-standard CompressionStream, so this stays edge-safe (brotli is not in the standard). */
async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The crawler a page is about: /crawler/{slug}.html. */
function crawlerSlugOf(path: string): string | null {
  return matchTemplate(PATHS.crawler_html, path) ?? null;
}

export function livePages(views: LogViews, crawlerName: (slug: string) => Promise<string | null>) {
  const made = new WeakMap<StoredDocument, { at: number; page: StoredDocument }>();
  /** The page with the current counters, if it has been built since the log was last read. */
  function peek(document: StoredDocument): StoredDocument | null {
    const known = made.get(document);
    return known !== undefined && known.at === views.peek()?.at ? known.page : null;
  }
  async function build(document: StoredDocument): Promise<StoredDocument> {
    const view = await views.read();
    const known = made.get(document);
    if (known?.at === view.at) return known.page;
    const slug = crawlerSlugOf(document.path);
    const name = slug === null ? null : await crawlerName(slug);
    const text = liveText(view.counts, slug !== null && name !== null ? { slug, name } : null);
    const bytes = encoder.encode(decoder.decode(document.bytes).replace(LIVE_MARKER, escapeHtml(text)));
    const page: StoredDocument = {
      path: document.path,
      bytes,
      type: document.type,
      etag: await etagOfWeb(bytes),
      // The bytes are as new as the counters in them.
      lastModified: [document.lastModified, view.generatedAt].sort(compareText)[1]!,
      encoded: new Map<Coding, Uint8Array<ArrayBuffer>>([['gzip', await gzip(bytes)]]),
    };
    made.set(document, { at: view.at, page });
    return page;
  }
  return { peek, build };
}
