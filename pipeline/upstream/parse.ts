// One parser per upstream format, from bytes to the raw prefix strings the operator listed.
// Parsers never throw: a body we cannot read is `{ ok: false, error }` with a sentence a
// maintainer can act on. What operators really ship (a leading newline, a BOM, zero-width
// or non-breaking spaces, trailing commas) is tolerated, and every such tolerance is
// reported in `findings` so it is never silent. Addresses are not interpreted here:
// normalise.ts validates, canonicalises and handles bare IPs for every format alike.

import { FindingLog, plural } from './findings.ts';
import { clip, LIST_ITEM_LIMIT, quote } from '../util/quote.ts';

/** How one upstream format is read, labelled and stored: the one table of formats. */
interface FormatSpec {
  parse: (text: string, findings: FindingLog) => ParseResult;
  /** The media type the operator should send, quoted when the response says otherwise. */
  mediaType: string;
  /** Media types accepted as that format without a finding. */
  accepts: (mediaType: string) => boolean;
  /** The file extension of an offline import (`refresh --upstream-dir`). */
  extension: string;
}

/**
 * Every format a source in records/sources.yaml may name. The records and output schemas list
 * the same names (a test keeps them equal); adding a format is one row here.
 */
export const FORMATS = {
  'prefix-json': {
    parse: parseJsonDocument,
    mediaType: 'application/json',
    accepts: (t) => t === 'application/json' || t === 'text/json' || t.endsWith('+json'),
    extension: 'json',
  },
  'prefix-json-html': { parse: parseJsonInHtml, mediaType: 'text/html', accepts: (t) => t === 'text/html' || t === 'application/xhtml+xml', extension: 'html' },
  text: { parse: parseText, mediaType: 'text/plain', accepts: (t) => t === 'text/plain', extension: 'txt' },
  csv: { parse: parseCsv, mediaType: 'text/csv', accepts: (t) => t === 'text/csv' || t === 'text/plain', extension: 'csv' },
} satisfies Record<string, FormatSpec>;

export type PrefixFormat = keyof typeof FORMATS;

export type ParseResult = { ok: true; prefixes: string[]; creationTime: string | null; findings: string[] } | { ok: false; error: string };

export function parsePrefixList(format: PrefixFormat, bytes: Uint8Array): ParseResult {
  const findings = new FindingLog();
  const text = decodeUtf8(bytes, findings);
  if (typeof text !== 'string') return text;
  const spec: FormatSpec | undefined = FORMATS[format];
  if (spec === undefined) return { ok: false, error: `Unknown upstream format "${String(format)}".` };
  return spec.parse(text, findings);
}

// ---------------------------------------------------------------------------------------
// Text level: decoding and invisible characters

// An alternation, not a class: U+200D joins characters, so inside a class it reads as a sequence.
const ZERO_WIDTH = /\u200B|\u200C|\u200D|\u2060|\uFEFF/g;
// Non-breaking and other Unicode spaces that JSON.parse and trim() would not all treat as
// white space between tokens.
const ODD_SPACES = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

function decodeUtf8(bytes: Uint8Array, findings: FindingLog): string | { ok: false; error: string } {
  if (bytes.byteLength === 0) return { ok: false, error: 'The body is empty (0 bytes).' };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, error: 'The body starts with a UTF-16 byte-order mark; expected UTF-8 text.' };
  }
  let text: string;
  try {
    // ignoreBOM keeps a BOM in the text so that we can report it below.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, error: 'The body is not valid UTF-8 text (binary or garbage?).' };
  }
  if (text.startsWith('\uFEFF')) {
    findings.note('The body starts with a UTF-8 byte-order mark (U+FEFF); it was ignored.');
    text = text.slice(1);
  }
  if (text.includes('\u0000')) return { ok: false, error: 'The body contains NUL bytes (binary or garbage?).' };
  return text;
}

/** Removes zero-width characters and turns odd spaces into plain ones, reporting both. */
function cleanInvisible(text: string, findings: FindingLog): string {
  const zeroWidth = text.match(ZERO_WIDTH)?.length ?? 0;
  if (zeroWidth > 0) {
    findings.note(`${plural(zeroWidth, 'zero-width character')} (U+200B, U+200C, U+200D, U+2060 or U+FEFF) removed.`);
    text = text.replace(ZERO_WIDTH, '');
  }
  const odd = text.match(ODD_SPACES)?.length ?? 0;
  if (odd > 0) {
    findings.note(`${plural(odd, 'non-breaking or other Unicode space')} (e.g. U+00A0) read as plain spaces.`);
    text = text.replace(ODD_SPACES, ' ');
  }
  return text;
}

function snippet(text: string): string {
  const head = text.trimStart().slice(0, 40).replace(/\s+/g, ' ');
  return JSON.stringify(head);
}

function looksLikeMarkup(text: string): boolean {
  return text.trimStart().startsWith('<');
}

// ---------------------------------------------------------------------------------------
// prefix-json: {"creationTime"?, "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]} (Google's layout)

function parseJsonDocument(text: string, findings: FindingLog): ParseResult {
  if (/^[ \t]*\r?\n/.test(text)) {
    // Perplexity's files start with "\n{": harmless to JSON.parse, but a change of layout.
    findings.note('The body starts with a newline before the JSON.');
  } else if (/^\s/.test(text)) {
    findings.note('The body starts with white space before the JSON.');
  }
  if (looksLikeMarkup(text)) {
    return { ok: false, error: `Expected JSON but the body is HTML or XML (it starts ${snippet(text)}).` };
  }
  const parsed = parseLenientJson(cleanInvisible(text, findings), findings);
  if (!parsed.ok) return parsed;
  return readPrefixDocument(parsed.value, findings);
}

type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

function parseLenientJson(text: string, findings: FindingLog): JsonResult {
  if (text.trim() === '') return { ok: false, error: 'The body holds only white space; expected JSON.' };
  const { text: withoutCommas, removed } = stripTrailingCommas(text);
  try {
    const value: unknown = JSON.parse(withoutCommas);
    if (removed > 0) {
      findings.note(`${plural(removed, 'trailing comma')} before "]" or "}" (not valid JSON) tolerated.`);
    }
    return { ok: true, value };
  } catch (error) {
    const message = (error as Error).message;
    // V8 reports a cut-off body either as "Unexpected end of JSON input" or as an error at
    // the very last position.
    const position = Number(/at position (\d+)/.exec(message)?.[1] ?? NaN);
    const atEnd = Number.isFinite(position) && position >= withoutCommas.trimEnd().length;
    if (atEnd || /end of JSON input|Unterminated string/i.test(message)) {
      return { ok: false, error: `The JSON ends early: the body looks truncated (${message}).` };
    }
    return { ok: false, error: `The body is not valid JSON: ${message} (it starts ${snippet(text)}).` };
  }
}

/**
 * Drops commas that directly precede "]" or "}" outside strings. Such commas are the one
 * JSON syntax error hand-edited operator files make; anything else stays an error.
 */
export function stripTrailingCommas(text: string): { text: string; removed: number } {
  let out = '';
  let removed = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (ch === '\\') {
        out += text[i + 1] ?? '';
        i++;
      } else if (ch === '"') {
        inString = false;
      }
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',') {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      if (text[j] === ']' || text[j] === '}') {
        removed++;
        continue;
      }
    }
    out += ch;
  }
  return { text: out, removed };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ENTRY_KEYS = ['ipv4Prefix', 'ipv6Prefix'] as const;

/** Keys named when a document has no "prefixes"; the rest are counted. */
const SHOWN_KEYS = 5;

/**
 * The longest creationTime taken as one. Real ones are at most 32 characters
 * ("2026-04-30T00:00:00.000000+00:00"); it is published as provenance, so a long string
 * there is not a date but something we would otherwise repeat whole.
 */
const MAX_CREATION_TIME_CHARS = 64;

function readPrefixDocument(doc: unknown, findings: FindingLog): ParseResult {
  if (Array.isArray(doc)) {
    return { ok: false, error: 'The JSON is an array; expected an object with a "prefixes" array.' };
  }
  if (!isRecord(doc)) {
    return { ok: false, error: `The JSON is ${doc === null ? 'null' : `a ${typeof doc}`}; expected an object with a "prefixes" array.` };
  }
  if (!('prefixes' in doc)) {
    const keys = Object.keys(doc);
    const shown = keys
      .slice(0, SHOWN_KEYS)
      .map((k) => quote(k, LIST_ITEM_LIMIT))
      .join(', ');
    const list = keys.length === 0 ? 'none' : keys.length > SHOWN_KEYS ? `${shown} and ${keys.length - SHOWN_KEYS} more` : shown;
    return { ok: false, error: `The JSON object has no "prefixes" key (its keys: ${list}).` };
  }
  const entries = doc.prefixes;
  if (!Array.isArray(entries)) {
    return { ok: false, error: `"prefixes" is ${entries === null ? 'null' : `a ${typeof entries}`}; expected an array.` };
  }

  let creationTime: string | null = null;
  if (!('creationTime' in doc)) {
    findings.note('The document has no "creationTime".');
  } else if (typeof doc.creationTime === 'string' && doc.creationTime.trim() !== '' && doc.creationTime.trim().length <= MAX_CREATION_TIME_CHARS) {
    creationTime = doc.creationTime.trim();
  } else if (typeof doc.creationTime === 'string' && doc.creationTime.trim() !== '') {
    findings.note(
      `"creationTime" is ${doc.creationTime.length} characters long, too long for a date string; ignored (it starts ${quote(doc.creationTime, 40)}).`,
    );
  } else {
    findings.note(`"creationTime" is ${clip(JSON.stringify(doc.creationTime) ?? String(doc.creationTime))}, not a date string; ignored.`);
  }

  const prefixes: string[] = [];
  entries.forEach((entry, index) => {
    const at = `#${index}`;
    if (typeof entry === 'string') {
      findings.group(
        'bare-string',
        entry,
        (n, ex) => `${plural(n, 'entry is a bare string', 'entries are bare strings')}, not {"ipv4Prefix"|"ipv6Prefix": …} objects; read as prefixes: ${ex}.`,
      );
      pushValue(entry, prefixes, findings);
      return;
    }
    if (!isRecord(entry)) {
      // Corruption rather than a layout change: passed on as text so that normalise
      // rejects it as an invalid prefix and the list is not accepted.
      findings.group(
        'not-object',
        `${at} ${JSON.stringify(entry)}`,
        (n, ex) => `${plural(n, 'entry is', 'entries are')} neither an object nor a string: ${ex}.`,
        false,
      );
      prefixes.push(JSON.stringify(entry) ?? String(entry));
      return;
    }
    const present = ENTRY_KEYS.filter((key) => key in entry);
    if (present.length === 0) {
      findings.group(
        'no-key',
        `${at} ${JSON.stringify(entry)}`,
        (n, ex) => `${plural(n, 'entry has', 'entries have')} neither "ipv4Prefix" nor "ipv6Prefix" and ${n === 1 ? 'was' : 'were'} skipped: ${ex}.`,
        false,
      );
      return;
    }
    const extra = Object.keys(entry).filter((key) => !(ENTRY_KEYS as readonly string[]).includes(key));
    for (const key of extra) {
      findings.group(`extra-key:${key}`, at, (n, ex) => `${plural(n, 'entry has', 'entries have')} an extra key ${quote(key)}, ignored (${ex}).`, false);
    }
    if (present.length === 2) {
      findings.group(
        'both-keys',
        `${at} ${JSON.stringify(entry)}`,
        (n, ex) => `${plural(n, 'entry has', 'entries have')} both "ipv4Prefix" and "ipv6Prefix"; both values were read: ${ex}.`,
        false,
      );
    }
    for (const key of present) {
      const value = entry[key];
      if (typeof value !== 'string') {
        findings.group(
          `non-string:${key}`,
          `${at} ${JSON.stringify(value)}`,
          (n, ex) => `${plural(n, 'entry has', 'entries have')} a ${JSON.stringify(key)} that is not a string: ${ex}.`,
          false,
        );
        prefixes.push(JSON.stringify(value) ?? String(value));
        continue;
      }
      const v6Looking = value.includes(':');
      if (key === 'ipv4Prefix' && v6Looking) {
        findings.group('v6-under-v4', value, (n, ex) => `${plural(n, 'IPv6 value is', 'IPv6 values are')} listed under "ipv4Prefix": ${ex}.`);
      } else if (key === 'ipv6Prefix' && !v6Looking && value.includes('.')) {
        findings.group('v4-under-v6', value, (n, ex) => `${plural(n, 'IPv4 value is', 'IPv4 values are')} listed under "ipv6Prefix": ${ex}.`);
      }
      pushValue(value, prefixes, findings);
    }
  });
  return { ok: true, prefixes, creationTime, findings: findings.list() };
}

function pushValue(value: string, prefixes: string[], findings: FindingLog): void {
  const trimmed = value.trim();
  if (trimmed !== value) {
    findings.group('padded', value, (n, ex) => `${plural(n, 'value has', 'values have')} surrounding white space, trimmed: ${ex}.`);
  }
  prefixes.push(trimmed);
}

// ---------------------------------------------------------------------------------------
// prefix-json-html: the same JSON inside an HTML page's <pre>/<code> block (Amazon)

const BLOCK = /<(pre|code)\b[^>]*>([\s\S]*?)<\/\1\s*>/gi;

function parseJsonInHtml(text: string, findings: FindingLog): ParseResult {
  if (/^\s*[{[]/.test(text)) {
    findings.note('Expected an HTML page but the body is bare JSON; it was read as JSON.');
    return parseJsonDocument(text.trimStart(), findings);
  }
  if (!looksLikeMarkup(text)) {
    return { ok: false, error: `Expected an HTML page holding the prefix JSON, but the body is neither HTML nor JSON (it starts ${snippet(text)}).` };
  }
  const blocks = [...text.matchAll(BLOCK)].map((m) => decodeEntities(stripTags(m[2] ?? '')));
  if (blocks.length === 0) {
    return { ok: false, error: 'The HTML page has no <pre> or <code> block, so it holds no prefix JSON.' };
  }
  const candidates = blocks.filter((block) => block.includes('prefixes'));
  if (candidates.length === 0) {
    return { ok: false, error: `The HTML page has ${plural(blocks.length, '<pre>/<code> block')} but none holds a "prefixes" list.` };
  }
  // Each candidate is parsed with its own log, so a failed candidate's notes do not leak.
  const results = candidates.map((block) => {
    const log = new FindingLog();
    const json = parseLenientJson(cleanInvisible(block.trim(), log), log);
    return { json, log };
  });
  const good = results.filter((r) => r.json.ok && isRecord(r.json.value) && 'prefixes' in r.json.value);
  const first = good[0];
  if (!first) {
    const reason = results[0]?.json;
    const detail = reason && !reason.ok ? reason.error : 'it is not an object with a "prefixes" array.';
    return { ok: false, error: `The JSON in the HTML page's <pre>/<code> block could not be read. ${detail}` };
  }
  for (const message of first.log.list()) findings.note(message);
  if (good.length > 1) {
    findings.note(`The HTML page has ${good.length} blocks holding prefix JSON; only the first was read.`);
  }
  return readPrefixDocument((first.json as { ok: true; value: unknown }).value, findings);
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, '');
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00A0',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

// ---------------------------------------------------------------------------------------
// text: one prefix per line, "#" starts a comment

function parseText(text: string, findings: FindingLog): ParseResult {
  if (looksLikeMarkup(text)) {
    return { ok: false, error: `Expected a plain-text prefix list but the body is HTML or XML (it starts ${snippet(text)}).` };
  }
  if (/^\s*[{[]/.test(text)) {
    return { ok: false, error: `Expected a plain-text prefix list but the body looks like JSON (it starts ${snippet(text)}).` };
  }
  const prefixes = contentLines(cleanInvisible(text, findings));
  return { ok: true, prefixes, creationTime: null, findings: findings.list() };
}

/** Lines with comments and surrounding white space removed, blank lines dropped. */
function contentLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    const hash = line.indexOf('#');
    const content = (hash === -1 ? line : line.slice(0, hash)).trim();
    if (content !== '') lines.push(content);
  }
  return lines;
}

// ---------------------------------------------------------------------------------------
// csv: the first column is a prefix; an optional header row; "#" comment lines

const ADDRESS_LIKE = /^[0-9a-fA-F:.]+(\/\d+)?$/;

function parseCsv(text: string, findings: FindingLog): ParseResult {
  if (looksLikeMarkup(text)) {
    return { ok: false, error: `Expected a CSV prefix list but the body is HTML or XML (it starts ${snippet(text)}).` };
  }
  const cleaned = cleanInvisible(text, findings);
  const prefixes: string[] = [];
  let first = true;
  for (const line of cleaned.split(/\r\n|\n|\r/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const cell = firstCell(line).trim();
    if (first) {
      first = false;
      // A header names its columns; no address-like first cell is a header.
      if (!ADDRESS_LIKE.test(cell)) {
        findings.note(`The first row was read as a header: ${quote(line.trim())}.`);
        continue;
      }
    }
    prefixes.push(cell);
  }
  return { ok: true, prefixes, creationTime: null, findings: findings.list() };
}

function firstCell(line: string): string {
  const start = line.trimStart();
  if (!start.startsWith('"')) {
    const comma = start.indexOf(',');
    return comma === -1 ? start : start.slice(0, comma);
  }
  // RFC 4180 quoting: "" inside a quoted field is one quote.
  let out = '';
  for (let i = 1; i < start.length; i++) {
    const ch = start[i];
    if (ch === '"') {
      if (start[i + 1] === '"') {
        out += '"';
        i++;
        continue;
      }
      return out;
    }
    out += ch;
  }
  return out;
}
