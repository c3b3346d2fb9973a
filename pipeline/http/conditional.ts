// Conditional requests, RFC 9110 section 13 (evaluated in document-answer.ts).

/** Entity tags listed in If-None-Match, opaque-tag text without quotes; `*` as itself. */
export function parseEntityTags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  // 8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; a list is comma-separated. Bounded by
  // the header size; a regex without nested quantifiers stays linear.
  for (const match of header.matchAll(/(?:W\/)?"([^"]*)"/g)) tags.push(match[1] ?? '');
  return tags;
}
