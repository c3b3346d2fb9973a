// The name of the block an address is in (unicast, private, loopback, ...), as ipaddr.js's
// range() gives it, without walking its whole table for an ordinary address. range() tries
// every special range in turn; for a public address, which is nearly every address a crawler
// check meets, that was a tenth of a 500-address call's lookups. Most first bytes (IPv4) and
// first 16-bit groups (IPv6) start no special range at all, so an address that starts with one
// of those is in the table's default block, and range() is asked only about the rest.
//
// The leading values are read from ipaddr.js's own table when this module loads, so the answer
// is range()'s whatever version is installed; special-ranges.test.ts compares the two. If the
// table is not where it is expected, every address is asked of range().

import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The values the first `width` bits of an address take in any range of `table` (ipaddr.js's
 * SpecialRanges: a name to one [address, prefix length] or a list of them); null when the
 * table does not have that shape.
 */
function leadingValues(table: unknown, width: 8 | 16): ReadonlySet<number> | null {
  if (table === null || typeof table !== 'object') return null;
  const values = new Set<number>();
  for (const entry of Object.values(table)) {
    const subnets: unknown[] = Array.isArray(entry) && Array.isArray(entry[0]) ? entry : [entry];
    for (const subnet of subnets) {
      if (!Array.isArray(subnet) || subnet.length !== 2 || typeof subnet[1] !== 'number') return null;
      const [address, length] = subnet as [unknown, number];
      if (!(address instanceof ipaddr.IPv4 || address instanceof ipaddr.IPv6)) return null;
      const bytes = address.toByteArray();
      const first = width === 8 ? bytes[0]! : (bytes[0]! << 8) | bytes[1]!;
      // The bits of the leading value the range leaves free: every value they can take is in it.
      const free = Math.max(0, width - length);
      const low = (first >> free) << free;
      for (let value = low; value < low + 2 ** free; value++) values.add(value);
    }
  }
  return values;
}

interface Family {
  special: ReadonlySet<number> | null;
  /** range() of an address in no special range: the table's default name. */
  outside: string | null;
}

function family(table: unknown, width: 8 | 16, make: (leading: number) => Address): Family {
  const special = leadingValues(table, width);
  if (special === null) return { special: null, outside: null };
  let leading = 0;
  while (special.has(leading) && leading < 2 ** width) leading++;
  if (leading === 2 ** width) return { special: null, outside: null };
  return { special, outside: make(leading).range() };
}

const IPV4 = family((ipaddr.IPv4.prototype as { SpecialRanges?: unknown }).SpecialRanges, 8, (first) => new ipaddr.IPv4([first, 0, 0, 0]));
const IPV6 = family((ipaddr.IPv6.prototype as { SpecialRanges?: unknown }).SpecialRanges, 16, (first) => new ipaddr.IPv6([first, 0, 0, 0, 0, 0, 0, 0]));

/** ipaddr.js's range() of an IPv4 address given as its four bytes. */
export function ipv4Range(bytes: readonly number[]): string {
  if (IPV4.special !== null && IPV4.outside !== null && !IPV4.special.has(bytes[0]!)) return IPV4.outside;
  return new ipaddr.IPv4([...bytes]).range();
}

/** ipaddr.js's range() of an IPv6 address given as its eight 16-bit groups. */
export function ipv6Range(groups: readonly number[]): string {
  if (IPV6.special !== null && IPV6.outside !== null && !IPV6.special.has(groups[0]!)) return IPV6.outside;
  return new ipaddr.IPv6([...groups]).range();
}
