// Headers every answer carries, and the stricter ones for HTML: the server sends them
// (http/security.ts) and the static hosts' rules repeat them (render/host-rules.ts). The pages
// use one same-origin style sheet, one same-origin script (the crawler table's filters,
// /site.js, which also asks a tool form's own endpoint whether a server answers it), no frames
// and forms that submit to this site, so the policy can forbid everything else; a page that
// needs more must change this table, visibly.

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  // Tool URLs carry the caller's robots.txt and addresses in the query: never send them on.
  'referrer-policy': 'no-referrer',
};

/** The documents are open data: any origin may read them, and the validators and links with them. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'ETag, Last-Modified, Link, X-Cursor',
};

export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

/** How long a cache may keep a stored document before asking again (its ETag makes asking cheap). */
export const DOCUMENT_CACHE_CONTROL = 'public, max-age=300, must-revalidate';
