// Whom the log has seen today, for whoami's seen_before (docs/API.md §4.3a): counted in memory as
// rows are recorded, not read back from the file.
//
// An address hash matches only rows written under the same salt, which lives in this process
// alone and changes at every UTC midnight (log/salt.ts). The rows this process recorded today are
// therefore all a lookup could ever find, and they are what this counts. The file kept an index
// by hash for this lookup alone; with many visitors, each row then landed on a page of it at
// random, and every batch rewrote a page per row: about 40 µs of the log's thread per row,
// against 5 µs without it. Pure.

import type { LogEntry, Visitor, VisitorLookup } from './types.ts';

const DAY_MS = 86_400_000;

/** A visitor's requests are counted up to this many. */
export const VISITOR_COUNT_LIMIT = 10_000;

/** Distinct addresses counted per day: about 20 MB of memory on the log's thread when full. */
const VISITORS_COUNTED = 100_000;

export interface VisitorTally {
  /** Counts one recorded request (one without an address counts for nobody). */
  add(entry: LogEntry): void;
  /** What the rows recorded today say of `addressHash`, asked at `now` (ms). */
  lookup(addressHash: string, now: number): VisitorLookup;
}

export function visitorTally(most: number = VISITORS_COUNTED): VisitorTally {
  /** The UTC day counted, as days since the epoch. */
  let day = -Infinity;
  let visitors = new Map<string, Visitor>();
  /** Whether an address was turned away today because `most` were already counted. */
  let full = false;
  return {
    add(entry) {
      const hash = entry.address_hash;
      if (hash === null) return;
      const entryDay = Math.floor(entry.at / DAY_MS);
      // A request that arrived before midnight and was answered after it: hashed under the
      // day before's salt, which no lookup of today can match.
      if (entryDay < day) return;
      if (entryDay > day) {
        day = entryDay;
        visitors = new Map();
        full = false;
      }
      const known = visitors.get(hash);
      if (known === undefined) {
        if (visitors.size >= most) {
          full = true;
          return;
        }
        visitors.set(hash, { requests: 1, first_seen: entry.at, last_seen: entry.at, crawler: entry.crawler, verdict: entry.verdict });
        return;
      }
      if (known.requests < VISITOR_COUNT_LIMIT) known.requests++;
      // Rows come in the order their answers were sent; a slow request's row may come after a
      // later arrival's. First and last go by arrival, and the latest arrival gives the booking.
      if (entry.at < known.first_seen) known.first_seen = entry.at;
      if (entry.at >= known.last_seen) {
        known.last_seen = entry.at;
        known.crawler = entry.crawler;
        known.verdict = entry.verdict;
      }
    },
    lookup(addressHash, now) {
      if (Math.floor(now / DAY_MS) !== day) return { counted: true, visitor: null };
      const known = visitors.get(addressHash);
      if (known !== undefined) return { counted: true, visitor: { ...known } };
      if (!full) return { counted: true, visitor: null };
      return {
        counted: false,
        reason: `More than ${most.toLocaleString('en-US')} addresses have reached this server today; the log counts the first ${most.toLocaleString('en-US')}, and this one is not among them.`,
      };
    },
  };
}
