// The reference the trie is measured and tested against: ipaddr.js `match` over every
// prefix, the way most scripts check an address against a published list. The prefixes are
// parsed once, as a fair baseline would; the search itself visits every prefix.

import ipaddr from 'ipaddr.js';
import { answer, prepareSources, type LookupResult, type PrefixMatch, type PrefixSource } from '../../pipeline/tools/verify/sources.ts';

export interface LinearIndex {
  readonly entries: readonly { match: PrefixMatch; network: ipaddr.IPv4 | ipaddr.IPv6; length: number }[];
}

export function buildLinearIndex(sources: readonly PrefixSource[]): LinearIndex {
  return {
    entries: prepareSources(sources).entries.map(({ match, prefix }) => ({ match, network: ipaddr.fromByteArray(prefix.bytes), length: prefix.length })),
  };
}

export function linearScan(index: LinearIndex, address: string): LookupResult {
  return answer(address, (family, bytes) => {
    const ip = ipaddr.fromByteArray(bytes);
    const hits: { match: PrefixMatch; length: number; order: number }[] = [];
    index.entries.forEach((entry, order) => {
      if (entry.network.kind() === family && ip.match(entry.network, entry.length)) hits.push({ match: entry.match, length: entry.length, order });
    });
    // Most specific first; equal lengths are the same prefix, kept in source order.
    hits.sort((a, b) => b.length - a.length || a.order - b.order);
    return hits.map((h) => ({ ...h.match }));
  });
}
