// Which connections the server keeps when it is full. The bounds are promises in the README
// ("Limits, timeouts and what a hostile client gets") and docs/API.md §8: a client from an
// address that holds fewer connections than some other address is always let in.
//
// Refusing at a fixed total cap (node:http's maxConnections) lets any set of addresses that
// fills it lock every other client out for as long as it keeps its connections alive, which a
// head dribbled one line at a time does cheaply. So at the cap, the newcomer takes the place of
// the oldest idle connection of the address that holds the most, and only when that address
// holds more than the newcomer's: whoever floods is the one who waits, and no address can be
// pushed below another's share. Past the per-address cap an address makes room from its own
// idle connections. A connection with a request in progress (its head read, its answer not yet
// all written) is never the one closed; the request and idle deadlines bound how long it can
// stay so.
//
// An IPv6 client is counted by its /64: a host is normally given a whole /64 (the interface
// identifier is 64 bits, RFC 4291 section 2.5.1) and may send from any address in it (RFC 8981
// temporary addresses), so counting its addresses one by one would let one machine appear as
// millions of clients.
//
// Pure: the server hands it connections and closes the ones it names.

import { parseAddress } from '../net/address.ts';

/** The client a connection is counted under: an IPv4 address as it is, an IPv6 address by its /64. */
export function clientKey(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed.ok) return address;
  if (parsed.family === 'ipv4' || parsed.ipv4Mapped) return parsed.canonical;
  const hextets = [0, 2, 4, 6].map((i) => ((parsed.bytes[i]! << 8) | parsed.bytes[i + 1]!).toString(16));
  return `${hextets.join(':')}::/64`;
}

export interface AdmissionLimits {
  /** Connections held at once. */
  total: number;
  /** Connections held at once from one address. */
  perAddress: number;
}

/** Keep the new connection, closing `evict` first when it is not null; or refuse it. */
export type Admission<C> = { admit: true; evict: C | null } | { admit: false };

export class ConnectionTable<C> {
  /** Each address's connections in the order they arrived (a Set keeps insertion order). */
  private readonly byAddress = new Map<string, Set<C>>();
  private readonly addressOf = new Map<C, string>();
  private readonly limits: AdmissionLimits;
  private readonly busy: (connection: C) => boolean;

  /** `busy`: whether a request is in progress on the connection, which is then never evicted. */
  constructor(limits: AdmissionLimits, busy: (connection: C) => boolean) {
    this.limits = limits;
    this.busy = busy;
  }

  /** Connections held. */
  get size(): number {
    return this.addressOf.size;
  }

  /** Decides for a new connection from `address`; an admitted one is held until `remove`, an evicted one is no longer held. */
  admit(address: string, connection: C): Admission<C> {
    const own = this.byAddress.get(address)?.size ?? 0;
    let evict: C | null = null;
    if (own >= this.limits.perAddress) {
      evict = this.oldestIdle(address);
      if (evict === null) return { admit: false };
    } else if (this.size >= this.limits.total) {
      evict = this.oldestIdleOfLargest(own);
      if (evict === null) return { admit: false };
    }
    if (evict !== null) this.remove(evict);
    let held = this.byAddress.get(address);
    if (held === undefined) this.byAddress.set(address, (held = new Set()));
    held.add(connection);
    this.addressOf.set(connection, address);
    return { admit: true, evict };
  }

  /** Forgets a connection (closed, or evicted); a second call does nothing. */
  remove(connection: C): void {
    const address = this.addressOf.get(connection);
    if (address === undefined) return;
    this.addressOf.delete(connection);
    const held = this.byAddress.get(address);
    held?.delete(connection);
    if (held?.size === 0) this.byAddress.delete(address);
  }

  private oldestIdle(address: string): C | null {
    for (const connection of this.byAddress.get(address) ?? []) if (!this.busy(connection)) return connection;
    return null;
  }

  /**
   * The oldest idle connection of the address holding the most, among those holding more than
   * `than`; an address whose connections are all busy is passed over for the next largest.
   * One pass over the addresses, and each address's connections are looked through at most once.
   */
  private oldestIdleOfLargest(than: number): C | null {
    let best: { size: number; connection: C } | null = null;
    for (const [address, held] of this.byAddress) {
      if (held.size <= than || held.size <= (best?.size ?? 0)) continue;
      const connection = this.oldestIdle(address);
      if (connection !== null) best = { size: held.size, connection };
    }
    return best?.connection ?? null;
  }
}
