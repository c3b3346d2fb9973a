// robots.txt linter: every finding names its line, says what goes wrong and for which
// parsers, and gives a fix. It reads the same ParsedRobots the evaluator uses, so
// what it reports is exactly what the evaluator ignores or reads differently.

import { distancesWithin, profileOf } from './distance.ts';
import type { Finding, Severity } from './finding.ts';
import { lintPreferences } from './lint-preferences.ts';
import { parseRobotsTxt } from './parse.ts';
import type { Group, LineKind, ParsedLine, ParsedRobots, UserAgentLine } from './parse.ts';

type Draft = Omit<Finding, 'text'>;

/**
 * A token the index records for a crawler although it is not an RFC 9309 product token
 * (AI2Bot, MJ12bot, Screaming Frog SEO Spider). RFC 9309 2.2.1 puts the product-token rule on
 * the crawler's own name, so a site owner has no other spelling to write: the linter explains
 * what strict parsers read instead of telling the owner to change it. Keyed by the lower-case token.
 */
interface RecordedToken {
  /** The crawler's name, as the index gives it. */
  crawler: string;
  /** The record's robots_token_note: what strict and whole-token parsers do with the token. */
  note: string;
}
export type RecordedTokens = ReadonlyMap<string, RecordedToken>;

/** What the linter knows of the index: it works without one, and then names no crawler. */
export interface LintIndex {
  recorded: RecordedTokens;
  /** For a user-agent value that names nothing the index knows, the token it most likely meant
   * and what that was read from; null when it is known, or when nothing fits one crawler. */
  didYouMean(value: string): { token: string; because: string } | null;
  /** How many distinct values one file may have looked up; the rest get no suggestion. */
  lookups: number;
}

const NO_INDEX: LintIndex = { recorded: new Map(), didYouMean: () => null, lookups: 0 };

const LINE_TEXT_LIMIT = 200;

/**
 * What the file is when it is not a robots.txt: an HTML page (a site that answers a missing
 * robots.txt with its 404 page or home page, or a file saved from a browser). Null otherwise.
 */
export function notRobotsTxt(parsed: ParsedRobots): string | null {
  const first = parsed.lines.find((l) => l.text.trim() !== '');
  if (first === undefined || !/^\s*<(?:!doctype\s+html|html|head|body|\?xml)\b/i.test(first.text)) return null;
  return `This is an HTML or XML document, not a robots.txt (line ${first.line} starts with "${first.text.trim().slice(0, 40)}"). A server that answers /robots.txt with a page has no robots.txt; crawlers then treat it as unreadable or empty.`;
}

interface Known {
  name: string;
  display: string;
  /** What an RFC 9309 or Google parser would read the key as, when it is one of theirs. */
  kind: LineKind | null;
}

// Directive names a misspelt key is compared against.
const KNOWN: readonly Known[] = [
  { name: 'user-agent', display: 'User-agent', kind: 'user-agent' },
  { name: 'allow', display: 'Allow', kind: 'allow' },
  { name: 'disallow', display: 'Disallow', kind: 'disallow' },
  { name: 'sitemap', display: 'Sitemap', kind: 'sitemap' },
  { name: 'crawl-delay', display: 'Crawl-delay', kind: null },
  { name: 'clean-param', display: 'Clean-param', kind: null },
  { name: 'noindex', display: 'Noindex', kind: null },
  { name: 'nofollow', display: 'Nofollow', kind: null },
  { name: 'request-rate', display: 'Request-rate', kind: null },
  { name: 'visit-time', display: 'Visit-time', kind: null },
  { name: 'content-signal', display: 'Content-Signal', kind: null },
  { name: 'content-usage', display: 'Content-Usage', kind: null },
  { name: 'license', display: 'License', kind: null },
];

const META_ONLY = 'is a page-level robots directive, not a robots.txt one: no RFC 9309 parser reads it in robots.txt';
const META_FIX = 'Remove the line; use a <meta name="robots"> tag or an X-Robots-Tag response header on the pages instead.';

// Keys that are spelt right but are not RFC 9309 directives.
const UNSUPPORTED: Readonly<Record<string, { severity: Severity; message: string; fix: string }>> = {
  noindex: {
    severity: 'warning',
    message: 'Noindex in robots.txt is not part of RFC 9309; Google stopped honouring it in September 2019 and other major crawlers never did',
    fix: 'Remove the line; serve a noindex robots meta tag or X-Robots-Tag header and keep the page crawlable so the crawler can see it.',
  },
  nofollow: { severity: 'warning', message: `Nofollow ${META_ONLY}`, fix: META_FIX },
  noarchive: { severity: 'warning', message: `Noarchive ${META_ONLY}`, fix: META_FIX },
  nosnippet: { severity: 'warning', message: `Nosnippet ${META_ONLY}`, fix: META_FIX },
  noimageindex: { severity: 'warning', message: `Noimageindex ${META_ONLY}`, fix: META_FIX },
  host: {
    severity: 'warning',
    message: 'Host is not part of RFC 9309; it was a Yandex extension that Yandex itself replaced with redirects in 2018, and others ignore it',
    fix: 'Remove the line; redirect other host names to the preferred one with HTTP 301.',
  },
  'clean-param': {
    severity: 'info',
    message: 'Clean-param is a Yandex extension, not part of RFC 9309; other crawlers ignore it',
    fix: 'Keep it only for Yandex; use canonical links for other crawlers.',
  },
  'request-rate': {
    severity: 'warning',
    message: 'Request-rate comes from a 1996 proposal, is not part of RFC 9309, and no major crawler documents support for it',
    fix: "Remove the line; limit crawl rate in each search engine's webmaster tools or answer HTTP 429/503 when overloaded.",
  },
  'visit-time': {
    severity: 'warning',
    message: 'Visit-time comes from a 1996 proposal, is not part of RFC 9309, and no major crawler documents support for it',
    fix: 'Remove the line.',
  },
};

// A Map, not a property lookup: a file may hold `constructor: x`, and a file of thousands of
// distinct keys would otherwise probe an object's properties with each of them.
const UNSUPPORTED_BY_KEY: ReadonlyMap<string, (typeof UNSUPPORTED)[string]> = new Map(Object.entries(UNSUPPORTED));

function unsupportedDirective(lower: string): (typeof UNSUPPORTED)[string] | undefined {
  return UNSUPPORTED_BY_KEY.get(lower);
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function displayOf(kind: LineKind): string {
  return KNOWN.find((k) => k.kind === kind)?.display ?? kind;
}

// Each name's character counts are kept, so a key is ruled out against most names without a table.
const KNOWN_TARGETS = KNOWN.map((k) => ({ profile: profileOf(k.name), limit: k.name.length >= 8 ? 2 : 1 }));

/** The known directive a key most likely meant, or null. */
export function suggestDirective(key: string): Known | null {
  const lower = key.toLowerCase();
  if (lower.length < 3 || KNOWN.some((k) => k.name === lower)) return null;
  const distances = distancesWithin(lower, KNOWN_TARGETS);
  let best: Known | null = null;
  let bestDistance = Infinity;
  KNOWN.forEach((k, i) => {
    // Google reads any key that starts with a directive name as that directive.
    const d = lower.startsWith(k.name) ? 1 : distances[i]!;
    if (d <= KNOWN_TARGETS[i]!.limit && d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  });
  return best;
}

// Names in a browser-style header that are never the crawler's own token.
const GENERIC_PRODUCTS = new Set([
  'mozilla',
  'applewebkit',
  'khtml',
  'gecko',
  'chrome',
  'safari',
  'version',
  'mobile',
  'compatible',
  'like',
  'windows',
  'linux',
  'macintosh',
  'iphone',
  'android',
  'edg',
  'firefox',
  'opera',
  'headlesschrome',
]);

function looksLikeHeader(value: string): boolean {
  return /^mozilla\//i.test(value) || /[();]/.test(value) || /https?:/i.test(value) || (/\s/.test(value) && value.includes('/'));
}

/** Picks the crawler's own product name out of a whole User-Agent header, when there is one. */
export function tokenFromHeader(value: string): string | null {
  const names: string[] = [];
  for (const piece of value.split(/[\s;()]+/)) {
    const slash = piece.indexOf('/');
    if (slash <= 0) continue;
    const name = piece.slice(0, slash).replace(/^\+/, '');
    if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(name) || name.includes('.') || GENERIC_PRODUCTS.has(name.toLowerCase())) continue;
    names.push(name);
  }
  return names.find((n) => /bot|crawl|spider|agent|fetch|scan/i.test(n)) ?? names[0] ?? null;
}

function lintUserAgent(ua: UserAgentLine, recorded: RecordedTokens, out: Draft[]): void {
  const { line, value, token } = ua;
  if (value === '') {
    out.push({
      line,
      severity: 'warning',
      code: 'empty-user-agent',
      message: 'the user-agent line has no value and matches no crawler',
      fix: 'Name a product token (such as GPTBot) or * for all crawlers.',
    });
    return;
  }
  if (token === '*') {
    if (value !== '*') {
      out.push({
        line,
        severity: 'info',
        code: 'not-product-token',
        message: `"${value}" is read as "*" by Google's parser, but RFC 9309 allows only "*" alone`,
        fix: 'Write "User-agent: *" with nothing after the star.',
      });
    }
    return;
  }
  if (/^[A-Za-z_-]+$/.test(value)) return;
  const recordedToken = recorded.get(value.toLowerCase());
  if (recordedToken !== undefined) {
    out.push({
      line,
      severity: 'info',
      code: 'not-product-token',
      message: `"${value}" is the token ${recordedToken.crawler} goes by, though not an RFC 9309 product token (2.2.1): ${recordedToken.note}`,
      fix: `Nothing to change: no other spelling reaches ${recordedToken.crawler}. Rules every parser must apply to it also belong in the * group.`,
    });
    return;
  }

  if (looksLikeHeader(value)) {
    const suggested = tokenFromHeader(value);
    out.push({
      line,
      severity: 'error',
      code: 'user-agent-header',
      message:
        `a whole User-Agent header stands where a product token belongs; RFC 9309 parsers read it as "${token || '(nothing)'}"` +
        (suggested ? `, not as ${suggested}` : ''),
      fix: suggested ? `Write "User-agent: ${suggested}".` : "Write the crawler's product token only (see its documentation).",
    });
    return;
  }
  if (token === '') {
    out.push({
      line,
      severity: 'warning',
      code: 'not-product-token',
      message: `"${value}" does not start with a product token (letters, "_", "-") and matches no crawler under RFC 9309`,
      fix: 'Name the crawler by its product token; wildcards other than a lone * are not supported in user-agent lines.',
    });
    return;
  }
  if (/^[A-Za-z_-]+\/[^\s]*$/.test(value)) {
    out.push({
      line,
      severity: 'info',
      code: 'not-product-token',
      message: `"${value}" carries a version; parsers read it as "${token}", which works, but the version is not part of the token`,
      fix: `Write "User-agent: ${token}".`,
    });
    return;
  }
  out.push({
    line,
    severity: 'warning',
    code: 'not-product-token',
    message:
      `"${value}" is not an RFC 9309 product token (only letters, "_" and "-"): strict parsers such as Google's cut it to ` +
      `"${token}", so the group applies to a crawler named ${token}, while other parsers compare "${ua.whole_name}"`,
    fix:
      `Use the token the crawler documents; if it really contains digits, dots or spaces, strict parsers cannot match it, ` +
      `so also cover the crawler through rules that do not depend on this line (for example the * group).`,
  });
}

/**
 * The name two user-agent lines must share to be the same crawler's: the product token when the
 * value is one (a version after `/` aside), else the whole value. AI2Bot and
 * AI2Bot-DeepResearchEval both cut to "AI", but they name two crawlers; only strict parsers merge
 * them, and a group that names both already says what those parsers do.
 */
function crawlerName(ua: UserAgentLine): string {
  return /^[A-Za-z_-]+(?:\/\S*)?$/.test(ua.value) ? ua.token : ua.value;
}

/** Names no indexed crawler: says which one it most likely meant, and nothing when none fits. */
function lintUnknownName(ua: UserAgentLine, index: LintIndex, looked: Map<string, ReturnType<LintIndex['didYouMean']>>, out: Draft[]): void {
  if (ua.token === '*' || ua.value === '') return;
  const lower = ua.value.toLowerCase();
  let suggestion = looked.get(lower);
  if (suggestion === undefined) {
    if (looked.size >= index.lookups) return;
    suggestion = index.didYouMean(ua.value);
    looked.set(lower, suggestion);
  }
  if (suggestion === null) return;
  out.push({
    line: ua.line,
    severity: 'info',
    code: 'unknown-user-agent',
    message: `"${ua.value}" names no crawler in the index; did you mean ${suggestion.token} (${suggestion.because})?`,
    fix: `If ${suggestion.token} is the crawler meant, write "User-agent: ${suggestion.token}": a group reaches only the crawler whose token it names.`,
  });
}

function lintGroups(parsed: ParsedRobots, index: LintIndex, out: Draft[]): void {
  const firstGroupOf = new Map<string, { group: number; line: number }>();
  const looked = new Map<string, ReturnType<LintIndex['didYouMean']>>();
  parsed.groups.forEach((g, gi) => {
    const inGroup = new Map<string, number>();
    for (const ua of g.user_agents) {
      lintUserAgent(ua, index.recorded, out);
      lintUnknownName(ua, index, looked, out);
      if (ua.token === '') continue;
      const name = crawlerName(ua);
      const key = name.toLowerCase();
      const sameGroup = inGroup.get(key);
      if (sameGroup !== undefined) {
        out.push({
          line: ua.line,
          severity: 'info',
          code: 'duplicate-user-agent',
          message: `"${name}" is already named on line ${sameGroup} of this group`,
          fix: 'Remove the repeated line.',
        });
        continue;
      }
      inGroup.set(key, ua.line);
      const earlier = firstGroupOf.get(key);
      if (earlier && earlier.group !== gi) {
        out.push({
          line: ua.line,
          severity: 'warning',
          code: 'duplicate-group',
          message:
            `"${name}" already has a group at line ${earlier.line}; RFC 9309 parsers (and Google) merge the groups ` +
            '(2.2.1), but parsers that stop at the first matching group ignore this one',
          fix: `Move these rules into the group at line ${earlier.line} and delete this user-agent line.`,
        });
      } else if (!earlier) firstGroupOf.set(key, { group: gi, line: ua.line });
    }
  });
}

// Lines between the first user-agent line of a group and its last rule: where readings
// of the same file part ways.
function lintGroupBodies(parsed: ParsedRobots, out: Draft[]): void {
  const byLine = parsed.lines;
  for (const g of parsed.groups) {
    const first = g.user_agents[0]!.line;
    const lastUa = g.user_agents[g.user_agents.length - 1]!.line;
    const last = Math.max(lastUa, g.rules.length > 0 ? g.rules[g.rules.length - 1]!.line : lastUa);
    let reportedBlank = false;
    for (let n = first + 1; n < last; n++) {
      const l: ParsedLine = byLine[n - 1]!;
      // Other records do not end a run of user-agent lines, under RFC 9309 2.2.4 or in Google's
      // parser; only the attach draft's Content-Usage, which it makes a rule, does.
      if (n < lastUa && l.kind === 'content-usage') {
        out.push({
          line: n,
          severity: 'warning',
          code: 'group-split-by-directive',
          message:
            `this line sits between the user-agent lines ${first} and ${lastUa}: RFC 9309 (2.2.4) and Google's parser keep them in one group, ` +
            'but draft-ietf-aipref-attach-05 makes Content-Usage a rule, which ends the run of user-agent lines and leaves the ones above with no rules',
          fix: 'Move this line below the rules of the group (or to the end of the file).',
        });
      }
      if (!reportedBlank && l.text.trim() === '') {
        reportedBlank = true;
        out.push({
          line: n,
          severity: 'info',
          code: 'blank-line-in-group',
          message:
            'a blank line inside a group: RFC 9309 and Google continue the group after it, but parsers following the 1994 ' +
            'format end the record at a blank line and ignore or misfile what follows',
          fix: 'Remove blank lines inside a group; use them only between groups.',
        });
      }
    }
  }
}

function lintRules(parsed: ParsedRobots, out: Draft[]): void {
  for (const rule of parsed.orphan_rules) {
    out.push({
      line: rule.line,
      severity: 'error',
      code: 'rule-before-user-agent',
      message: `${displayOf(rule.directive)} before any user-agent line belongs to no group and is ignored (RFC 9309 2.2.2)`,
      fix: 'Add "User-agent: *" (or the crawler\'s token) above it, or move it into a group.',
    });
  }
  const seen = new Set<number>();
  const all = [...parsed.orphan_rules, ...parsed.groups.flatMap((g: Group) => g.rules)];
  for (const rule of all) {
    if (seen.has(rule.line)) continue;
    seen.add(rule.line);
    const v = rule.value;
    if (v === '' || v.startsWith('/') || v.startsWith('*')) continue;
    const url = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^#]*)/.exec(v);
    out.push({
      line: rule.line,
      severity: 'warning',
      code: 'path-not-absolute',
      message: url
        ? 'a rule takes a path, not a full URL; as written it matches nothing'
        : `"${v}" does not start with "/" or "*", so it matches no path (paths always start with "/")`,
      fix: url ? `Write "${displayOf(rule.directive)}: ${url[1] || '/'}".` : `Write "${displayOf(rule.directive)}: /${v}".`,
    });
  }
}

function lintSitemaps(parsed: ParsedRobots, out: Draft[]): void {
  for (const s of parsed.sitemaps) {
    if (/^https?:\/\/[^\s/?#]+/i.test(s.url)) continue;
    if (s.url === '' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s.url)) {
      out.push({
        line: s.line,
        severity: 'error',
        code: 'invalid-sitemap',
        message: s.url === '' ? 'the Sitemap line has no URL' : `"${s.url}" is not an http or https URL`,
        fix: 'Give the full URL of the sitemap, such as https://example.com/sitemap.xml.',
      });
    } else {
      out.push({
        line: s.line,
        severity: 'error',
        code: 'relative-sitemap',
        message: `the Sitemap URL "${s.url}" is relative; the sitemaps protocol requires a full URL and crawlers ignore relative ones`,
        fix: `Write the full URL, such as https://example.com${s.url.startsWith('/') ? '' : '/'}${s.url}.`,
      });
    }
  }
}

function lintUnknown(parsed: ParsedRobots, out: Draft[]): void {
  for (const u of parsed.unknown) {
    const lower = u.key.toLowerCase();
    if (lower === 'crawl-delay') {
      const numeric = /^\d+(\.\d+)?$/.test(u.value);
      out.push({
        line: u.line,
        severity: numeric ? 'info' : 'warning',
        code: 'crawl-delay',
        message:
          'Crawl-delay is not part of RFC 9309: Bing and Yandex honour it, Google ignores it' +
          (numeric ? '' : `, and "${u.value}" is not a number of seconds`),
        fix: numeric
          ? 'Keep it for the crawlers that read it; for Google, rely on HTTP 429/503 answers when the server is overloaded.'
          : 'Give a number of seconds, such as "Crawl-delay: 5".',
      });
      continue;
    }
    const unsupported = unsupportedDirective(lower);
    if (unsupported) {
      out.push({ line: u.line, severity: unsupported.severity, code: 'unsupported-directive', ...pick(unsupported) });
      continue;
    }
    const line = parsed.lines[u.line - 1]!;
    const suggestion = suggestDirective(u.key);
    const unsupportedSuggestion = suggestion ? unsupportedDirective(suggestion.name) : undefined;
    if (suggestion && unsupportedSuggestion) {
      out.push({
        line: u.line,
        severity: unsupportedSuggestion.severity,
        code: 'unsupported-directive',
        message: `"${u.key}" looks like ${suggestion.display}. ${unsupportedSuggestion.message}`,
        fix: unsupportedSuggestion.fix,
      });
      continue;
    }
    if (suggestion) {
      const google = line.google_kind === suggestion.kind;
      out.push({
        line: u.line,
        severity: suggestion.kind ? 'error' : 'warning',
        code: 'misspelled-directive',
        message:
          `"${u.key}" is not a directive; it looks like ${suggestion.display}. ` +
          (suggestion.kind === null
            ? 'Crawlers ignore the line.'
            : google
              ? "Google's parser accepts this spelling, but RFC 9309 parsers ignore the line."
              : "RFC 9309 parsers and Google's parser ignore the line."),
        fix: `Write "${suggestion.display}: ${u.value}".`,
      });
      continue;
    }
    out.push({
      line: u.line,
      severity: 'info',
      code: 'unknown-directive',
      message: `"${u.key}" is not a robots.txt directive known here; RFC 9309 parsers ignore it (2.2.4)`,
      fix: 'Remove the line unless a crawler you care about documents it.',
    });
  }
}

function pick(x: { message: string; fix: string }): { message: string; fix: string } {
  return { message: x.message, fix: x.fix };
}

function lintSyntax(parsed: ParsedRobots, out: Draft[]): void {
  for (const l of parsed.lines) {
    if (l.kind !== 'invalid') continue;
    if (l.key === null && l.value !== null) {
      out.push({
        line: l.line,
        severity: 'error',
        code: 'empty-key',
        message: 'the line has a ":" but no directive name before it and is ignored',
        fix: 'Put the directive name (User-agent, Allow, Disallow, Sitemap) before the colon.',
      });
      continue;
    }
    const google = l.google_kind !== 'invalid' && l.google_kind !== 'other' && l.google_kind !== 'blank';
    out.push({
      line: l.line,
      severity: 'error',
      code: 'no-colon',
      message:
        'the line has no ":" between directive and value; RFC 9309 parsers ignore it' +
        (google ? `, though Google's parser reads it as ${displayOf(l.google_kind)}` : ''),
      fix:
        google && l.key !== null ? `Write "${displayOf(l.google_kind)}: ${l.value ?? ''}".` : 'Write it as "Directive: value", or make it a comment with "#".',
    });
  }
}

function lintFile(parsed: ParsedRobots, out: Draft[]): void {
  if (parsed.size.total_bytes === 0 || (parsed.bom && parsed.size.total_bytes === 3)) {
    out.push({
      line: null,
      severity: 'info',
      code: 'empty-file',
      message: 'the file is empty: every crawler may fetch everything',
      fix: 'Nothing to do if that is intended; otherwise add a group such as "User-agent: *" with Disallow rules.',
    });
  } else if (parsed.groups.length === 0 && parsed.lines.some((l) => l.kind !== 'blank' && l.kind !== 'sitemap' && l.kind !== 'license')) {
    out.push({
      line: null,
      severity: 'warning',
      code: 'no-user-agent',
      message: 'the file has no user-agent line, so no rule in it applies to any crawler',
      fix: 'Start each group with a "User-agent:" line, such as "User-agent: *".',
    });
  }
  if (parsed.bom) {
    out.push({
      line: 1,
      severity: 'warning',
      code: 'bom',
      message:
        'the file starts with a UTF-8 byte-order mark; Google skips it, but other parsers read it as part of the first directive name and may ignore that line',
      fix: 'Save the file as UTF-8 without a byte-order mark.',
    });
  }
  for (const line of parsed.invalid_utf8_lines) {
    out.push({
      line,
      severity: 'error',
      code: 'invalid-utf8',
      message: 'the line is not valid UTF-8 (RFC 9309 2.3 requires UTF-8); the bad bytes read as U+FFFD and paths with them will not match',
      fix: 'Save the file as UTF-8; percent-encode non-ASCII characters in paths (%C3%A9 for é).',
    });
  }
  if (parsed.size.excess_bytes > 0) {
    out.push({
      line: parsed.size.dropped_line,
      severity: 'error',
      code: 'over-size',
      message:
        `the file is ${parsed.size.total_bytes} bytes; parsers may stop at ${parsed.size.limit_bytes} (500 KiB, RFC 9309 2.5, ` +
        `Google's limit) and ignore the other ${parsed.size.excess_bytes} bytes` +
        (parsed.size.dropped_line !== null ? `, including line ${parsed.size.dropped_line}, which the limit cuts` : ''),
      fix: 'Shrink the file below 500 KiB: merge rules with * patterns and drop rules for paths that no longer exist.',
    });
  }
}

/** Lints a parsed file; `index` says what the crawler index knows of the names in it. */
export function lintParsed(parsed: ParsedRobots, index: LintIndex = NO_INDEX): Finding[] {
  const out: Draft[] = [];
  const html = notRobotsTxt(parsed);
  if (html !== null)
    out.push({
      line: null,
      severity: 'error',
      code: 'not-robots-txt',
      message: html,
      fix: 'Fetch /robots.txt itself and check that it answers text/plain; if the site has none, nothing is disallowed.',
    });
  lintFile(parsed, out);
  lintSyntax(parsed, out);
  lintUnknown(parsed, out);
  lintGroups(parsed, index, out);
  lintGroupBodies(parsed, out);
  lintRules(parsed, out);
  lintSitemaps(parsed, out);
  lintPreferences(parsed, out);
  return out
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.line ?? 0) - (b.f.line ?? 0) || SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .map(({ f }) => ({ line: f.line, text: lineText(parsed, f.line), severity: f.severity, code: f.code, message: f.message, fix: f.fix }));
}

function lineText(parsed: ParsedRobots, line: number | null): string | null {
  if (line === null) return null;
  // Lines are numbered from 1 in file order, so the array index is the line number minus one.
  const text = (parsed.lines[line - 1]?.line === line ? parsed.lines[line - 1] : parsed.lines.find((l) => l.line === line))?.text;
  return text === undefined ? null : text.length > LINE_TEXT_LIMIT ? `${text.slice(0, LINE_TEXT_LIMIT)}…` : text;
}

export function lintRobotsTxt(input: string | Uint8Array, index: LintIndex = NO_INDEX): Finding[] {
  return lintParsed(parseRobotsTxt(input), index);
}
