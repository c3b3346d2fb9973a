// When a crawler's User-Agent substring counts as present in a header. One rule, used by the
// classifier (over Aho-Corasick occurrences) and by every generated server matcher (as a regex),
// so that classify-ua and a site's nginx, Apache, Caddy or HAProxy config never disagree.
//
// The rule: the substring occurs, ignoring the case of ASCII letters, and stands as a token of its
// own at each end that is a letter or digit:
//   - before it: no letter or digit ("Exabot" is not in "Alexabot", "OnCrawl" not in
//     "commoncrawl.org", "LCC" would not be in "SLCC2");
//   - after it: no letter ("Spider" would not be in "Spiderling"). A digit may follow, because
//     some crawlers glue their version to the name ("trendictionbot0.5.0").
// An end that is punctuation or a space ("Daum/", "compatible; Yeti/") is its own boundary.
//
// Boundaries are written as consuming groups, not `\b` or lookaround: `\b` is wrong next to `-`,
// `/` or a space, and RE2 (Caddy) has no lookbehind. A regex only answers "does it match", so a
// consumed neighbour costs nothing.

import { escapeRegex } from '../../render/regex.ts';
import { foldAscii } from '../../util/ascii.ts';

const WORD = /[A-Za-z0-9]/;
const LETTER = /[A-Za-z]/;

const needsStart = (substring: string): boolean => WORD.test(substring[0] ?? '');
const needsEnd = (substring: string): boolean => WORD.test(substring.at(-1) ?? '');

/** Whether the occurrence of `substring` at `start` in `text` stands as a token (see the rule above). */
export function isTokenAt(text: string, start: number, substring: string): boolean {
  if (needsStart(substring) && start > 0 && WORD.test(text[start - 1]!)) return false;
  const after = text[start + substring.length];
  if (needsEnd(substring) && after !== undefined && LETTER.test(after)) return false;
  return true;
}

/**
 * The rule as a regex source, valid alike in JavaScript, PCRE (nginx, Apache, HAProxy) and RE2
 * (Caddy). Match it case-insensitively, anywhere in the header.
 */
export function tokenPattern(substring: string): string {
  const start = needsStart(substring) ? '(?:^|[^A-Za-z0-9])' : '';
  const end = needsEnd(substring) ? '(?:[^A-Za-z]|$)' : '';
  return `${start}${escapeRegex(substring)}${end}`;
}

/** The rule applied to a whole header: every occurrence is tried, not only the first. */
export function containsToken(header: string, substring: string): boolean {
  const text = foldAscii(header);
  const needle = foldAscii(substring);
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) if (isTokenAt(text, at, needle)) return true;
  return false;
}

/** What a placeholder of a full form stands for: a version as crawlers write it, a whole number, one ASCII letter. */
const PLACEHOLDERS: Readonly<Record<string, string>> = { '{version}': '[0-9][0-9.]*', '{number}': '[0-9]+', '{letter}': '[A-Za-z]' };
const PLACEHOLDER = /\{version\}|\{number\}|\{letter\}/g;

/**
 * A full form as a regex source: the whole header, anchored, its literal parts escaped. For a
 * crawler whose substring other products also send (WhatsApp's own app sends `WhatsApp/2.17.427
 * Android/6.0 Device/…`, its link preview `WhatsApp/2.19.258 A`), the forms say which headers are
 * the crawler's; valid alike in JavaScript, PCRE and RE2.
 */
export function fullFormPattern(form: string): string {
  let source = '';
  let last = 0;
  for (const match of form.matchAll(PLACEHOLDER)) {
    source += escapeRegex(form.slice(last, match.index)) + PLACEHOLDERS[match[0]]!;
    last = match.index + match[0].length;
  }
  return `^${source}${escapeRegex(form.slice(last))}$`;
}
