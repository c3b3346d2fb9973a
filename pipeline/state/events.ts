import { readStateJson, restoreFromGit } from './state-file.ts';
import { isRecord } from '../util/guards.ts';
import type { Model } from '../model/model.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { diffStates, type PublishedState } from '../changes/diff.ts';
import { boundRangesEvents, recordBatch } from '../changes/log.ts';
import { readBase } from './published-base.ts';
import { writeFileAtomic } from '../util/atomic-file.ts';
import { EMPTY_LOG, type EventLog } from '../changes/types.ts';
import { href } from '../paths.ts';
import { readTextIfExists } from '../util/read-if-exists.ts';

/** The facts of a model in the shape they are published, for diffing against HEAD's. */
function publishedStateOf(model: Model): PublishedState {
  return {
    crawlers: new Map(model.crawlers.map((c) => [c.slug, JSON.parse(JSON.stringify(c)) as Record<string, unknown>])),
    sources: new Map(model.sources.map((s) => [s.id, { state: s.mirror.state, error: s.mirror.error, ipv4: s.mirror.ipv4, ipv6: s.mirror.ipv6 }])),
    directories: new Map(
      model.directories.map((d) => [
        d.id,
        {
          state: d.mirror.state,
          error: d.mirror.error,
          thumbprints: d.keys.map((k) => k.thumbprint),
          expiring: d.keys.filter((k) => k.expires_soon).map((k) => ({ thumbprint: k.thumbprint, expires: k.expires })),
        },
      ]),
    ),
  };
}

function isEventLog(value: unknown): value is EventLog {
  return isRecord(value) && Number.isInteger(value['head']) && Number.isInteger(value['oldest']) && Array.isArray(value['events']);
}

/** Reads state/events.json; a missing file is an empty log (no change recorded yet). */
export async function readEventLog(path: string): Promise<EventLog> {
  const log = await readStateJson(path, {
    expected: 'an event log (an object with head, oldest and events)',
    is: isEventLog,
    // Not "delete it": an empty log restarts the cursors that clients of the change feed hold.
    remedy: restoreFromGit(path),
  });
  return log ?? EMPTY_LOG;
}

/** Writes the log only when its bytes change, so an unchanged build leaves state/ untouched. */
export async function writeEventLog(path: string, log: EventLog): Promise<boolean> {
  const text = canonicalJson(log);
  const current = await readTextIfExists(path);
  if (current === text) return false;
  await writeFileAtomic(path, text);
  return true;
}

/**
 * Where every accepted version of a list is: the history of its mirror entry, which a refresh
 * commits whenever the list changes (refresh/refresh.ts).
 */
function sourceHistory(repository: string, id: string): string {
  return `${repository.replace(/\/+$/, '')}/commits/main/state/mirror/${id}.json`;
}

/**
 * The log with the changes between what the last commit published (read with git) and the
 * model about to be published. They come from the commit, not the last build, so they survive
 * a rebuild that was never committed and are not repeated by one run again (recordBatch).
 */
export async function eventsSincePublished(
  events: EventLog,
  draft: Model,
  at: { root: string; distDir: string; baseUrl: string; now: string },
): Promise<EventLog> {
  const bounded = boundRangesEvents(events, (id) => sourceHistory(draft.site.repository, id));
  const base = await readBase(at.root, at.distDir);
  if (!base) return bounded;
  const pending = diffStates(base.state, publishedStateOf(draft), {
    crawler: (slug) => `${at.baseUrl}${href('crawler', slug)}`,
    source: (id) => `${at.baseUrl}${href('ip_ranges', id)}`,
    sourceHistory: (id) => sourceHistory(draft.site.repository, id),
    directory: (id) => `${at.baseUrl}${href('signature_agent', id)}`,
  });
  return recordBatch(bounded, base.commit, pending, at.now);
}
