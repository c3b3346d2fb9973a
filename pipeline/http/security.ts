// Headers every answer carries, and the stricter ones for HTML. The pages use one same-origin
// style sheet, one same-origin script (the crawler table's filters, /site.js, which also asks a
// tool form's own endpoint whether a server answers it), no frames and forms that submit to
// this site, so the policy can forbid everything else; a page that needs more must change this
// table, visibly.

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

export function securityHeadersFor(contentType: string | null): Readonly<Record<string, string>> {
  return contentType?.startsWith('text/html') ? HTML_SECURITY_HEADERS : SECURITY_HEADERS;
}

/**
 * Adds headers to an answer built elsewhere (the MCP SDK's, an error) without overriding its
 * own; copies the Response only where its headers are immutable (Response.error()/redirect()).
 */
export function withMissingHeaders(response: Response, extra: Readonly<Record<string, string>>): Response {
  try {
    for (const [name, value] of Object.entries(extra)) if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) if (!headers.has(name)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

export function withSecurityHeaders(response: Response): Response {
  return withMissingHeaders(response, securityHeadersFor(response.headers.get('content-type')));
}
