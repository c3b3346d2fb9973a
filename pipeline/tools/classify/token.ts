// When a crawler's User-Agent substring counts as present in a header. One rule, used by the
// classifier (over Aho-Corasick occurrences) and by every generated server matcher (as a regex),
// so that classify-ua and a site's nginx, Apache, Caddy or HAProxy config never disagree.
//
// The rule: the substring occurs, ignoring the case of ASCII letters, and stands as a token of its
// own at each end that is a letter or digit:
//   - before it: no letter or digit ("Exabot" is not in "Alexabot", "LCC" would not be in
//     "SLCC2"). A substring that is a name (it holds no `.`, `:`, `@` and no `/` before its last
//     character) is also not taken after a character that joins it to a longer name or puts it
//     inside a URL: `- _ . / : @ = ? & # % ~` ("UptimeBot" is not in "elmahio-uptimebot",
//     "OnCrawl" not in "commoncrawl.org", "Google-Agent" not in the docs URL
//     ".../google-agent-search" that GoogleAgent-Search sends). A substring shaped like a host or
//     path ("visionheight.com/scan", "Jeeves/Teoma") is written to be found there, so it keeps
//     the letter-or-digit rule alone. See docs/API.md, /data/ua-regex.json.
//   - after it: no letter ("Spider" would not be in "Spiderling"). A digit may follow, because
//     some crawlers glue their version to the name ("trendictionbot0.5.0").
// An end that is punctuation or a space ("Daum/", "compatible; Yeti/") is its own boundary.
//
// Why a character and not "anywhere after ://": a regex for that needs to scan back over the
// whole run before every candidate, which made a policy's nginx map 24 times slower per request
// (pcre2grep over 7,088 browser headers and 800 patterns: 46 µs to 1,091 µs a header). One
// character before the name catches a name inside a host or a path segment, which is where a
// URL holds one; a name that begins a host written without a scheme is still counted
// (docs/API.md, /data/ua-regex.json).
//
// Boundaries are written as consuming groups, not `\b` or lookaround: `\b` is wrong next to `-`,
// `/` or a space, and RE2 (Caddy) has no lookbehind. A regex only answers "does it match", so a
// consumed neighbour costs nothing.

import { escapeRegex } from '../../render/regex.ts';
import { foldAscii } from '../../util/ascii.ts';

const WORD = /[A-Za-z0-9]/;
const LETTER = /[A-Za-z]/;
/**
 * The characters that join a name to a longer name or put it inside a URL, written so that they
 * stand as they are inside a character class of JavaScript, PCRE and RE2 (the hyphen last).
 */
const JOINERS = '_./:@=?&#%~-';
/** What may not stand before a name: a letter or digit, or a joiner. */
const NAME_JOINED = new RegExp(`[A-Za-z0-9${JOINERS}]`);
/** A substring shaped like a host, an address or a path: a dot, colon or at sign, or a slash before its last character. */
const PLACE_SHAPED = /[.:@]|\/./;

const needsStart = (substring: string): boolean => WORD.test(substring[0] ?? '');
const needsEnd = (substring: string): boolean => WORD.test(substring.at(-1) ?? '');
/** Whether a substring is a name, which the joining characters also bound (see the rule above). */
const isName = (substring: string): boolean => needsStart(substring) && !PLACE_SHAPED.test(substring);

/** The rule in a sentence's words, for every document that states it (configs, /data/ua-regex.json, /data/policy-accuracy.json). */
export const TOKEN_RULE_WORDS = `no letter or digit before it, and before a name none of ${[...JOINERS].join(' ')} either, since they join it to a longer name or put it inside a URL; no letter after it`;

/** The regex before a name. */
export const NAME_START = `(?:^|[^A-Za-z0-9${JOINERS}])`;
/** The regex before any other substring that starts with a letter or digit. */
export const WORD_START = '(?:^|[^A-Za-z0-9])';
/** The regex after a substring that ends with a letter or digit. */
export const WORD_END = '(?:[^A-Za-z]|$)';

/** Whether the occurrence of `substring` at `start` in `text` stands as a token (see the rule above). */
export function isTokenAt(text: string, start: number, substring: string): boolean {
  if (needsStart(substring) && start > 0 && (isName(substring) ? NAME_JOINED : WORD).test(text[start - 1]!)) return false;
  const after = text[start + substring.length];
  if (needsEnd(substring) && after !== undefined && LETTER.test(after)) return false;
  return true;
}

/**
 * The rule as a regex source, valid alike in JavaScript, PCRE (nginx, Apache, HAProxy) and RE2
 * (Caddy). Match it case-insensitively, anywhere in the header.
 */
export function tokenPattern(substring: string): string {
  const start = isName(substring) ? NAME_START : needsStart(substring) ? WORD_START : '';
  const end = needsEnd(substring) ? WORD_END : '';
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
