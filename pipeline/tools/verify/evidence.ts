// Whether "in none of the lists" can rule a claim out (docs/API.md §6.4). A negative verdict
// leans on the claimed crawler's own lists (published-ranges) or its operator's network list
// (asn); it holds only when this service has an accepted copy of every one of them, recent
// enough to be the operator's current list. Otherwise the address is unverifiable: never an
// impostor on the strength of a list that was never fetched. Pure: the caller gives the time.

import type { PrefixIndex } from './prefix-index.ts';

/**
 * How old an accepted copy may be and still rule an address out: eight refreshes (every
 * 6 hours) missed in a row. Operators change their lists every few days to weeks (the
 * reference data: GPTBot 15 → 21 prefixes in four weeks); a scheduled refresh that misses a
 * run or two is common, eight in a row means it has stopped.
 */
export const MAX_LIST_AGE_SECONDS = 48 * 3600;

/** One list a negative verdict would lean on, and whether it can. */
export interface ListEvidence {
  id: string;
  /** ok, failed or never-fetched, as /status.json says; null when this service has no such list. */
  state: string | null;
  prefixes: number;
  /** When the operator last served the copy in use to a fetch that accepted it (/status.json `last_checked`, or `last_success` in a tree without it). */
  confirmed_at: string | null;
  /** An accepted, non-empty copy accepted at most MAX_LIST_AGE_SECONDS ago: "not in it" counts. */
  usable: boolean;
  /** Why the list cannot be leaned on, or, for a usable list whose last refresh failed, what is used instead; null otherwise. */
  note: string | null;
}

interface Leaning {
  name: string;
  verification_method: string;
  ip_sources: readonly string[];
  verification: readonly { method: string; sources: readonly string[] }[];
}

/** The lists a negative verdict on this crawler leans on; null when its verdict leans on no list. */
export function listsLeanedOn(crawler: Leaning): string[] | null {
  if (crawler.verification_method === 'published-ranges') return [...crawler.ip_sources];
  if (crawler.verification_method === 'asn') {
    const sources = crawler.verification.flatMap((entry) => (entry.method === 'asn' ? entry.sources : []));
    return sources.length > 0 ? sources : null;
  }
  return null;
}

type Source = PrefixIndex['sources'][number];

/** Where a list stands at `now`: only a `usable` one can rule an address out. */
type Standing = 'usable' | 'missing' | 'never-fetched' | 'failed' | 'empty' | 'undated' | 'too-old';

/** The last moment (ms since the epoch) at which a list's copy can rule an address out, or why it never can. */
function usableUntil(source: Source | undefined): number | Exclude<Standing, 'usable' | 'too-old'> {
  if (source === undefined) return 'missing';
  if (source.ipv4_count + source.ipv6_count === 0) {
    if (source.state === 'never-fetched' || source.state === null) return 'never-fetched';
    return source.state === 'failed' ? 'failed' : 'empty';
  }
  const accepted = source.confirmed_at === null ? Number.NaN : Date.parse(source.confirmed_at);
  if (Number.isNaN(accepted)) return 'undated';
  return accepted + MAX_LIST_AGE_SECONDS * 1000;
}

function standingOf(source: Source | undefined, now: number): Standing {
  const until = usableUntil(source);
  if (typeof until !== 'number') return until;
  return now > until ? 'too-old' : 'usable';
}

const sourceOf = (index: PrefixIndex, id: string): Source | undefined => index.sources.find((s) => s.id === id);

/**
 * Until when (ms since the epoch, inclusive) every list of `ids` can rule an address out:
 * listEvidence's `usable` for all of them at any `now` up to it; -Infinity when one never can.
 * For the request log, which books every request that names a crawler: it works this out once
 * per crawler and compares each request's time with it.
 */
export function everyListUsableUntil(index: PrefixIndex, ids: readonly string[]): number {
  let until = Number.POSITIVE_INFINITY;
  for (const id of ids) {
    const listUntil = usableUntil(sourceOf(index, id));
    if (typeof listUntil !== 'number') return Number.NEGATIVE_INFINITY;
    until = Math.min(until, listUntil);
  }
  return until;
}

/** Each list's evidence at `now` (milliseconds since the epoch). */
export function listEvidence(index: PrefixIndex, ids: readonly string[], now: number): ListEvidence[] {
  return ids.map((id) => {
    const source = sourceOf(index, id);
    const standing = standingOf(source, now);
    if (source === undefined) return { id, state: null, prefixes: 0, confirmed_at: null, usable: false, note: `this service holds no list ${id}` };
    const base = { id, state: source.state, prefixes: source.ipv4_count + source.ipv6_count, confirmed_at: source.confirmed_at };
    const unusable = (note: string): ListEvidence => ({ ...base, usable: false, note });
    switch (standing) {
      case 'never-fetched':
        return unusable(`this service has never fetched list ${id}`);
      case 'failed':
        return unusable(`this service has no accepted copy of list ${id} (every fetch so far failed)`);
      case 'empty':
        return unusable(`this service's copy of list ${id} is empty`);
      case 'undated':
        return unusable(`this service does not record when its copy of list ${id} was last fetched and accepted`);
      case 'too-old':
        return unusable(
          `this service's copy of list ${id} was last fetched and accepted at ${source.confirmed_at}, more than ${MAX_LIST_AGE_SECONDS / 3600} hours ago, so it may lack the operator's newer prefixes`,
        );
      default: {
        const note =
          source.state === 'failed'
            ? `list ${id} failed its last refresh; its last good copy, last fetched and accepted at ${source.confirmed_at} (within ${MAX_LIST_AGE_SECONDS / 3600} hours), is used`
            : null;
        return { ...base, usable: true, note };
      }
    }
  });
}
