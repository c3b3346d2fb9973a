// A published prefix as the index holds it. The mirror already serves canonical prefixes
// (upstream/normalise.ts); this reads them again defensively, because the index is also built
// from hand-made fixtures and must never fail on one bad string.

import ipaddr from 'ipaddr.js';
import type { Family } from './address.ts';

export interface Prefix {
  family: Family;
  /** Network address with host bits cleared, 4 or 16 bytes. */
  bytes: number[];
  length: number;
  /** Canonical CIDR text. */
  text: string;
}

export function parsePrefix(raw: string): { ok: true; prefix: Prefix } | { ok: false; reason: string } {
  const text = typeof raw === 'string' ? raw.trim() : '';
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const lengthText = slash < 0 ? null : text.slice(slash + 1);
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (addressText.includes(':')) {
    if (addressText.includes('%') || !ipaddr.IPv6.isValid(addressText)) return { ok: false, reason: 'not an IPv6 prefix' };
    address = ipaddr.IPv6.parse(addressText);
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
  const bytes = address.toByteArray().map((byte, i) => {
    const keep = Math.max(0, Math.min(8, length - i * 8));
    return keep === 0 ? 0 : byte & ((0xff << (8 - keep)) & 0xff);
  });
  const network = ipaddr.fromByteArray(bytes);
  const networkText = family === 'ipv6' ? (network as ipaddr.IPv6).toRFC5952String() : network.toString();
  return { ok: true, prefix: { family, bytes, length, text: `${networkText}/${length}` } };
}

/** Bit `i` (0 = most significant) of a network-order byte array. */
export function bitAt(bytes: readonly number[], i: number): number {
  return (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
}
