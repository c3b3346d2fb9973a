import { changesPage, parseChangesQuery, type PublishedLog } from '../changes/page.ts';
import { href } from '../paths.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { Answerer } from './answer-context.ts';
import { documentResponse } from './document-answer.ts';
import { errorResponse, notFound } from './errors.ts';
import { relocate } from '../util/relocate.ts';
import type { DocumentStore, StoredDocument } from './store.ts';
import { jsonBytesDocument } from './store.ts';
import { servedBuild } from './served-build.ts';

// GET /changes.json (docs/API.md §4.4): pages of the stored event log, from a cursor or a time.

const LOG_PATH = href('changes_log');

// Parsed once per published log: the ETag names the bytes, so a rebuild is picked up.
let parsedLog: { etag: string; log: PublishedLog } | null = null;

function publishedLogFrom(document: StoredDocument | null): PublishedLog | null {
  if (!document) return null;
  if (parsedLog?.etag !== document.etag) parsedLog = { etag: document.etag, log: JSON.parse(new TextDecoder().decode(document.bytes)) as PublishedLog };
  return parsedLog.log;
}

/** The head of the change feed as published (0 before the first event), named in every Link header. */
export async function feedHead(store: DocumentStore): Promise<number> {
  return publishedLogFrom(await store.get(LOG_PATH))?.head ?? 0;
}

/** The same head from the snapshot in hand, for an adapter's fast path; 0 when the store cannot peek. */
export function peekFeedHead(store: DocumentStore): number {
  return publishedLogFrom(store.peek?.(LOG_PATH) ?? null)?.head ?? 0;
}

export const answerChanges: Answerer<'changes'> = async (_how, { request, url, path, route, headers, here }, { store, site }) => {
  const parsed = parseChangesQuery(url.searchParams);
  if (!parsed.ok) return errorResponse(400, { code: 'invalid_parameter', message: parsed.message, field: parsed.field, accepted: parsed.accepted }, headers);
  const log = publishedLogFrom(await store.get(LOG_PATH));
  if (!log) return notFound(here.base_url, path, route, headers);
  const result = changesPage(log, parsed.query, here.base_url);
  if (!result.ok) return errorResponse(400, { code: 'invalid_parameter', message: result.message, field: result.field, accepted: result.accepted }, headers);
  // The events name documents by the address the tree was built for; the page names this server's.
  const builtFor = (await servedBuild(store))?.baseUrl ?? site.base_url;
  const page = new TextEncoder().encode(relocate(canonicalJson(result.page), builtFor, here.base_url)) as Uint8Array<ArrayBuffer>;
  return documentResponse(await jsonBytesDocument(href('changes'), page, result.lastModified), request, {
    ...headers,
    'x-cursor': String(result.page.cursor),
  });
};
