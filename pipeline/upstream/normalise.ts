// From the strings an operator listed to canonical CIDR prefixes. Pure.
//
// Canonical text: IPv4 dotted decimal, IPv6 RFC 5952 (compressed, lower case), always with
// a length. Everything changed on the way is said in `findings`: we publish a mirror, so a
// reader must be able to tell our list from the operator's.

import ipaddr from 'ipaddr.js';
import { FindingLog, plural } from './findings.ts';

export interface NormaliseResult {
  /** Sorted numerically by network address, then by length (shorter first). */
  ipv4: string[];
  ipv6: string[];
  /** Raw entries that are not a prefix or an address; the reason is in `findings`. */
  invalid: string[];
  findings: string[];
}

interface Prefix {
  family: 4 | 6;
  bytes: number[];
  length: number;
  text: string;
}

export function normalisePrefixes(raw: readonly string[]): NormaliseResult {
  const findings = new FindingLog();
  const invalid: string[] = [];
  const byText = new Map<string, Prefix>();

  for (const entry of raw) {
    const read = readPrefix(entry, findings);
    if (!read.ok) {
      invalid.push(entry);
      findings.group(`invalid:${read.reason}`, entry, (n, ex) => `${plural(n, 'entry is', 'entries are')} not a valid prefix (${read.reason}): ${ex}.`);
      continue;
    }
    if (byText.has(read.prefix.text)) {
      findings.group('duplicate', read.prefix.text, (n, ex) => `${plural(n, 'duplicate', 'duplicates')} removed (after canonicalising): ${ex}.`);
      continue;
    }
    byText.set(read.prefix.text, read.prefix);
  }

  const sorted = [...byText.values()].sort(comparePrefixes);
  reportContained(sorted, findings);
  return {
    ipv4: sorted.filter((p) => p.family === 4).map((p) => p.text),
    ipv6: sorted.filter((p) => p.family === 6).map((p) => p.text),
    invalid,
    findings: findings.list(),
  };
}

type Read = { ok: true; prefix: Prefix } | { ok: false; reason: string };

const LENGTH = /^[0-9]{1,3}$/;

function readPrefix(entry: string, findings: FindingLog): Read {
  const text = entry.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  const parts = text.split('/');
  if (parts.length > 2) return { ok: false, reason: 'more than one "/"' };
  const [addressText = '', lengthText] = parts;
  const isV6 = addressText.includes(':');

  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (isV6) {
    if (addressText.includes('%')) return { ok: false, reason: 'an IPv6 zone index has no place in a published prefix' };
    if (!ipaddr.IPv6.isValid(addressText)) return { ok: false, reason: 'not an IPv6 address' };
    address = ipaddr.IPv6.parse(addressText);
  } else {
    // ipaddr.js also reads "127.1", hex and leading-zero octal octets; operators mean plain
    // dotted decimal, and "010.0.0.0" is ambiguous, so only four decimal parts are accepted.
    if (!ipaddr.IPv4.isValidFourPartDecimal(addressText)) {
      return {
        ok: false,
        reason:
          /^[0-9.]+$/.test(addressText) && addressText.split('.').length === 4 && ipaddr.IPv4.isValid(addressText)
            ? 'octets with leading zeros are ambiguous'
            : 'not an IPv4 address',
      };
    }
    address = ipaddr.IPv4.parse(addressText);
  }

  const max = address.kind() === 'ipv4' ? 32 : 128;
  let length: number;
  if (lengthText === undefined) {
    // Amazon lists single addresses without a length.
    length = max;
    findings.group(
      `bare-${max}`,
      text,
      (n, ex) => `${plural(n, 'entry is a bare address', 'entries are bare addresses')} without a prefix length, read as /${max}: ${ex}.`,
    );
  } else {
    if (!LENGTH.test(lengthText)) return { ok: false, reason: 'the prefix length is not a number' };
    length = Number(lengthText);
    if (length > max) return { ok: false, reason: `the prefix length is over ${max}` };
  }

  // IPv4-mapped IPv6 (::ffff:a.b.c.d) names IPv4 space. A client that verifies an IPv4
  // address would never match it as IPv6, so a mapped prefix that fits in the mapped
  // range is published as the IPv4 prefix it means, and said so.
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && length >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    length -= 96;
    findings.group(
      'mapped',
      `${text} → ${address.toString()}/${length}`,
      (n, ex) => `${plural(n, 'IPv4-mapped IPv6 prefix was', 'IPv4-mapped IPv6 prefixes were')} published as IPv4: ${ex}.`,
    );
  } else if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    findings.group(
      'mapped-wide',
      text,
      (n, ex) =>
        `${plural(n, 'IPv6 prefix covers', 'IPv6 prefixes cover')} more than the IPv4-mapped range and ${n === 1 ? 'was' : 'were'} kept as IPv6: ${ex}.`,
    );
  }

  const bytes = address.toByteArray();
  const network = maskBytes(bytes, length);
  const family: 4 | 6 = address.kind() === 'ipv4' ? 4 : 6;
  const networkText = ipaddr.fromByteArray(network).toString();
  const canonical = `${networkText}/${length}`;
  if (!sameBytes(bytes, network)) {
    findings.group(
      'host-bits',
      `${text} → ${canonical}`,
      (n, ex) => `${plural(n, 'prefix has', 'prefixes have')} host bits set and ${n === 1 ? 'was' : 'were'} masked to the network address: ${ex}.`,
    );
  }
  return { ok: true, prefix: { family, bytes: network, length, text: canonical } };
}

function maskBytes(bytes: readonly number[], length: number): number[] {
  return bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, length - i * 8));
    return byte & (keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff);
  });
}

function sameBytes(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** IPv4 before IPv6, then by network address as a number, then shorter (wider) first. */
function comparePrefixes(a: Prefix, b: Prefix): number {
  if (a.family !== b.family) return a.family - b.family;
  for (let i = 0; i < a.bytes.length; i++) {
    const d = (a.bytes[i] ?? 0) - (b.bytes[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function contains(outer: Prefix, inner: Prefix): boolean {
  return outer.family === inner.family && outer.length <= inner.length && sameBytes(maskBytes(inner.bytes, outer.length), outer.bytes);
}

/**
 * Reports prefixes that lie inside another listed prefix. They are kept: the operator
 * listed them, and a mirror that merged them would no longer show what was published.
 * In sorted order a container comes before everything it contains, so one pass with a
 * stack of open containers finds them all.
 */
function reportContained(sorted: readonly Prefix[], findings: FindingLog): void {
  const open: Prefix[] = [];
  for (const prefix of sorted) {
    while (open.length > 0 && !contains(open[open.length - 1] as Prefix, prefix)) open.pop();
    const outer = open[open.length - 1];
    if (outer) {
      findings.group(
        'contained',
        `${prefix.text} in ${outer.text}`,
        (n, ex) =>
          `${plural(n, 'prefix lies', 'prefixes lie')} inside another listed prefix and ${n === 1 ? 'is' : 'are'} kept as the operator listed ${n === 1 ? 'it' : 'them'}: ${ex}.`,
      );
    }
    open.push(prefix);
  }
}
