// Change events: the facts a client of the change feed learns about, oldest first, each at
// a monotonic integer cursor. The kinds name lifecycle points of a crawler record and of an
// upstream list (docs/API.md §3).

const CHANGE_KINDS = [
  'crawler.added',
  'crawler.edited',
  'crawler.withdrawn',
  'ranges.changed',
  'source.stopped-answering',
  'source.started-answering',
  'keys.changed',
  'keys.expiring',
] as const;
type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface PrefixDelta {
  ipv4: string[];
  ipv6: string[];
}

export interface FamilyCounts {
  ipv4: number;
  ipv6: number;
}

/**
 * The prefixes a ranges.changed event lists per family and side (added IPv4, added IPv6,
 * removed IPv4, removed IPv6), the first ones in the list's own order. A list can gain
 * hundreds of thousands of prefixes at once; listing them all made one event 16.7 MB, and every
 * feed reader fetched it. The counts are always exact and the whole list is one link away
 * (docs/API.md §3). 50 is what a feed item showed already.
 */
export const RANGES_SAMPLE_PER_FAMILY = 50;

/** Where a ranges.changed event's whole list can be read: as served now, and every earlier version. */
export interface WholeList {
  /** /ip-ranges/{source}.json: the prefixes served now. */
  url: string;
  /** The history of the mirror entry in the repository: every accepted version, as committed. */
  history: string;
}

export interface ChangeEvent {
  /** Position in the feed; strictly increasing by one per event. */
  cursor: number;
  kind: ChangeKind;
  /** When the refresh that found the change ran (ISO 8601, UTC). */
  observed_at: string;
  subject: { type: 'crawler' | 'source' | 'signature-agent'; id: string; url: string };
  /** One sentence a person can read in a feed reader. */
  summary: string;
  /**
   * ranges.changed: the prefixes added and removed, at most RANGES_SAMPLE_PER_FAMILY per
   * family and side; `added_count` and `removed_count` are exact, and `sample_complete` says
   * whether the two lists hold every one.
   */
  added?: PrefixDelta;
  removed?: PrefixDelta;
  added_count?: FamilyCounts;
  removed_count?: FamilyCounts;
  sample_complete?: boolean;
  whole_list?: WholeList;
  /** crawler.edited: which record fields changed. */
  fields?: string[];
  /** keys.changed: the thumbprints of the keys a directory gained and lost. */
  keys_added?: string[];
  keys_removed?: string[];
  /** keys.expiring: the key's thumbprint and its exp. */
  key?: string;
  expires?: string;
  /** source.stopped-answering: why the last attempt was refused. */
  error?: string;
}

/** The committed event log (state/events.json) and, as published, /changes/log.json. */
export interface EventLog {
  /** Newest cursor that exists (0 before the first event). */
  head: number;
  /** Oldest retained cursor; older events were dropped by retention. head + 1 when empty. */
  oldest: number;
  /**
   * The commit the newest batch was diffed against. A refresh re-run on the same base
   * (after a crash before the commit) replaces that batch instead of appending it again.
   */
  last_base: string | null;
  /** Cursor of the first event of the newest batch, for that replacement. */
  last_batch_start: number | null;
  events: ChangeEvent[];
}

export const EMPTY_LOG: EventLog = { head: 0, oldest: 1, last_base: null, last_batch_start: null, events: [] };
