// robots.txt parser following RFC 9309. It never throws: whatever it cannot use it
// keeps and reports, so the linter can explain it and the evaluator can ignore it.
//
// Two readings of the same lines are produced:
//
// 1. The RFC 9309 reading (`groups`), used for every verdict. Directive names are
//    matched case-insensitively and exactly: `user-agent`, `allow`, `disallow`,
//    `sitemap`. Misspellings are NOT accepted. Reason: RFC 9309 2.2.4 allows leniency
//    only for "other records"; the ABNF in 2.2 spells the group and rule keys exactly,
//    and a tool that tells a site owner "your `Dissallow` line works" would be right
//    for Googlebot and wrong for crawlers using strict parsers. The linter reports the
//    misspelling; the evaluator tells when it changes the answer (next point).
//
// 2. The Google reading (`google_groups`), kept only when it differs. Google's
//    open-source reference parser (google/robotstxt, robots.cc) accepts the typos
//    `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `useragent`,
//    `user agent`, `site-map`; it recognises a key by its prefix (`Disallowed:` is a
//    disallow); it takes whitespace instead of the colon when the line has exactly
//    two words (`Disallow /x`); and it keeps only the first GOOGLE_LINE_BYTES bytes of a
//    line, so a longer rule is read as its first part (google-reading.ts). Like RFC 9309
//    2.2.4, it lets only a rule end a run of user-agent lines: `User-agent: a` /
//    `Crawl-delay: 5` / `User-agent: b` is one group in both readings. The evaluator
//    compares both readings and flags `disagreements.google_parser` when they decide
//    differently.
//
// Other decisions:
// - Lines end at CR, LF or CRLF (RFC 9309 2.2 `NL`). Line numbers are 1-based and
//   count every line, blank and comment lines included.
// - A UTF-8 byte-order mark is stripped and recorded (Google skips it too).
// - Only the first 500 KiB are parsed (RFC 9309 2.5 sets that as the minimum limit
//   and Google documents it as its own). A line cut by the limit is dropped whole
//   rather than parsed as a shortened rule, which could block or allow the wrong paths.
// - Invalid UTF-8 is decoded with U+FFFD and the lines are reported (RFC 9309 2.3
//   requires UTF-8).
// - A user-agent value is read as its leading product-token characters [A-Za-z_-]
//   (RFC 9309 2.2.1, as Google's parser does): `Googlebot/2.1` reads as `Googlebot`,
//   `AI2Bot` reads as `AI`. A value that is `*`, or `*` followed by whitespace, is
//   the global group (Google's behaviour).

import { googleLine } from './google-reading.ts';
import { normalizePattern } from './percent-encoding.ts';
import { utf8Length } from '../../util/utf8-length.ts';

/** RFC 9309 2.5: the parsing limit must be at least 500 kibibytes. */
export const PARSE_LIMIT_BYTES = 500 * 1024;

export type LineKind = 'blank' | 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'content-usage' | 'content-signal' | 'license' | 'other' | 'invalid';

export interface ParsedLine {
  line: number;
  /** The line as written, without its line ending (and without a leading BOM). */
  text: string;
  /** RFC 9309 reading. `blank` covers empty and comment-only lines. */
  kind: LineKind;
  /** Key and value as written, trimmed, comment removed. For a line without a colon
   * they hold the two words Google's parser would use, when it would use any. */
  key: string | null;
  value: string | null;
  /** How Google's reference parser reads the line (see the comment at the top). */
  google_kind: LineKind;
}

export interface UserAgentLine {
  line: number;
  text: string;
  value: string;
  /** The product token a strict parser compares: `*`, or the leading [A-Za-z_-]
   * characters of the value (possibly empty, which matches no crawler). */
  token: string;
  /** The value up to the first whitespace or `/`: what a parser that does not cut
   * at the first non-token character compares (`AI2Bot`, `Mail.RU_Bot`). */
  whole_name: string;
}

export interface Rule {
  line: number;
  text: string;
  directive: 'allow' | 'disallow';
  /** The path pattern as written. */
  value: string;
  /** The pattern after percent-encoding normalisation (see normalize.ts). */
  pattern: string;
}

/**
 * A usage-preference line inside a group: `Content-Usage` (draft-ietf-aipref-attach-05 §3) or
 * Cloudflare's `Content-Signal`. They never change what a crawler may fetch, so they are kept
 * apart from the rules; docs/usage-preferences.md says how they are read.
 */
export interface PreferenceLine {
  line: number;
  text: string;
  vocabulary: 'content-usage' | 'content-signal';
  /** The value as written (comment removed, trimmed). */
  value: string;
  /** Content-Usage only: the path the line is scoped to, as written; null when absent (the whole site). */
  path: string | null;
  /** The path after percent-encoding normalisation; '' when absent. */
  pattern: string;
  /** The statement of preference: the value without its path. */
  statement: string;
}

export interface Group {
  user_agents: UserAgentLine[];
  rules: Rule[];
  /** Content-Usage and Content-Signal lines between this group's first user-agent line and the next group. */
  preferences: PreferenceLine[];
}

interface LicenseLine {
  line: number;
  text: string;
  url: string;
}

/** A block between `# BEGIN Cloudflare Managed content` and `# END Cloudflare Managed Content`. */
export interface ManagedBlock {
  begin: number;
  /** Null when the file has no END marker after the BEGIN. */
  end: number | null;
}

interface SitemapLine {
  line: number;
  text: string;
  url: string;
}

interface UnknownDirective {
  line: number;
  text: string;
  key: string;
  value: string;
}

type ParseIssueCode = 'bom' | 'over-limit' | 'invalid-utf8' | 'no-colon' | 'empty-key' | 'rule-outside-group';

interface ParseIssue {
  line: number | null;
  code: ParseIssueCode;
  message: string;
}

export interface ParsedRobots {
  bom: boolean;
  size: {
    total_bytes: number;
    parsed_bytes: number;
    limit_bytes: number;
    /** Bytes past the limit, all ignored. Zero when the file fits. */
    excess_bytes: number;
    /** Line number of a line cut by the limit and therefore dropped, or null. */
    dropped_line: number | null;
  };
  invalid_utf8_lines: number[];
  lines: ParsedLine[];
  groups: Group[];
  sitemaps: SitemapLine[];
  /** RSL `License:` lines (RSL 1.0: global, not tied to a group). */
  licenses: LicenseLine[];
  /** Content-Usage and Content-Signal lines before any user-agent line: they belong to no group. */
  orphan_preferences: PreferenceLine[];
  /** Cloudflare-managed blocks, found by their comment markers. */
  managed_blocks: ManagedBlock[];
  unknown: UnknownDirective[];
  /** Allow/Disallow lines before any user-agent line (ignored, RFC 9309 2.2.2). */
  orphan_rules: Rule[];
  /** Groups as Google's reference parser forms them; null when identical to `groups`. */
  google_groups: Group[] | null;
  issues: ParseIssue[];
}

const encoder = new TextEncoder();
const LF = 0x0a;
const CR = 0x0d;

// Returns at least `limit + 1` bytes when the input is longer than the limit, so the
// caller can see whether the cut falls on a line break, without encoding a huge string.
function toBytes(input: string | Uint8Array, limit: number): { bytes: Uint8Array; total: number } {
  if (typeof input !== 'string') return { bytes: input, total: input.length };
  const total = utf8Length(input);
  if (total <= limit) return { bytes: encoder.encode(input), total };
  return { bytes: encoder.encode(input.slice(0, limit + 1)), total };
}

function isLineBreak(byte: number | undefined): boolean {
  return byte === LF || byte === CR;
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  // A final line break ends the last line; it does not start an empty one.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

// Same boundaries as splitLines, over bytes (CR and LF never occur inside a UTF-8
// sequence, and the replacement decoder never swallows them).
function invalidUtf8Lines(bytes: Uint8Array): number[] {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const bad: number[] = [];
  let line = 1;
  let start = 0;
  const check = (end: number): void => {
    try {
      strict.decode(bytes.subarray(start, end));
    } catch {
      bad.push(line);
    }
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== LF && b !== CR) continue;
    check(i);
    if (b === CR && bytes[i + 1] === LF) i++;
    line++;
    start = i + 1;
  }
  if (start < bytes.length) check(bytes.length);
  return bad;
}

function decode(bytes: Uint8Array): { text: string; invalid: number[] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), invalid: [] };
  } catch {
    const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
    return { text, invalid: invalidUtf8Lines(bytes) };
  }
}

// ASCII whitespace only: String.prototype.trim would also eat U+FEFF and U+00A0,
// which are content, not RFC 9309 `WS`.
function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0c || c === 0x0b;
}

function trimWs(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isWs(s.charCodeAt(start))) start++;
  while (end > start && isWs(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

function strictKind(lower: string): LineKind {
  switch (lower) {
    case 'user-agent':
      return 'user-agent';
    case 'allow':
      return 'allow';
    case 'disallow':
      return 'disallow';
    case 'sitemap':
      return 'sitemap';
    case 'content-usage':
      return 'content-usage';
    case 'content-signal':
      return 'content-signal';
    case 'license':
      return 'license';
    default:
      return 'other';
  }
}

const GOOGLE_KEYS: ReadonlyArray<readonly [string, LineKind]> = [
  ['user-agent', 'user-agent'],
  ['useragent', 'user-agent'],
  ['user agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'],
  ['dissallow', 'disallow'],
  ['dissalow', 'disallow'],
  ['disalow', 'disallow'],
  ['diasllow', 'disallow'],
  ['disallaw', 'disallow'],
  ['sitemap', 'sitemap'],
  ['site-map', 'sitemap'],
];

function googleKind(lower: string, strict: LineKind): LineKind {
  // Each of these keys starts with itself, and with no earlier key of GOOGLE_KEYS.
  if (strict === 'user-agent' || strict === 'allow' || strict === 'disallow' || strict === 'sitemap') return strict;
  for (const [prefix, kind] of GOOGLE_KEYS) if (lower.startsWith(prefix)) return kind;
  return 'other';
}

function keyed(line: number, text: string, key: string, value: string): ParsedLine {
  const lower = key.toLowerCase();
  const kind = strictKind(lower);
  return { line, text, kind, key, value, google_kind: googleKind(lower, kind) };
}

// One line read by positions, not by slicing it piece by piece: a file of many short lines
// would otherwise make several short-lived strings per line.
function readLine(line: number, text: string, issues: ParseIssue[]): ParsedLine {
  const hash = text.indexOf('#');
  let start = 0;
  let end = hash >= 0 ? hash : text.length;
  while (start < end && isWs(text.charCodeAt(start))) start++;
  while (end > start && isWs(text.charCodeAt(end - 1))) end--;
  if (start === end) return { line, text, kind: 'blank', key: null, value: null, google_kind: 'blank' };
  const colon = text.indexOf(':', start);
  if (colon < 0 || colon >= end) {
    issues.push({ line, code: 'no-colon', message: `line ${line} has no ":" between directive and value` });
    // Google accepts `key value` when the line is exactly two words.
    const words = text.slice(start, end).split(/[ \t\f\v]+/);
    if (words.length !== 2) return { line, text, kind: 'invalid', key: null, value: null, google_kind: 'invalid' };
    const lower = words[0]!.toLowerCase();
    return { line, text, kind: 'invalid', key: words[0]!, value: words[1]!, google_kind: googleKind(lower, strictKind(lower)) };
  }
  let keyEnd = colon;
  while (keyEnd > start && isWs(text.charCodeAt(keyEnd - 1))) keyEnd--;
  let valueStart = colon + 1;
  while (valueStart < end && isWs(text.charCodeAt(valueStart))) valueStart++;
  const value = text.slice(valueStart, end);
  if (keyEnd === start) {
    issues.push({ line, code: 'empty-key', message: `line ${line} has no directive name before ":"` });
    return { line, text, kind: 'invalid', key: null, value, google_kind: 'invalid' };
  }
  return keyed(line, text, text.slice(start, keyEnd), value);
}

function isTokenChar(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2d || c === 0x5f;
}

function userAgentOf(l: ParsedLine): UserAgentLine {
  const value = l.value ?? '';
  let tokenEnd = 0;
  while (tokenEnd < value.length && isTokenChar(value.charCodeAt(tokenEnd))) tokenEnd++;
  let wholeEnd = 0;
  for (let c = value.charCodeAt(0); wholeEnd < value.length && !isWs(c) && c !== 0x2f; c = value.charCodeAt(++wholeEnd));
  const star = value.charCodeAt(0) === 0x2a && (value.length === 1 || isWs(value.charCodeAt(1)));
  return { line: l.line, text: l.text, value, token: star ? '*' : value.slice(0, tokenEnd), whole_name: value.slice(0, wholeEnd) };
}

function ruleOf(l: ParsedLine, directive: 'allow' | 'disallow'): Rule {
  const value = l.value ?? '';
  return { line: l.line, text: l.text, directive, value, pattern: normalizePattern(value) };
}

// draft-ietf-aipref-attach-05 §3.2: a path, when present, starts with "/" and ends at the first
// SP or HTAB; the rest of the value is the statement of preference.
function preferenceOf(l: ParsedLine, vocabulary: PreferenceLine['vocabulary']): PreferenceLine {
  const value = l.value ?? '';
  if (vocabulary === 'content-usage' && value.startsWith('/')) {
    const end = /[ \t]/.exec(value)?.index ?? value.length;
    const path = value.slice(0, end);
    return { line: l.line, text: l.text, vocabulary, value, path, pattern: normalizePattern(path), statement: trimWs(value.slice(end)) };
  }
  return { line: l.line, text: l.text, vocabulary, value, path: null, pattern: '', statement: value };
}

type Reading = 'rfc' | 'google';

/** The rule as Google's parser reads the line: the same rule unless the line is cut (GOOGLE_LINE_BYTES). */
function googleRuleOf(l: ParsedLine, directive: 'allow' | 'disallow', rfcRule: Rule): Rule {
  const kept = googleLine(l.text);
  if (kept === l.text) return rfcRule;
  return { ...ruleOf(readLine(l.line, kept, []), directive), text: l.text };
}

// Builds groups from classified lines. A user-agent line opens a new group when the
// current one is closed by an allow/disallow line (RFC 9309 2.1, 2.2.4; Google's parser
// likewise). In the Google reading, a rule on a line over GOOGLE_LINE_BYTES is read from the
// line's first part, as that parser does.
//
// Content-Usage and Content-Signal lines join the current group without closing it: under
// RFC 9309 they are records other than rules, which "MUST NOT interfere" (2.2.4). The attach
// draft makes Content-Usage a rule, which would end a run of user-agent lines; the linter
// reports a preference line placed between user-agent lines, where the two readings differ.
function buildGroups(
  lines: ParsedLine[],
  reading: Reading,
  uaCache: Array<UserAgentLine | undefined>,
  ruleCache: Array<Rule | undefined>,
  preferenceCache: Array<PreferenceLine | undefined>,
): { groups: Group[]; orphans: Rule[]; orphanPreferences: PreferenceLine[] } {
  const groups: Group[] = [];
  const orphans: Rule[] = [];
  const orphanPreferences: PreferenceLine[] = [];
  let current: Group | null = null;
  let closed = true;
  for (const l of lines) {
    const kind = reading === 'rfc' ? l.kind : l.google_kind;
    if (kind === 'user-agent') {
      let ua = uaCache[l.line];
      if (!ua) {
        ua = userAgentOf(l);
        uaCache[l.line] = ua;
      }
      if (current === null || closed) {
        current = { user_agents: [], rules: [], preferences: [] };
        groups.push(current);
        closed = false;
      }
      current.user_agents.push(ua);
    } else if (kind === 'allow' || kind === 'disallow') {
      let rule = ruleCache[l.line];
      if (!rule) {
        rule = ruleOf(l, kind);
        ruleCache[l.line] = rule;
      }
      if (reading === 'google') rule = googleRuleOf(l, kind, rule);
      if (current === null) orphans.push(rule);
      else {
        current.rules.push(rule);
        closed = true;
      }
    } else if (l.kind === 'content-usage' || l.kind === 'content-signal') {
      let preference = preferenceCache[l.line];
      if (!preference) {
        preference = preferenceOf(l, l.kind);
        preferenceCache[l.line] = preference;
      }
      if (current === null) orphanPreferences.push(preference);
      else current.preferences.push(preference);
    }
  }
  return { groups, orphans, orphanPreferences };
}

function sameShape(a: Group[], b: Group[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.user_agents.length !== y.user_agents.length || x.rules.length !== y.rules.length) return false;
    for (let j = 0; j < x.user_agents.length; j++) if (x.user_agents[j]!.line !== y.user_agents[j]!.line) return false;
    // The same line gives the same rule object in both readings, unless Google's reading cut it.
    for (let j = 0; j < x.rules.length; j++) if (x.rules[j] !== y.rules[j]) return false;
  }
  return true;
}

// Cloudflare writes `# BEGIN Cloudflare Managed content` and `# END Cloudflare Managed Content`
// (the capital C differs); sites copy them by hand with other spacing and case, so both are
// matched case-insensitively with any spacing.
const MANAGED_BEGIN = /^[ \t]*#[ \t]*BEGIN[ \t]+Cloudflare[ \t]+Managed[ \t]+content[ \t]*$/i;
const MANAGED_END = /^[ \t]*#[ \t]*END[ \t]+Cloudflare[ \t]+Managed[ \t]+content[ \t]*$/i;

function readManagedMarker(l: ParsedLine, blocks: ManagedBlock[]): void {
  // Only comment lines that name Cloudflare are tested against the markers.
  if (!l.text.includes('loudflare') && !l.text.includes('LOUDFLARE')) return;
  const open = blocks.length > 0 && blocks[blocks.length - 1]!.end === null;
  if (!open && MANAGED_BEGIN.test(l.text)) blocks.push({ begin: l.line, end: null });
  else if (open && MANAGED_END.test(l.text)) blocks[blocks.length - 1]!.end = l.line;
}

/** What the parser reads: the text within the limit, and what the limit and decoding did to the input. */
interface Input {
  text: string;
  total: number;
  parsedBytes: number;
  cutMidLine: boolean;
  bom: boolean;
  invalid: number[];
}

// ES2024 string methods, in Node since 20; the project's TypeScript lib predates them.
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** The string with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder writes it. */
function wellFormed(text: string): string {
  const s = text as unknown as WellFormed;
  return s.isWellFormed() ? text : s.toWellFormed();
}

/**
 * A string within the limit is read as it is: encoding it to bytes and decoding them again
 * changes nothing but a lone surrogate, which both make U+FFFD. Anything else goes through bytes.
 */
function readInput(input: string | Uint8Array): Input {
  if (typeof input === 'string') {
    const total = utf8Length(input, PARSE_LIMIT_BYTES);
    if (total <= PARSE_LIMIT_BYTES) {
      const whole = wellFormed(input);
      const bom = whole.charCodeAt(0) === 0xfeff;
      return { text: bom ? whole.slice(1) : whole, total, parsedBytes: total, cutMidLine: false, bom, invalid: [] };
    }
  }
  const { bytes: raw, total } = toBytes(input, PARSE_LIMIT_BYTES);
  let bytes = raw.length > PARSE_LIMIT_BYTES ? raw.subarray(0, PARSE_LIMIT_BYTES) : raw;
  let cutMidLine = false;
  if (total > PARSE_LIMIT_BYTES && !isLineBreak(raw[PARSE_LIMIT_BYTES]) && !isLineBreak(bytes[bytes.length - 1])) {
    let end = bytes.length;
    while (end > 0 && !isLineBreak(bytes[end - 1])) end--;
    bytes = bytes.subarray(0, end);
    cutMidLine = true;
  }
  const parsedBytes = bytes.length;
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (bom) bytes = bytes.subarray(3);
  const { text, invalid } = decode(bytes);
  return { text, total, parsedBytes, cutMidLine, bom, invalid };
}

/**
 * Whether Google's parser could form other groups than RFC 9309: a line it reads as a
 * user-agent line or a rule where RFC 9309 reads another kind (or the reverse), or a rule line
 * long enough for it to cut (GOOGLE_LINE_BYTES). Otherwise its groups are the same.
 */
function googleGroupsMayDiffer(lines: readonly ParsedLine[]): boolean {
  const grouping = (k: LineKind) => k === 'user-agent' || k === 'allow' || k === 'disallow';
  return lines.some(
    (l) => (l.kind !== l.google_kind && (grouping(l.kind) || grouping(l.google_kind))) || (grouping(l.google_kind) && googleLine(l.text) !== l.text),
  );
}

export function parseRobotsTxt(input: string | Uint8Array): ParsedRobots {
  const issues: ParseIssue[] = [];
  const { text, total, parsedBytes, cutMidLine, bom, invalid } = readInput(input);
  if (bom) issues.push({ line: 1, code: 'bom', message: 'the file starts with a UTF-8 byte-order mark (stripped)' });

  const texts = splitLines(text);

  const lines: ParsedLine[] = [];
  for (let i = 0; i < texts.length; i++) lines.push(readLine(i + 1, texts[i]!, issues));
  for (const line of invalid) {
    issues.push({ line, code: 'invalid-utf8', message: `line ${line} is not valid UTF-8 (decoded with U+FFFD)` });
  }

  const droppedLine = cutMidLine ? texts.length + 1 : null;
  if (total > PARSE_LIMIT_BYTES) {
    issues.push({
      line: droppedLine,
      code: 'over-limit',
      message:
        `the file is ${total} bytes; only the first ${PARSE_LIMIT_BYTES} are parsed (RFC 9309 2.5) and ` +
        `${total - PARSE_LIMIT_BYTES} are ignored` +
        (droppedLine !== null ? `; line ${droppedLine}, cut by the limit, is ignored whole` : ''),
    });
  }

  // Indexed by line number, so both readings share one object per line.
  const uaCache = new Array<UserAgentLine | undefined>(lines.length + 1);
  const ruleCache = new Array<Rule | undefined>(lines.length + 1);
  const preferenceCache = new Array<PreferenceLine | undefined>(lines.length + 1);
  const rfc = buildGroups(lines, 'rfc', uaCache, ruleCache, preferenceCache);
  const google = googleGroupsMayDiffer(lines) ? buildGroups(lines, 'google', uaCache, ruleCache, preferenceCache) : rfc;

  for (const rule of rfc.orphans) {
    issues.push({
      line: rule.line,
      code: 'rule-outside-group',
      message: `line ${rule.line} is a rule before any user-agent line and is ignored (RFC 9309 2.2.2)`,
    });
  }

  const sitemaps: SitemapLine[] = [];
  const licenses: LicenseLine[] = [];
  const unknown: UnknownDirective[] = [];
  const managed: ManagedBlock[] = [];
  for (const l of lines) {
    if (l.kind === 'sitemap') sitemaps.push({ line: l.line, text: l.text, url: l.value ?? '' });
    else if (l.kind === 'license') licenses.push({ line: l.line, text: l.text, url: l.value ?? '' });
    else if (l.kind === 'other') unknown.push({ line: l.line, text: l.text, key: l.key ?? '', value: l.value ?? '' });
    else if (l.kind === 'blank') readManagedMarker(l, managed);
  }

  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));

  return {
    bom,
    size: {
      total_bytes: total,
      parsed_bytes: parsedBytes,
      limit_bytes: PARSE_LIMIT_BYTES,
      excess_bytes: Math.max(0, total - PARSE_LIMIT_BYTES),
      dropped_line: droppedLine,
    },
    invalid_utf8_lines: invalid,
    lines,
    groups: rfc.groups,
    sitemaps,
    licenses,
    orphan_preferences: rfc.orphanPreferences,
    managed_blocks: managed,
    unknown,
    orphan_rules: rfc.orphans,
    google_groups: sameShape(rfc.groups, google.groups) ? null : google.groups,
    issues,
  };
}
