// Turns a request target into a path inside the published tree, or says why it cannot be one.

import { API_PREFIX } from '../paths.ts';

export type PathResult = { ok: true; path: string; prefixed: boolean } | { ok: false; reason: string };

/** A `.` or `..` segment, or an empty one before the last (`//`). */
const DOT_OR_EMPTY_SEGMENT = /\/\.{1,2}(?:\/|$)|\/\//;

/**
 * Decodes percent-escapes once and refuses anything that could leave the tree or confuse a
 * file system: `..` or `.` segments (also when encoded), backslashes, NUL and other control
 * characters, empty segments. Refused paths answer 404, like any path that names no document.
 */
export function resolvePath(pathname: string): PathResult {
  let decoded = pathname;
  if (pathname.includes('%')) {
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return { ok: false, reason: 'malformed percent-encoding' };
    }
  }
  if (/[\\\u0000-\u001f\u007f]/.test(decoded)) return { ok: false, reason: 'backslash or control character' };
  // Checked on the string rather than split into segments, since every request for a document
  // passes here (request-path.test.ts compares the two).
  if (DOT_OR_EMPTY_SEGMENT.test(decoded)) return { ok: false, reason: 'dot or empty segment' };
  // The prefix alone names the API's root document, not the home page.
  if (decoded === API_PREFIX || decoded === API_PREFIX + '/') return { ok: true, path: API_PREFIX, prefixed: false };
  let path = decoded;
  let prefixed = false;
  if (path.startsWith(API_PREFIX + '/')) {
    prefixed = true;
    path = path.slice(API_PREFIX.length) || '/';
  }
  return { ok: true, path, prefixed };
}
