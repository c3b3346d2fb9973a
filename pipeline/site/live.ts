// Pages carry live counters (docs/API.md §2.5): the Node server writes the request log's counts into
// each page at the marker as it answers it. The stored file has the marker alone (a static
// host shows an empty line there), so the bytes a page is served with are not the file's, and
// the ledger gives pages no ETag.

/** Where the counters go: inside an otherwise empty paragraph of the page footer. */
export const LIVE_MARKER = '<!--live-->';

/** Whether documents of this media type carry live counters. */
export function carriesLiveCounters(type: string): boolean {
  return type.startsWith('text/html');
}
