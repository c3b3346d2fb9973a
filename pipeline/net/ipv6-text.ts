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
