// How Google's open-source reference parser (google/robotstxt, robots.cc) reads rule values
// and request URLs where that differs from RFC 9309. The evaluator decides every verdict by
// RFC 9309 and uses these only to tell when Google's parser would answer the opposite
// (`disagreements.google_parser`); docs/API.md lists the differences.
//
// - A rule value: non-ASCII octets are percent-encoded and the hex digits of an escape are
//   upper-cased, nothing more. An escape of an unreserved character stays an escape, so
//   `/foo/bar/%62%61%7A` does not match `/foo/bar/baz` (RFC 9309 2.2.2 decodes it and does).
// - A URL: its path, parameters and query are matched as given, never percent-encoded; the
//   caller is expected to encode it first. A raw `/foo/bar/ツ` matches neither `ツ` nor
//   `%E3%83%84` in a rule (RFC 9309 2.2.2 encodes both sides, and both match).
// - An Allow whose last path segment starts with `index.htm` also allows the directory it is
//   in, exactly (`Allow: /a/index.html` allows `/a/`). RFC 9309 has no such rule.
// - A line is cut after GOOGLE_LINE_BYTES bytes, and the rest is ignored: a long rule is read
//   as its first part. RFC 9309 sets no line length (2.5 limits only the file).

import { utf8Length } from '../../util/utf8-length.ts';

/** The bytes of a line Google's parser keeps: 8 times a 2,083-byte URL, less the byte its buffer keeps for the end. */
export const GOOGLE_LINE_BYTES = 2083 * 8 - 1;

const HEX = '0123456789ABCDEF';
const encoder = new TextEncoder();

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

/** A rule value as Google's parser matches it: non-ASCII octets escaped, escapes upper-cased. */
export function googlePattern(value: string): string {
  if (!/[%\u0080-\uffff]/.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '%' && isHex(value[i + 1]) && isHex(value[i + 2])) {
      out += `%${value[i + 1]!.toUpperCase()}${value[i + 2]!.toUpperCase()}`;
      i += 2;
    } else if (c.charCodeAt(0) > 0x7f) {
      const cp = value.codePointAt(i)!;
      for (const byte of encoder.encode(String.fromCodePoint(cp))) out += `%${HEX[byte >> 4]}${HEX[byte & 0xf]}`;
      if (cp > 0xffff) i += 1;
    } else out += c;
  }
  return out;
}

/**
 * The part of a URL Google's parser matches: scheme, authority and fragment removed, nothing
 * encoded; `/` when there is no path. It follows robots.cc's GetPathParamsQuery.
 */
export function googlePath(url: string): string {
  const searchStart = url.startsWith('//') ? 2 : 0;
  const earlyPath = firstOf(url, '/?;', searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  if (protocolEnd < 0 || (earlyPath >= 0 && earlyPath < protocolEnd)) protocolEnd = searchStart;
  else protocolEnd += 3;
  const pathStart = firstOf(url, '/?;', protocolEnd);
  if (pathStart < 0) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash >= 0 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash < 0 ? url.length : hash);
  return path.startsWith('/') ? path : `/${path}`;
}

function firstOf(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i]!)) return i;
  return -1;
}

/** For an Allow value (already read as googlePattern) ending in an `index.htm…` segment, the directory it also allows: `/a/index.html` → `/a/$`; else null. */
export function indexDirectoryPattern(pattern: string): string | null {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0 || !pattern.startsWith('/index.htm', slash)) return null;
  return `${pattern.slice(0, slash + 1)}$`;
}

/** The line as Google's parser keeps it: its first GOOGLE_LINE_BYTES bytes (cut before a character that would not fit whole). */
export function googleLine(text: string): string {
  if (text.length <= GOOGLE_LINE_BYTES / 3 || utf8Length(text) <= GOOGLE_LINE_BYTES) return text;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const cp = text.codePointAt(end)!;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > GOOGLE_LINE_BYTES) break;
    bytes += size;
    end += cp > 0xffff ? 2 : 1;
  }
  return text.slice(0, end);
}
