// Percent-encoding normalisation shared by rule patterns and request paths.
//
// RFC 9309 2.2.2 asks for both sides to be brought to one form before comparing:
// non-ASCII octets are percent-encoded as UTF-8, and a percent-encoded octet that
// stands for an unreserved character (RFC 3986 2.3) is decoded. We also upper-case
// the hex digits of every remaining escape, so `%2f` and `%2F` compare equal.
//
// Deliberate choices, kept identical on both sides so they never create a mismatch:
// - ASCII characters that may not appear raw in a URI (controls, space, `"<>\^`{|}`)
//   are percent-encoded, so `Disallow: /a b` matches the request `/a%20b`.
// - A `%` that does not start a valid escape is encoded as `%25` (it is a literal `%`).
// - Reserved characters (`/?:=&`…) are left as written. The second row of the
//   example table in 2.2.2 (`https://` in a query shown as `https%3A%2F%2F`) is not
//   applied: encoding every reserved character would break the first row
//   (`/foo/bar?baz=quz` stays as is) and no major parser does it.
//
// `*` and `$` (RFC 9309 2.2.3): in a pattern `*` is the wildcard and a final `$` the
// end anchor; a `$` anywhere else in a pattern is a literal and becomes `%24`. In a
// request path both are literals, encoded `%2A` and `%24`, which is what lets the
// pattern `/file-%2A.html` match the request `/file-*.html` (2.2.3 example table).

import { isHexDigit } from '../../util/ascii.ts';

const HEX = '0123456789ABCDEF';

function hexValue(code: number): number {
  if (code <= 0x39) return code - 0x30;
  if (code <= 0x46) return code - 0x41 + 10;
  return code - 0x61 + 10;
}

// RFC 3986 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~"
function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

// ASCII octets that RFC 3986 never allows unencoded in a URI.
function mustEncodeAscii(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x7f ||
    code === 0x22 || // "
    code === 0x3c || // <
    code === 0x3e || // >
    code === 0x5c || // \
    code === 0x5e || // ^
    code === 0x60 || // `
    code === 0x7b || // {
    code === 0x7c || // |
    code === 0x7d // }
  );
}

// Every escape built once: non-ASCII paths need up to four per character.
const ESCAPED = Array.from({ length: 256 }, (_, byte) => '%' + HEX[byte >> 4]! + HEX[byte & 0xf]!);

function escapeByte(byte: number): string {
  return ESCAPED[byte]!;
}

/**
 * The UTF-8 octets of one code point, each percent-encoded. Computed rather than passed
 * through TextEncoder: paths of non-ASCII text would otherwise cost one encoder call per
 * character. A lone surrogate becomes U+FFFD, as TextEncoder does.
 */
function escapeCodePoint(cp: number): string {
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  if (cp < 0x80) return escapeByte(cp);
  if (cp < 0x800) return escapeByte(0xc0 | (cp >> 6)) + escapeByte(0x80 | (cp & 0x3f));
  if (cp < 0x10000) return escapeByte(0xe0 | (cp >> 12)) + escapeByte(0x80 | ((cp >> 6) & 0x3f)) + escapeByte(0x80 | (cp & 0x3f));
  return escapeByte(0xf0 | (cp >> 18)) + escapeByte(0x80 | ((cp >> 12) & 0x3f)) + escapeByte(0x80 | ((cp >> 6) & 0x3f)) + escapeByte(0x80 | (cp & 0x3f));
}

// Fast path: most patterns and paths are plain ASCII with nothing to change.
function needsWork(s: string, literalSpecials: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 || c > 0x7e || mustEncodeAscii(c)) return true;
    if (c === 0x24 && (literalSpecials || i !== s.length - 1)) return true;
    if (c === 0x2a && literalSpecials) return true;
  }
  return false;
}

function normalize(s: string, literalSpecials: boolean): string {
  if (!needsWork(s, literalSpecials)) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const a = s.charCodeAt(i + 1);
      const b = s.charCodeAt(i + 2);
      if (i + 2 < s.length && isHexDigit(a) && isHexDigit(b)) {
        const byte = hexValue(a) * 16 + hexValue(b);
        out += isUnreserved(byte) ? String.fromCharCode(byte) : escapeByte(byte);
        i += 3;
      } else {
        out += '%25';
        i += 1;
      }
      continue;
    }
    if (c > 0x7e) {
      const cp = s.codePointAt(i)!;
      out += escapeCodePoint(cp);
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    if (mustEncodeAscii(c)) out += escapeByte(c);
    else if (c === 0x2a) out += literalSpecials ? '%2A' : '*';
    else if (c === 0x24) out += literalSpecials || i !== s.length - 1 ? '%24' : '$';
    else out += s[i];
    i += 1;
  }
  return out;
}

/** Normalises an Allow/Disallow value: `*` stays a wildcard, a final `$` stays an anchor. */
export function normalizePattern(value: string): string {
  return normalize(value, false);
}

/**
 * Turns what a caller gave (a path such as `/a?b=1`, or a whole URL) into the
 * normalised path-and-query that rules are matched against. The fragment is dropped,
 * a missing leading `/` is added, `*` and `$` become literals.
 */
export function normalizeRequestPath(input: string): string {
  let s = input.trim();
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(s);
  if (scheme) {
    const rest = s.slice(scheme[0].length);
    const start = rest.search(/[/?#]/);
    s = start < 0 ? '/' : rest.slice(start);
  }
  const hash = s.indexOf('#');
  if (hash >= 0) s = s.slice(0, hash);
  if (!s.startsWith('/')) s = '/' + s;
  return normalize(s, true);
}
