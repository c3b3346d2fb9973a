// Text from outside (an upstream's body, a client's request) repeated in an error is quoted
// through here, so no message echoes a whole attack or breaks a one-line format.
//
// Upstream text is hostile input that we publish: whatever an operator's server sends (a
// Location header, a Content-Type, a JSON key, a value that is not a prefix) may be repeated
// in an error or a finding, and those land in status.json, changes.json, both feeds and the
// comments of all.txt. So every piece of upstream text is repeated through `quote`: cut to
// QUOTE_LIMIT characters and JSON-quoted, which also escapes line breaks and controls. The
// messages themselves pass through `boundMessage` once more where they leave this folder
// (upstream/accept.ts), so no future message can carry more than MESSAGE_LIMIT characters or a line
// break into a one-line format.

/** Characters of one piece of upstream text that a message repeats. */
const QUOTE_LIMIT = 200;

/** Characters of each quote when a message lists several (five examples, five keys). */
export const LIST_ITEM_LIMIT = 80;

/** Characters of one whole error or finding. A message quotes at most a few pieces. */
const MESSAGE_LIMIT = 1_000;

/** At most this many findings are kept per attempt; the rest are counted. */
const FINDINGS_LIMIT = 20;

/** `text` cut to `limit` characters, never splitting a surrogate pair. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, end);
}

/**
 * The text as a JSON string literal of at most `limit` characters of content; a longer text
 * is cut and says how much was left out, so a reader knows the quote is partial.
 */
export function quote(text: string, limit = QUOTE_LIMIT): string {
  const shown = cut(text, limit);
  const rest = text.length - shown.length;
  return rest > 0 ? `${JSON.stringify(shown)}… (${rest} more characters)` : JSON.stringify(shown);
}

/** Text that is already quoted or JSON (an entry as JSON.stringify wrote it), cut like `quote`. */
export function clip(text: string, limit = QUOTE_LIMIT): string {
  const shown = cut(text, limit);
  const rest = text.length - shown.length;
  return rest > 0 ? `${shown}… (${rest} more characters)` : shown;
}

// C0 and C1 controls, and the Unicode line and paragraph separators: anything a reader of a
// text format could take as the end of a line.
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * One line of at most `limit` characters: line breaks and controls become one space, and a
 * longer message is cut with a note saying so. Applying it twice changes nothing.
 */
export function boundMessage(text: string, limit = MESSAGE_LIMIT): string {
  const line = text.replace(LINE_BREAKING, ' ');
  if (line.length <= limit) return line;
  const note = (rest: number) => `… (message cut: ${rest} more characters)`;
  // The note's length depends on the count it states; a count of as many digits as the
  // whole length is never too short.
  const shown = cut(line, Math.max(0, limit - note(line.length).length));
  return `${shown}${note(line.length - shown.length)}`;
}

/**
 * Each finding bounded, and at most `limit` lines: past the limit, the last line counts the
 * findings left out. Applying it twice changes nothing.
 */
export function boundFindings(findings: readonly string[], limit = FINDINGS_LIMIT): string[] {
  if (findings.length <= limit) return findings.map((f) => boundMessage(f));
  const kept = findings.slice(0, limit - 1).map((f) => boundMessage(f));
  const rest = findings.length - kept.length;
  kept.push(`…and ${rest} more findings not shown.`);
  return kept;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
