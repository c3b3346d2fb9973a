// Which published prefixes contain an address: a binary trie per family, one bit per level.
//
// A lookup walks at most 32 (IPv4) or 128 (IPv6) nodes whatever the number of prefixes, and
// collects every prefix on the way, so nested and repeated prefixes (Google publishes the
// same ranges in several lists) all come back, the deepest (most specific) first. Built
// once per model; lookups allocate only the answer's list (its matches are the index's own frozen objects).

import type { Family } from '../../net/address.ts';
import { bitAt, type Prefix } from '../../net/prefix.ts';
import { answer, prepareSources, type LookupResult, type PrefixMatch, type PrefixSource, type RejectedPrefix, type SourceInfo } from './sources.ts';

interface Trie {
  /** Child node per bit; -1 when absent. Node 0 is the root (the /0 prefix). */
  zero: number[];
  one: number[];
  /** Prefixes ending at each node, in source order. */
  matches: (PrefixMatch[] | undefined)[];
}

export interface PrefixIndex {
  readonly ipv4: Trie;
  readonly ipv6: Trie;
  readonly sources: readonly SourceInfo[];
  /** Strings in a list that are not prefixes; skipped and reported, never fatal. */
  readonly rejected: readonly RejectedPrefix[];
  readonly prefixCount: number;
}

function emptyTrie(): Trie {
  return { zero: [-1], one: [-1], matches: [undefined] };
}

function insert(trie: Trie, prefix: Prefix, match: PrefixMatch): void {
  let node = 0;
  for (let i = 0; i < prefix.length; i++) {
    const side = bitAt(prefix.bytes, i) === 0 ? trie.zero : trie.one;
    let next = side[node]!;
    if (next === -1) {
      next = trie.zero.length;
      trie.zero.push(-1);
      trie.one.push(-1);
      trie.matches.push(undefined);
      side[node] = next;
    }
    node = next;
  }
  // Frozen: lookups hand out these objects themselves, not copies.
  Object.freeze(match);
  const list = trie.matches[node];
  if (list === undefined) trie.matches[node] = [match];
  else list.push(match);
}

function search(trie: Trie, bytes: readonly number[]): PrefixMatch[] {
  const found: PrefixMatch[][] = [];
  const bits = bytes.length * 8;
  let node = 0;
  for (let i = 0; ; i++) {
    const here = trie.matches[node];
    if (here !== undefined) found.push(here);
    if (i === bits) break;
    node = (bitAt(bytes, i) === 0 ? trie.zero : trie.one)[node]!;
    if (node === -1) break;
  }
  const out: PrefixMatch[] = [];
  for (let k = found.length - 1; k >= 0; k--) for (const m of found[k]!) out.push(m);
  return out;
}

export function buildPrefixIndex(sources: readonly PrefixSource[]): PrefixIndex {
  const prepared = prepareSources(sources);
  const ipv4 = emptyTrie();
  const ipv6 = emptyTrie();
  for (const { prefix, match } of prepared.entries) insert(prefix.family === 'ipv4' ? ipv4 : ipv6, prefix, match);
  return { ipv4, ipv6, sources: prepared.sources, rejected: prepared.rejected, prefixCount: prepared.entries.length };
}

/** Never throws: an unreadable address is answered `valid: false` with the reason. */
export function lookup(index: PrefixIndex, address: string): LookupResult {
  return answer(address, (family: Family, bytes) => search(family === 'ipv4' ? index.ipv4 : index.ipv6, bytes));
}
