// A robots.txt that arrives percent-encoded as a whole (`User-agent%3A%20*%0ADisallow%3A%20%2F`):
// what a client sends when it URL-encodes the file once more than the transport needs, or
// passes an already encoded query value on to an MCP tool. Read as it is, it is one line that
// is no directive, so every crawler would be "allowed" by a file that blocks them. Such a file
// is refused with the accepted form rather than decoded: the service does not guess which of
// the client's layers went wrong (docs/API.md §4.5). Pure.

/** A line of a robots.txt: blank, a comment, or a `name: value` line (RFC 9309 2.2, with the other records parsers accept). */
const LINE = /^\s*(?:#.*|[A-Za-z][A-Za-z0-9_-]*\s*:.*)?$/;
const DIRECTIVE = /^\s*(?:user-agent|allow|disallow|sitemap)\s*:/i;

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * When `text` is a whole robots.txt percent-encoded (no line break, an encoded one, and every
 * decoded line a robots.txt line with at least one directive): how many lines it decodes to and
 * the first directive. Else null: a one-line file that merely holds `%0A` in a path stays a file.
 */
export function encodedWhole(text: string): { lines: number; first: string } | null {
  if (/[\r\n]/.test(text) || !/%0A/i.test(text)) return null;
  // A form's encoding writes spaces as `+` (and a literal `+` as %2B); encodeURIComponent writes %20.
  const plus = decoded(text.replace(/\+/g, ' '));
  for (const candidate of /%20/i.test(text) ? [decoded(text), plus] : [plus, decoded(text)]) {
    if (candidate === null) continue;
    const lines = candidate.split(/\r?\n/);
    if (!lines.every((line) => LINE.test(line))) continue;
    const first = lines.find((line) => DIRECTIVE.test(line));
    if (first !== undefined) return { lines: lines.filter((line) => line.trim() !== '').length, first: first.trim().slice(0, 80) };
  }
  return null;
}

/** The refusal of a percent-encoded robots.txt, naming what was seen; null for any other text. */
export function encodedRobotsProblem(text: string): string | null {
  const found = encodedWhole(text);
  if (found === null) return null;
  return `robots_txt is percent-encoded as a whole: it has no line break, holds %0A, and decodes to ${found.lines} robots.txt lines (the first directive: "${found.first}"). It is refused rather than read as one line that names no crawler. Send the file's own text, with real line breaks: in JSON (MCP, A2A) a plain string, over HTTP a POST body (curl --data-binary @robots.txt) or a query value encoded once.`;
}
