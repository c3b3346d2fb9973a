// "Last good wins" (docs/PRINCIPLES.md, principle 4): decides, from the previous mirror entry and
// one refresh attempt, what the mirror serves next. Pure: the clock is the `now` argument.
//
// A failed attempt never empties or shrinks what we serve: the previous prefixes, their
// provenance (creationTime, sha-256) and their HTTP validators are kept, and `error` says
// why. Validators move only with an accepted body. Otherwise a body we rejected would be
// answered with 304 next time and wrongly taken as "unchanged and fine".

import type { Attempt, Via } from './attempt.ts';
import { refusedAttempt, type AttemptRecord } from './last-good.ts';
import { plural } from './findings.ts';
import { DEFAULT_PREFIX_BOUNDS, prefixProblem } from './public-space.ts';
import type { PrefixBounds } from './public-space.ts';
import { DEFAULT_SPACE_BOUNDS, spaceProblem, type SpaceBounds } from './address-space.ts';
import { boundFindings, LIST_ITEM_LIMIT, quote } from '../util/quote.ts';

export interface MirrorEntry extends AttemptRecord {
  id: string;
  /** The prefixes served: canonical CIDR text, sorted numerically. */
  ipv4: string[];
  ipv6: string[];
  /** The operator's creationTime for the served prefixes, as published. */
  upstream_created: string | null;
  validators: { etag: string | null; last_modified: string | null };
  via: Via;
  url: string;
}

export interface AcceptPolicy {
  /**
   * The largest fraction of the previous prefixes a new list may lose in one refresh.
   * Operators add and drop a few ranges at a time (the largest real drop in the reference
   * data is Applebot's, 33 → 24, 27%); a list that loses more than half at once is far more
   * likely a broken export, a partial page or a placeholder than a real change, and
   * publishing it would make genuine crawlers fail verification. 0.5 keeps the real changes
   * and stops those. A real large drop stays flagged as `failed` until a maintainer
   * looks, which is the cheaper mistake.
   */
  maxShrinkRatio: number;
  /**
   * The same ratio is applied to each address family, so that a list whose IPv6 half
   * vanishes is caught even when the total stays above the threshold; but only to families
   * with at least this many previous prefixes, because in a family of a few prefixes one
   * legitimate removal is already a large fraction.
   */
  minFamilySizeForShrinkCheck: number;
  /**
   * The widest prefix accepted per family (see public-space.ts for why /8 and /19). Together
   * with the refusal of non-public space, this keeps a placeholder such as 0.0.0.0/0 or a
   * list of private ranges from making verify-crawler call any address a genuine crawler.
   */
  prefixBounds: PrefixBounds;
  /**
   * How much address space the whole list may cover, per family, and how fast that may grow
   * against the last good copy (see address-space.ts). Prefixes that each pass the bounds
   * above can still add up to most of the internet.
   */
  spaceBounds: SpaceBounds;
}

export const DEFAULT_ACCEPT_POLICY: AcceptPolicy = {
  maxShrinkRatio: 0.5,
  minFamilySizeForShrinkCheck: 10,
  prefixBounds: DEFAULT_PREFIX_BOUNDS,
  spaceBounds: DEFAULT_SPACE_BOUNDS,
};

/** Offending entries named in one error; the rest are counted. */
const SHOWN_OFFENDERS = 5;

/** The entry of a source that has never been fetched. */
export function neverFetched(id: string, url: string, via: Via = 'network'): MirrorEntry {
  return {
    id,
    state: 'never-fetched',
    ipv4: [],
    ipv6: [],
    upstream_created: null,
    upstream_sha256: null,
    last_attempt: null,
    last_success: null,
    last_change: null,
    error: null,
    findings: [],
    validators: { etag: null, last_modified: null },
    via,
    url,
  };
}

export function acceptList(
  previous: MirrorEntry | undefined,
  attempt: Attempt,
  now: string,
  policy: Partial<AcceptPolicy> = DEFAULT_ACCEPT_POLICY,
): MirrorEntry {
  const rules: AcceptPolicy = { ...DEFAULT_ACCEPT_POLICY, ...policy };
  if (!(rules.maxShrinkRatio >= 0 && rules.maxShrinkRatio <= 1)) {
    throw new RangeError(`acceptList: maxShrinkRatio must be between 0 and 1, got ${rules.maxShrinkRatio}`);
  }
  const base = previous ?? neverFetched(attempt.id, attempt.url, attempt.via);
  const { outcome } = attempt;
  const attemptFindings = [...attempt.findings];

  // Errors and findings quote upstream text and are published as they are: each leaves
  // here as one bounded line (quote.ts), however the message was built.
  const served = { count: base.ipv4.length + base.ipv6.length, one: 'prefix', many: 'prefixes' };
  const reject = (reason: string, findings: string[]): MirrorEntry =>
    refusedAttempt({ ...base, id: attempt.id, url: attempt.url, via: attempt.via }, now, reason, findings, served);

  if (outcome.kind === 'error') {
    return reject(`Fetch failed (${outcome.code}): ${outcome.message}`, attemptFindings);
  }

  if (outcome.kind === 'not-modified') {
    if (base.last_success === null) {
      return reject('The upstream answered 304 Not Modified, but no copy of the list was ever accepted.', attemptFindings);
    }
    return {
      ...base,
      id: attempt.id,
      url: attempt.url,
      via: attempt.via,
      state: 'ok',
      last_attempt: now,
      last_success: now,
      error: null,
      // The body is the one we hold, so its findings still describe it.
      findings: boundFindings(base.findings),
      validators: {
        etag: outcome.etag ?? base.validators.etag,
        last_modified: outcome.lastModified ?? base.validators.last_modified,
      },
    };
  }

  const parsed = attempt.parsed;
  if (parsed === null) {
    return reject('The body was not parsed (internal error: an attempt with a body must carry its parse result).', attemptFindings);
  }
  if (!parsed.ok) {
    return reject(`Parse failed: ${parsed.error}`, attemptFindings);
  }
  const findings = [...attemptFindings, ...parsed.findings, ...(attempt.normalised?.findings ?? [])];
  const normalised = attempt.normalised;
  if (normalised === null) {
    return reject('The prefixes were not normalised (internal error: a parsed attempt must carry its normalised result).', findings);
  }
  if (normalised.invalid.length > 0) {
    const shown = normalised.invalid
      .slice(0, SHOWN_OFFENDERS)
      .map((p) => quote(p, LIST_ITEM_LIMIT))
      .join(', ');
    return reject(
      `The list holds ${plural(normalised.invalid.length, 'invalid prefix', 'invalid prefixes')}: ${shown}${andMore(normalised.invalid.length)}.`,
      findings,
    );
  }
  const total = normalised.ipv4.length + normalised.ipv6.length;
  if (total === 0) {
    return reject('The upstream list is empty.', findings);
  }
  const unservable = unservablePrefixes(normalised.ipv4, normalised.ipv6, rules.prefixBounds);
  if (unservable.count > 0) {
    return reject(
      `The list holds ${plural(unservable.count, 'prefix', 'prefixes')} that cannot be a crawler's public addresses: ${unservable.shown.join('; ')}${andMore(unservable.count)}.`,
      findings,
    );
  }
  const space = spaceProblem(normalised, base.last_success === null ? null : base, rules.spaceBounds);
  if (space !== null) {
    return reject(space, findings);
  }
  const shrink = implausibleShrink(base, normalised.ipv4.length, normalised.ipv6.length, rules);
  if (shrink !== null) {
    return reject(shrink, findings);
  }

  const changed = base.last_success === null || !sameList(base.ipv4, normalised.ipv4) || !sameList(base.ipv6, normalised.ipv6);
  return {
    id: attempt.id,
    state: 'ok',
    ipv4: normalised.ipv4,
    ipv6: normalised.ipv6,
    upstream_created: parsed.creationTime,
    upstream_sha256: outcome.sha256,
    last_attempt: now,
    last_success: now,
    // creationTime moves daily on Google's lists with the same prefixes: that is no change.
    last_change: changed ? now : base.last_change,
    error: null,
    findings: boundFindings(findings),
    validators: { etag: outcome.etag, last_modified: outcome.lastModified },
    via: attempt.via,
    url: attempt.url,
  };
}

function andMore(count: number): string {
  return count > SHOWN_OFFENDERS ? ` and ${count - SHOWN_OFFENDERS} more` : '';
}

/** Prefixes outside public unicast space or wider than the bounds, the first few with why. */
function unservablePrefixes(ipv4: readonly string[], ipv6: readonly string[], bounds: PrefixBounds): { count: number; shown: string[] } {
  let count = 0;
  const shown: string[] = [];
  for (const list of [ipv4, ipv6]) {
    for (const prefix of list) {
      const problem = prefixProblem(prefix, bounds);
      if (problem === null) continue;
      count++;
      if (shown.length < SHOWN_OFFENDERS) shown.push(`${quote(prefix, LIST_ITEM_LIMIT)} is ${problem}`);
    }
  }
  return { count, shown };
}

function implausibleShrink(base: MirrorEntry, v4: number, v6: number, rules: AcceptPolicy): string | null {
  if (base.last_success === null) return null;
  const keep = 1 - rules.maxShrinkRatio;
  const percent = Math.round(rules.maxShrinkRatio * 100);
  const before = base.ipv4.length + base.ipv6.length;
  const after = v4 + v6;
  if (before > 0 && after < keep * before) {
    return `Implausible shrink: the list went from ${before} to ${after} prefixes, losing more than ${percent}% at once.`;
  }
  const families: Array<[string, number, number]> = [
    ['IPv4', base.ipv4.length, v4],
    ['IPv6', base.ipv6.length, v6],
  ];
  for (const [name, was, now] of families) {
    if (was >= rules.minFamilySizeForShrinkCheck && now < keep * was) {
      return `Implausible shrink: the ${name} list went from ${was} to ${now} prefixes, losing more than ${percent}% at once.`;
    }
  }
  return null;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
