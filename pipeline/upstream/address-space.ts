// How much address space a prefix list claims, and whether that is plausible for a crawler
// operator (docs/API.md §2.3, "How much address space a list may claim"). public-space.ts judges
// each prefix alone; a list can pass that check prefix by prefix (every public /8, thousands of
// /19s) and still claim most of the internet, which would make verify-crawler call any address
// a genuine crawler. This judges the list as a whole, per family. Pure.

import type { Family } from '../net/prefix.ts';

export interface SpaceBounds {
  /** The most addresses a list may cover, per family, whatever it covered before. */
  maxAddresses: Record<Family, bigint>;
  /** A list may cover at most this many times what its last good copy covered... */
  maxGrowthFactor: number;
  /** ...or that plus this many addresses, whichever is larger (a small list that adds one ordinary range). */
  growthFloor: Record<Family, bigint>;
}

/**
 * Chosen from the real lists (test/fixtures/reference/upstream/, both versions of each, and the
 * re-serialised copies of the rest in the project's reference set), as docs/API.md §2.3 sets
 * out. The largest covers 70,016 IPv4 addresses (Google user-triggered agents; the largest
 * byte-exact copy, Google's user-triggered fetchers, 16,896) and 2^73.04 IPv6 addresses (Google's
 * user-triggered fetchers). The bounds are 2^22 IPv4 addresses (a /10's worth, 60 times the
 * largest) and 2^84 IPv6 addresses (a /44's worth, about 2,000 times the largest). The largest
 * real growth between two versions is 2.03 times (DuckDuckBot, 240 → 486 addresses); a list may
 * grow 16 times, or up to a /16's worth of IPv4 and a /52's worth of IPv6 when that is more.
 */
export const DEFAULT_SPACE_BOUNDS: SpaceBounds = {
  maxAddresses: { ipv4: 2n ** 22n, ipv6: 2n ** 84n },
  maxGrowthFactor: 16,
  growthFloor: { ipv4: 2n ** 16n, ipv6: 2n ** 76n },
};

const BITS: Record<Family, number> = { ipv4: 32, ipv6: 128 };

/**
 * The addresses a family's prefixes cover, summed prefix by prefix (canonical CIDR text as
 * normalise.ts writes it). Overlapping prefixes count twice, which can only make a list look
 * larger, never smaller.
 */
export function addressCount(prefixes: readonly string[], family: Family): bigint {
  let total = 0n;
  for (const prefix of prefixes) {
    const slash = prefix.lastIndexOf('/');
    const length = slash === -1 ? BITS[family] : Number(prefix.slice(slash + 1));
    total += 2n ** BigInt(BITS[family] - length);
  }
  return total;
}

export interface ListSpace {
  ipv4: readonly string[];
  ipv6: readonly string[];
}

/**
 * Why a list claims more address space than a crawler operator plausibly has, or null when it
 * does not. `lastGood` is the copy served now; null for a first list, which has only the
 * absolute bound.
 */
export function spaceProblem(next: ListSpace, lastGood: ListSpace | null, bounds: SpaceBounds = DEFAULT_SPACE_BOUNDS): string | null {
  for (const family of ['ipv4', 'ipv6'] as const) {
    const name = family === 'ipv4' ? 'IPv4' : 'IPv6';
    const now = addressCount(next[family], family);
    const most = bounds.maxAddresses[family];
    if (now > most) {
      return `The list covers ${describe(now, family)} ${name} addresses, more than the ${describe(most, family)} a crawler operator's list may cover (docs/API.md §2.3).`;
    }
    if (lastGood === null) continue;
    const before = addressCount(lastGood[family], family);
    const allowed = maxBig(before * BigInt(bounds.maxGrowthFactor), before + bounds.growthFloor[family]);
    if (now > allowed) {
      return `The ${name} addresses the list covers grew from ${describe(before, family)} to ${describe(now, family)}, more than ${bounds.maxGrowthFactor} times the last good copy at once (docs/API.md §2.3).`;
    }
  }
  return null;
}

function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** A count people can read: grouped digits for IPv4, a power of two for IPv6 (and for any count past 2^32). */
export function describe(count: bigint, family: Family): string {
  if (family === 'ipv4' && count <= 2n ** 32n) return groupDigits(count);
  if (count === 0n) return '0';
  return `2^${log2(count)
    .toFixed(2)
    .replace(/\.?0+$/, '')}`;
}

function groupDigits(count: bigint): string {
  return count.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function log2(count: bigint): number {
  const bits = count.toString(2).length;
  // The top 53 bits carry all the precision a double has.
  const shift = Math.max(0, bits - 53);
  return Math.log2(Number(count >> BigInt(shift))) + shift;
}
