// Conditional requests, RFC 9110 section 13.

/** Entity tags listed in If-None-Match, opaque-tag text without quotes; `*` as itself. */
export function parseEntityTags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  // 8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; a list is comma-separated.
  for (const match of header.matchAll(/(?:W\/)?"([^"]*)"/g)) tags.push(match[1] ?? '');
  return tags;
}

/**
 * 13.1.2: If-None-Match uses the weak comparison, so `W/"abc"` matches our strong `"abc"`.
 * 13.2.2: when If-None-Match is present, If-Modified-Since is ignored.
 */
export function notModified(request: Request, etag: string | null, lastModified: string | null): boolean {
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    if (etag === null) return false;
    const tags = parseEntityTags(ifNoneMatch);
    return tags === '*' || tags.includes(etag);
  }
  const ifModifiedSince = request.headers.get('if-modified-since');
  if (ifModifiedSince === null || lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  // 13.1.3: an invalid date is ignored; HTTP dates have one-second resolution.
  if (Number.isNaN(since)) return false;
  return Math.floor(Date.parse(lastModified) / 1000) <= Math.floor(since / 1000);
}

export function httpDate(iso: string): string {
  return new Date(iso).toUTCString();
}
