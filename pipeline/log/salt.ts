// The salt of the address hash: random, kept only in this process's memory, replaced at every
// UTC midnight and at every start. A stored hash can then be matched only against addresses
// seen the same day by the same process, and never reversed by hashing all 2^32 IPv4 addresses
// offline, since the salt is never written down.

const DAY = 86_400_000;
const REMEMBERED = 10_000;

export interface AddressHasher {
  /** The hash of `address` under the salt of the day `at` falls in. */
  hash(address: string, at: number): string;
}

/** One day's salt and the addresses already hashed with it. */
interface DaySalt {
  day: number;
  salt: Uint8Array;
  known: Map<string, string>;
}

export function dailySaltedHasher(random: () => Uint8Array, digest: (salt: Uint8Array, text: string) => string): AddressHasher {
  const saltFor = (day: number): DaySalt => ({ day, salt: random(), known: new Map() });
  let today: DaySalt | null = null;
  // Kept for a request that arrived just before midnight and is booked just after: it is hashed
  // with its own day's salt, and today's salt stays, so today's earlier hashes still match.
  let dayBefore: DaySalt | null = null;
  const saltOf = (day: number): DaySalt => {
    if (today === null || day > today.day) {
      dayBefore = today !== null && today.day === day - 1 ? today : null;
      today = saltFor(day);
      return today;
    }
    if (day === today.day) return today;
    if (day === today.day - 1) return (dayBefore ??= saltFor(day));
    // Older still (no request takes a day): a salt of its own, which nothing else will share.
    return saltFor(day);
  };
  return {
    hash(address, at) {
      const salted = saltOf(Math.floor(at / DAY));
      let hashed = salted.known.get(address);
      if (hashed === undefined) {
        hashed = digest(salted.salt, address);
        // Most requests come from few addresses: each is hashed once per day (bounded, so that a
        // flood of new addresses costs memory no more than this).
        if (salted.known.size >= REMEMBERED) salted.known.clear();
        salted.known.set(address, hashed);
      }
      return hashed;
    },
  };
}
