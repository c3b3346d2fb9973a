import { RANGES_SAMPLE_PER_FAMILY, type ChangeEvent, type FamilyCounts, type PrefixDelta, type WholeList } from './types.ts';

/** What a change event can be derived from: the published facts of one build. */
export interface PublishedState {
  crawlers: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  sources: ReadonlyMap<string, { state: string; ipv4: readonly string[]; ipv6: readonly string[]; error: string | null }>;
  /** Key directories: the thumbprints served and those expiring within the warning window, with each key's exp. */
  directories: ReadonlyMap<string, PublishedDirectory>;
}

export interface PublishedDirectory {
  state: string;
  error: string | null;
  thumbprints: readonly string[];
  expiring: readonly { thumbprint: string; expires: string | null }[];
}

export type PendingEvent = Omit<ChangeEvent, 'cursor' | 'observed_at'>;

/**
 * Fields that follow from other facts (prefix counts follow the mirror, URLs the base URL):
 * a change there is reported by its own event or is no change to the record.
 */
const DERIVED_FIELDS = new Set(['ipv4_prefix_count', 'ipv6_prefix_count', 'html_url', 'json_url', 'markdown_url', 'ip_ranges_endpoint']);

/** What a field added to the record model holds for a crawler it says nothing new about. */
const NEW_FIELD_DEFAULTS: Readonly<Record<string, unknown>> = { status: 'active' };

// Fields the model gained that restate what older fields said (verification restates
// verification_method and reverse_dns_hostnames; citations restate operator_docs; evidence is
// read from citations). On the build that adds them, a real change still shows in the old fields.
const RESTATEMENTS: ReadonlySet<string> = new Set(['verification', 'citations', 'evidence', 'evidence_label']);

/**
 * Whether `field` changed. A field the published record did not have yet (the model gained
 * it) is a change only where it says something: added empty, null or at its default, it tells
 * a feed reader nothing about the crawler, and reporting it would mark every crawler edited.
 */
function fieldChanged(old: Record<string, unknown>, now: Record<string, unknown>, field: string): boolean {
  if (!(field in old)) {
    if (RESTATEMENTS.has(field)) return false;
    const value = now[field];
    if (isEmpty(value) || JSON.stringify(value) === JSON.stringify(NEW_FIELD_DEFAULTS[field])) return false;
  }
  return JSON.stringify(old[field]) !== JSON.stringify(withoutGainedEmptyKeys(old[field], now[field]));
}

function isEmpty(value: unknown): boolean {
  return value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * `now` without the keys it gained inside objects (a verification entry's signature_agent)
 * where the gained key is empty: the same rule as for a gained field, one level down, so a
 * key added to every entry as null does not mark every crawler edited.
 */
function withoutGainedEmptyKeys(old: unknown, now: unknown): unknown {
  if (Array.isArray(old) && Array.isArray(now) && old.length === now.length) return now.map((item, i) => withoutGainedEmptyKeys(old[i], item));
  if (!isRecord(old) || !isRecord(now)) return now;
  return Object.fromEntries(
    Object.entries(now)
      .filter(([key, value]) => key in old || !isEmpty(value))
      .map(([key, value]) => [key, withoutGainedEmptyKeys(old[key], value)]),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function delta(from: readonly string[], to: readonly string[]): string[] {
  const before = new Set(from);
  return to.filter((prefix) => !before.has(prefix));
}

/** Only answering sources count as answering; never-fetched is neither. */
const answering = (state: string | undefined) => state === 'ok';
const failing = (state: string | undefined) => state === 'failed';

/**
 * The events that lead from one published state to the next, in a fixed order (sources,
 * then crawlers; each by id) so that the same two states always give the same events.
 */
export function diffStates(
  before: PublishedState,
  after: PublishedState,
  urls: { crawler(slug: string): string; source(id: string): string; sourceHistory(id: string): string; directory(id: string): string },
): PendingEvent[] {
  const events: PendingEvent[] = [];
  const sourceIds = [...new Set([...before.sources.keys(), ...after.sources.keys()])].sort();
  for (const id of sourceIds) {
    const old = before.sources.get(id);
    const now = after.sources.get(id);
    if (!now) continue; // a source row removed from sources.yaml: its crawlers' edits say so
    const subject = { type: 'source' as const, id, url: urls.source(id) };
    if (failing(now.state) && !failing(old?.state)) {
      events.push({
        kind: 'source.stopped-answering',
        subject,
        summary: `${id} did not answer usably; its last good prefixes are still served. ${now.error ?? ''}`.trim(),
        error: now.error ?? 'unknown error',
      });
    }
    if (answering(now.state) && !answering(old?.state)) {
      events.push({
        kind: 'source.started-answering',
        subject,
        summary: old?.state === 'failed' ? `${id} answers again.` : `${id} answered for the first time.`,
      });
    }
    const added: PrefixDelta = { ipv4: delta(old?.ipv4 ?? [], now.ipv4), ipv6: delta(old?.ipv6 ?? [], now.ipv6) };
    const removed: PrefixDelta = { ipv4: delta(now.ipv4, old?.ipv4 ?? []), ipv6: delta(now.ipv6, old?.ipv6 ?? []) };
    if (added.ipv4.length + added.ipv6.length + removed.ipv4.length + removed.ipv6.length > 0) {
      events.push(rangesChanged(subject, added, removed, { url: subject.url, history: urls.sourceHistory(id) }));
    }
  }

  for (const id of [...after.directories.keys()].sort()) {
    events.push(...directoryEvents(id, before.directories.get(id), after.directories.get(id) as PublishedDirectory, urls.directory(id)));
  }

  const slugs = [...new Set([...before.crawlers.keys(), ...after.crawlers.keys()])].sort();
  for (const slug of slugs) {
    const old = before.crawlers.get(slug);
    const now = after.crawlers.get(slug);
    const subject = { type: 'crawler' as const, id: slug, url: urls.crawler(slug) };
    const name = String((now ?? old)?.['name'] ?? slug);
    if (!old && now) events.push({ kind: 'crawler.added', subject, summary: `${name} (${String(now['operator'])}) was added to the index.` });
    else if (old && !now) events.push({ kind: 'crawler.withdrawn', subject, summary: `${name} was withdrawn from the index.` });
    else if (old && now) {
      const fields = [...new Set([...Object.keys(old), ...Object.keys(now)])]
        .filter((field) => !DERIVED_FIELDS.has(field) && fieldChanged(old, now, field))
        .sort();
      if (fields.length > 0) events.push({ kind: 'crawler.edited', subject, summary: `${name}: ${fields.join(', ')} changed.`, fields });
    }
  }
  return events;
}

const countOf = (delta: PrefixDelta): FamilyCounts => ({ ipv4: delta.ipv4.length, ipv6: delta.ipv6.length });
const sampleOf = (delta: PrefixDelta): PrefixDelta => ({
  ipv4: delta.ipv4.slice(0, RANGES_SAMPLE_PER_FAMILY),
  ipv6: delta.ipv6.slice(0, RANGES_SAMPLE_PER_FAMILY),
});

/**
 * A ranges.changed event: exact counts, a bounded sample of each side and where the whole list
 * is (docs/API.md §3). Its size does not grow with the list's.
 */
export function rangesChanged(subject: ChangeEvent['subject'], added: PrefixDelta, removed: PrefixDelta, whole: WholeList): PendingEvent {
  const addedCount = countOf(added);
  const removedCount = countOf(removed);
  const plus = addedCount.ipv4 + addedCount.ipv6;
  const minus = removedCount.ipv4 + removedCount.ipv6;
  const sample = { added: sampleOf(added), removed: sampleOf(removed) };
  const shown = [sample.added.ipv4, sample.added.ipv6, sample.removed.ipv4, sample.removed.ipv6].reduce((n, list) => n + list.length, 0);
  return {
    kind: 'ranges.changed',
    subject,
    summary: `${subject.id}: ${plus} prefix${plus === 1 ? '' : 'es'} added, ${minus} removed.`,
    added: sample.added,
    removed: sample.removed,
    added_count: addedCount,
    removed_count: removedCount,
    sample_complete: shown === plus + minus,
    whole_list: whole,
  };
}

/** A key directory's events: it stopped or started answering, its key set changed, a key nears its exp. */
function directoryEvents(id: string, old: PublishedDirectory | undefined, now: PublishedDirectory, url: string): PendingEvent[] {
  const events: PendingEvent[] = [];
  const subject = { type: 'signature-agent' as const, id, url };
  if (failing(now.state) && !failing(old?.state))
    events.push({
      kind: 'source.stopped-answering',
      subject,
      summary: `${id} did not answer usably; its last good keys are still served. ${now.error ?? ''}`.trim(),
      error: now.error ?? 'unknown error',
    });
  if (answering(now.state) && !answering(old?.state))
    events.push({
      kind: 'source.started-answering',
      subject,
      summary: old?.state === 'failed' ? `${id} answers again.` : `${id} answered for the first time.`,
    });
  const added = delta(old?.thumbprints ?? [], now.thumbprints);
  const removed = delta(now.thumbprints, old?.thumbprints ?? []);
  if (added.length + removed.length > 0)
    events.push({
      kind: 'keys.changed',
      subject,
      summary: `${id}: ${added.length} signing key${added.length === 1 ? '' : 's'} added, ${removed.length} removed.`,
      keys_added: added,
      keys_removed: removed,
    });
  const warned = new Set((old?.expiring ?? []).map((k) => k.thumbprint));
  for (const key of now.expiring) {
    if (warned.has(key.thumbprint)) continue;
    events.push({
      kind: 'keys.expiring',
      subject,
      summary: `${id}: signing key ${key.thumbprint} expires ${key.expires ?? 'soon'}; expect the directory to publish its successor.`,
      key: key.thumbprint,
      ...(key.expires === null ? {} : { expires: key.expires }),
    });
  }
  return events;
}
