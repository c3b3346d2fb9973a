// What every mirrored upstream records about its attempts, whatever it serves (prefix lists,
// key directories), and the one way a refused attempt is written down: the served copy stays,
// `error` says why and what is still served. Pure.

import { boundFindings, boundMessage } from '../util/quote.ts';

export interface AttemptRecord {
  state: 'ok' | 'failed' | 'never-fetched';
  /** sha-256 (hex) of the upstream body the served copy came from. */
  upstream_sha256: string | null;
  /** ISO 8601 times. */
  last_attempt: string | null;
  last_success: string | null;
  /** When the served set last changed (not when the bytes or a header did). */
  last_change: string | null;
  /** Why the last attempt was not accepted; null when it was. */
  error: string | null;
  /** What the last attempt tolerated or changed on the way. */
  findings: string[];
}

/** What is served, counted, with its noun: `{count: 3, one: 'prefix', many: 'prefixes'}`. */
export interface Served {
  count: number;
  one: string;
  many: string;
}

function keptSentence(base: AttemptRecord, served: Served): string {
  if (base.last_success === null && served.count === 0) return `No earlier copy exists, so no ${served.one} is served yet.`;
  return served.count === 1 ? `The previous ${served.one} is kept.` : `The previous ${served.count} ${served.many} are kept.`;
}

/**
 * The entry after a refused attempt: everything served before is kept, the attempt is dated,
 * and the reason and findings (which quote upstream text) leave as bounded lines (util/quote.ts).
 */
export function refusedAttempt<Entry extends AttemptRecord>(base: Entry, now: string, reason: string, findings: readonly string[], served: Served): Entry {
  return {
    ...base,
    state: 'failed',
    last_attempt: now,
    error: `${boundMessage(reason)} ${keptSentence(base, served)}`,
    findings: boundFindings(findings),
  };
}
