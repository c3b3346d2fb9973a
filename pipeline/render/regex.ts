import { compareText } from '../util/compare.ts';

/** Escapes every character that is special in JavaScript, PCRE or RE2 patterns, and `/` for literals. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A pattern that matches nothing in every common engine: used for an empty set instead of "". */
const MATCHES_NOTHING = '[^\\s\\S]';

/**
 * One alternation over the given substrings, each written by `pattern`, longest first so that an
 * engine reporting the leftmost-first match names the most specific crawler (Googlebot-Image
 * before Googlebot).
 */
export function alternation(substrings: Iterable<string>, pattern: (substring: string) => string = escapeRegex): string {
  const unique = [...new Set(substrings)].sort((a, b) => b.length - a.length || compareText(a, b));
  return unique.length === 0 ? MATCHES_NOTHING : unique.map(pattern).join('|');
}
