// The salt of the address hash: random, kept only in this process's memory, replaced at every
// UTC midnight and at every start. A stored hash can then be matched only against addresses
// seen the same day by the same process, and never reversed by hashing all 2^32 IPv4 addresses
// offline, since the salt is never written down.

export interface AddressHasher {
  /** The hash of `address` under the salt of the day `at` falls in. */
  hash(address: string, at: number): string;
}

export function dailySaltedHasher(random: () => Uint8Array, digest: (salt: Uint8Array, text: string) => string): AddressHasher {
  let day = '';
  let salt: Uint8Array = new Uint8Array(0);
  return {
    hash(address, at) {
      const today = new Date(at).toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        salt = random();
      }
      return digest(salt, address);
    },
  };
}
