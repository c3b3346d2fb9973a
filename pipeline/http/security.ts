// Putting the headers of contract/headers.ts on the server's answers.

import { HTML_SECURITY_HEADERS, SECURITY_HEADERS } from '../contract/headers.ts';

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
