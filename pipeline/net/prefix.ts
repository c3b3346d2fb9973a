// A published prefix as the index holds it. The mirror already serves canonical prefixes
// (upstream/normalise.ts); this reads them again defensively, because the index is also built
// from hand-made fixtures and must never fail on one bad string. The refresh judges every
// prefix of a list with it too (upstream/public-space.ts), so lists of hundreds of thousands
// of prefixes pass through here.

import ipaddr from 'ipaddr.js';
import { hexTail, ipv6Groups } from './ipv6-text.ts';

export type Family = 'ipv4' | 'ipv6';

export interface Prefix {
  family: Family;
  /** Network address with host bits cleared, 4 or 16 bytes. */
  bytes: number[];
  length: number;
  /** Canonical CIDR text. */
  text: string;
}

const DOTTED_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/**
 * Canonical dotted IPv4 (nearly every published prefix) read directly: ipaddr.js's general
 * parser costs about 10 µs a prefix, five seconds for a list of 500,000. Anything else, or a
 * dotted prefix with host bits set, takes the general path.
 */
function canonicalIpv4(text: string): Prefix | null {
  const dotted = DOTTED_CIDR.exec(text);
  if (!dotted) return null;
  const bytes = [dotted[1], dotted[2], dotted[3], dotted[4]].map(Number);
  const length = Number(dotted[5]);
  // Leading zeros, out-of-range octets and set host bits are not canonical: the general path decides.
  if (length > 32 || String(length) !== dotted[5] || bytes.some((b, i) => b > 255 || String(b) !== dotted[i + 1])) return null;
  const masked = maskBytes(bytes, length);
  if (masked.some((b, i) => b !== bytes[i])) return null;
  return { family: 'ipv4', bytes, length, text };
}

function maskBytes(bytes: readonly number[], length: number): number[] {
  return bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, length - i * 8));
    return keep === 0 ? 0 : byte & ((0xff << (8 - keep)) & 0xff);
  });
}

export function parsePrefix(raw: string): { ok: true; prefix: Prefix } | { ok: false; reason: string } {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const fast = canonicalIpv4(text);
  if (fast) return { ok: true, prefix: fast };
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const lengthText = slash < 0 ? null : text.slice(slash + 1);
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (addressText.includes(':')) {
    // Read as address.ts reads addresses, so a prefix and the addresses in it agree on what ::a.b.c.d is.
    const hex = hexTail(addressText);
    const groups = hex.ok && !addressText.includes('%') ? ipv6Groups(hex.text) : null;
    if (groups === null) return { ok: false, reason: 'not an IPv6 prefix' };
    address = new ipaddr.IPv6(groups);
  } else {
    if (!ipaddr.IPv4.isValidFourPartDecimal(addressText)) return { ok: false, reason: 'not an IPv4 prefix' };
    address = ipaddr.IPv4.parse(addressText);
  }
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (lengthText !== null && !/^[0-9]{1,3}$/.test(lengthText)) return { ok: false, reason: 'the prefix length is not a number' };
  let length = lengthText === null ? max : Number(lengthText);
  if (length > max) return { ok: false, reason: `the prefix length is over ${max}` };
  // Addresses are looked up as IPv4 when mapped (address.ts), so mapped prefixes must be too.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && length >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    length -= 96;
  }
  const family: Family = address.kind() === 'ipv4' ? 'ipv4' : 'ipv6';
  const bytes = maskBytes(address.toByteArray(), length);
  const network = ipaddr.fromByteArray(bytes);
  const networkText = family === 'ipv6' ? (network as ipaddr.IPv6).toRFC5952String() : network.toString();
  return { ok: true, prefix: { family, bytes, length, text: `${networkText}/${length}` } };
}

/** Bit `i` (0 = most significant) of a network-order byte array. */
export function bitAt(bytes: readonly number[], i: number): number {
  return (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
}
