// The dotted IPv4 tail an IPv6 text form may end with (RFC 4291 section 2.2, form 3:
// ::ffff:192.0.2.1), read as strictly as a plain IPv4 address and rewritten as the two hex
// groups it stands for, so that every spelling of one address reaches ipaddr.js as the same
// hex text. ipaddr.js alone reads "::192.0.2.1" as the mapped ::ffff:192.0.2.1 (a different
// address from ::c000:201, which it reads correctly), and takes octal-looking or hex octets
// in the tail ("::ffff:010.1.1.1", "::ffff:0x42.1.1.1") that a plain IPv4 address may not have.

type TailProblem = 'ipv4-leading-zero' | 'invalid-ipv6';

type HexTail = { ok: true; text: string } | { ok: false; code: TailProblem; tail: string };

const DECIMAL_OCTET = /^(0|[1-9][0-9]{0,2})$/;

/** `text` with a dotted IPv4 tail replaced by its two hex groups; text without one comes back as it is. */
export function hexTail(text: string): HexTail {
  if (!text.includes('.')) return { ok: true, text };
  const colon = text.lastIndexOf(':');
  const tail = text.slice(colon + 1);
  const parts = tail.split('.');
  if (colon < 0 || parts.length !== 4) return { ok: false, code: 'invalid-ipv6', tail };
  if (parts.some((p) => /^0[0-9]+$/.test(p))) return { ok: false, code: 'ipv4-leading-zero', tail };
  if (!parts.every((p) => DECIMAL_OCTET.test(p) && Number(p) <= 255)) return { ok: false, code: 'invalid-ipv6', tail };
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  const group = (high: number, low: number) => ((high << 8) | low).toString(16);
  return { ok: true, text: `${text.slice(0, colon + 1)}${group(a, b)}:${group(c, d)}` };
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** The groups of colon-separated hex text, or null when one is not 1 to 4 hex digits. */
function hexGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  for (const part of text.split(':')) {
    if (!HEX_GROUP.test(part)) return null;
    groups.push(Number.parseInt(part, 16));
  }
  return groups;
}

/**
 * The eight 16-bit groups of an IPv6 address in RFC 4291 section 2.2 text form (hex groups of
 * one to four digits, at most one `::` standing for one or more zero groups), with any dotted
 * IPv4 tail already rewritten by hexTail; null for any other text. Read here rather than by
 * ipaddr.js, whose parser took 7 µs an address (ten times an IPv4 address, most of a verify
 * call's reading of its input); ipv6-text.test.ts holds the two to the same answers.
 */
export function ipv6Groups(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = hexGroups(halves[0]!);
  if (head === null) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const tail = hexGroups(halves[1]!);
  if (tail === null) return null;
  const zeros = 8 - head.length - tail.length;
  return zeros < 1 ? null : [...head, ...new Array<number>(zeros).fill(0), ...tail];
}

/** RFC 5952's text for the eight groups: lower-case hex without leading zeros, the first longest run of two or more zero groups as `::`. */
export function rfc5952Text(groups: readonly number[]): string {
  let runStart = -1;
  let runLength = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < groups.length && groups[end] === 0) end++;
    if (end - i > runLength) {
      runStart = i;
      runLength = end - i;
    }
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  return runStart < 0 ? hex.join(':') : `${hex.slice(0, runStart).join(':')}::${hex.slice(runStart + runLength).join(':')}`;
}
