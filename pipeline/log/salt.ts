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

export function dailySaltedHasher(random: () => Uint8Array, digest: (salt: Uint8Array, text: string) => string): AddressHasher {
  let dayEnds = -Infinity;
  let salt: Uint8Array = new Uint8Array(0);
  // Most requests come from few addresses: each is hashed once per day (bounded, so that a
  // flood of new addresses costs memory no more than this).
  const known = new Map<string, string>();
  return {
    hash(address, at) {
      if (at >= dayEnds || at < dayEnds - DAY) {
        dayEnds = (Math.floor(at / DAY) + 1) * DAY;
        salt = random();
        known.clear();
      }
      let hashed = known.get(address);
      if (hashed === undefined) {
        hashed = digest(salt, address);
        if (known.size >= REMEMBERED) known.clear();
        known.set(address, hashed);
      }
      return hashed;
    },
  };
}
