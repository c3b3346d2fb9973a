// Which addresses can belong to a crawler on the public internet. Two uses:
//  - a published list must hold only such prefixes, or verify-crawler would call a private,
//    loopback or multicast address (or, given 0.0.0.0/0, every address) a genuine crawler;
//  - a redirect from an upstream may be followed only to such an address, or an upstream
//    could make the refresh read a service on our own network and publish what it says.
// Pure; works on the canonical text normalise.ts produces and on resolved addresses.

import ipaddr from 'ipaddr.js';
import { parsePrefix } from '../net/prefix.ts';

export interface PrefixBounds {
  /** The shortest (widest) prefix length accepted per family. */
  ipv4: number;
  ipv6: number;
}

/**
 * No one organisation holds more than an IPv4 /8 (Apple's 17.0.0.0/8 is one of the legacy
 * /8s) or an IPv6 /19 (2003::/19, the largest single allocation), so a wider prefix cannot
 * be one operator's crawler addresses: it is a placeholder (0.0.0.0/0, ::/0) or a typo. The
 * widest prefixes in every real list we hold (state/mirror, and the 38 operator files of the
 * reference data) are an IPv4 /16 (Google user-triggered agents) and an IPv6 /56 (Common
 * Crawl), far inside both bounds.
 */
export const DEFAULT_PREFIX_BOUNDS: PrefixBounds = { ipv4: 8, ipv6: 19 };

interface Block {
  /** Network address and length, as in the IANA special-purpose registries. */
  cidr: string;
  /** ipaddr.js's range name where it has one, so both say the same thing. */
  name: string;
}

/**
 * IPv4 special-purpose blocks (IANA registry, RFC 6890 and later): everything ipaddr.js's
 * range() calls other than 'unicast', so that a prefix wide enough to straddle one (a /8
 * around 10.0.0.0/8's neighbours, 192.0.0.0/8 around 192.168.0.0/16) is caught too, which a
 * range() of the network address alone would miss.
 */
const IPV4_SPECIAL: readonly Block[] = [
  { cidr: '0.0.0.0/8', name: 'unspecified' },
  { cidr: '10.0.0.0/8', name: 'private' },
  { cidr: '100.64.0.0/10', name: 'carrierGradeNat' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'linkLocal' },
  { cidr: '172.16.0.0/12', name: 'private' },
  { cidr: '192.0.0.0/24', name: 'reserved' },
  { cidr: '192.0.2.0/24', name: 'reserved (documentation)' },
  { cidr: '192.31.196.0/24', name: 'as112' },
  { cidr: '192.52.193.0/24', name: 'amt' },
  { cidr: '192.88.99.0/24', name: 'reserved (6to4 relay)' },
  { cidr: '192.168.0.0/16', name: 'private' },
  { cidr: '192.175.48.0/24', name: 'as112' },
  { cidr: '198.18.0.0/15', name: 'reserved (benchmarking)' },
  { cidr: '198.51.100.0/24', name: 'reserved (documentation)' },
  { cidr: '203.0.113.0/24', name: 'reserved (documentation)' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'reserved' },
];

/**
 * IANA assigns global unicast IPv6 only inside 2000::/3 (RFC 4291 2.4); everything outside
 * it (loopback, unspecified, IPv4-mapped and -translated, NAT64, unique-local, link-local,
 * multicast, discard) is refused by that one rule. Inside it, these blocks are not a
 * crawler's own addresses either: 6to4 and Teredo embed another IPv4 address (which could be
 * a private one), the rest are protocol assignments and documentation space.
 */
const IPV6_GLOBAL_UNICAST = '2000::/3';
const IPV6_SPECIAL: readonly Block[] = [
  { cidr: '2001::/23', name: 'reserved (IETF protocol assignments, Teredo among them)' },
  { cidr: '2001:db8::/32', name: 'reserved (documentation)' },
  { cidr: '2002::/16', name: '6to4' },
  { cidr: '2620:4f:8000::/48', name: 'as112v6' },
  { cidr: '3fff::/20', name: 'reserved (documentation)' },
];

interface Parsed {
  bytes: number[];
  length: number;
}

const parseBlock = (cidr: string): Parsed => {
  const [address, length] = ipaddr.parseCIDR(cidr);
  return { bytes: address.toByteArray(), length };
};
const V4_BLOCKS = IPV4_SPECIAL.map((b) => ({ ...b, parsed: parseBlock(b.cidr) }));
const V6_BLOCKS = IPV6_SPECIAL.map((b) => ({ ...b, parsed: parseBlock(b.cidr) }));
const V6_UNICAST = parseBlock(IPV6_GLOBAL_UNICAST);

/**
 * Why a canonical prefix (as normalise.ts writes it) cannot be a crawler's published range,
 * or null when it can. The reason names the block it falls in or overlaps.
 */
export function prefixProblem(cidr: string, bounds: PrefixBounds = DEFAULT_PREFIX_BOUNDS): string | null {
  const read = parsePrefix(cidr);
  if (!read.ok) return 'not a prefix';
  const prefix = read.prefix;
  const widest = prefix.family === 'ipv4' ? bounds.ipv4 : bounds.ipv6;
  if (prefix.length < widest) return `wider than /${widest}, the most any one organisation holds`;
  return spaceProblem(prefix, prefix.family, ipaddr.fromByteArray(prefix.bytes).range());
}

/**
 * Why one address is not a public unicast address, or null when it is. An IPv4-mapped IPv6
 * address is judged as the IPv4 address it carries (a socket connects there).
 */
export function addressProblem(text: string): string | null {
  if (!ipaddr.isValid(text)) return 'not an IP address';
  const parsed = ipaddr.parse(text);
  const address = parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  const bytes = address.toByteArray();
  return spaceProblem({ bytes, length: bytes.length * 8 }, address.kind(), address.range());
}

function spaceProblem(prefix: Parsed, family: 'ipv4' | 'ipv6', range: string): string | null {
  if (family === 'ipv6' && !overlaps(prefix, V6_UNICAST)) return `outside global unicast space ${IPV6_GLOBAL_UNICAST} (${range})`;
  for (const block of family === 'ipv4' ? V4_BLOCKS : V6_BLOCKS) {
    if (overlaps(prefix, block.parsed)) return `in ${block.name} space ${block.cidr}`;
  }
  // Anything ipaddr.js knows of that the tables above do not (a later version's addition).
  if (range !== 'unicast') return `in ${range} space`;
  return null;
}

/** Whether two prefixes share an address: they agree on the bits of the shorter one. */
function overlaps(a: Parsed, b: Parsed): boolean {
  if (a.bytes.length !== b.bytes.length) return false;
  const bits = Math.min(a.length, b.length);
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (a.bytes[i] !== b.bytes[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((a.bytes[whole] ?? 0) & mask) === ((b.bytes[whole] ?? 0) & mask);
}
