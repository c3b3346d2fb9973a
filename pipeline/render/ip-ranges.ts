import type { Model, SourceView } from '../model/model.ts';
import { url } from '../model/model.ts';
import type { StaleSource } from '../changes/page.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';

/** Why a source's prefixes may not be current, in words a WAF builder can act on. */
function warning(source: SourceView): string | null {
  const { mirror } = source;
  if (mirror.state === 'failed')
    return `The last fetch failed (${mirror.error ?? 'unknown error'}); these are the last good prefixes, from ${mirror.last_success ?? 'an earlier fetch'}.`;
  if (mirror.state === 'never-fetched') return 'This list has not been fetched yet; it holds no prefixes. Verify this operator by other means until it is.';
  return null;
}

function provenance(source: SourceView) {
  const { mirror } = source;
  return {
    upstream_url: source.url,
    format: source.format,
    via: mirror.state === 'never-fetched' ? null : mirror.via,
    fetched_at: mirror.last_success,
    upstream_created: mirror.upstream_created,
    upstream_sha256: mirror.upstream_sha256,
    last_attempt: mirror.last_attempt,
    last_change: mirror.last_change,
  };
}

function sourceFile(model: Model, source: SourceView) {
  return {
    id: source.id,
    operator: source.operator,
    title: source.title,
    crawlers: source.crawlers.map((slug) => ({ slug, json_url: url(model.site, href('crawler', slug)) })),
    state: source.mirror.state,
    warning: warning(source),
    ipv4_count: source.mirror.ipv4.length,
    ipv6_count: source.mirror.ipv6.length,
    provenance: provenance(source),
    ipv4: source.mirror.ipv4,
    ipv6: source.mirror.ipv6,
  };
}

export function staleSources(model: Model): StaleSource[] {
  return model.sources
    .filter((s) => s.mirror.state === 'failed')
    .map((s) => ({
      id: s.id,
      operator: s.operator,
      state: s.mirror.state,
      error: s.mirror.error,
      last_success: s.mirror.last_success,
      last_attempt: s.mirror.last_attempt,
      endpoint: s.endpoint,
    }));
}

/**
 * A "# " comment is one line: an upstream error can hold line breaks (a JSON.parse message
 * repeats the body it choked on), and a line break there would start a line that readers
 * of this file take as a prefix.
 */
function comment(text: string): string {
  return `# ${text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')}`;
}

function allText(model: Model): string {
  const lines = [
    comment(`${model.site.name}: every operator-published crawler IP prefix, one CIDR per line.`),
    comment(`Source: ${url(model.site, href('ip_ranges_all'))} (grouped by source, with provenance). License: CC0-1.0.`),
    comment('A line "# source <id> ..." starts each source; a stale or never-fetched source says so.'),
  ];
  for (const source of model.sources) {
    const note = warning(source);
    lines.push(
      comment(
        `source ${source.id} (${source.operator}) state=${source.mirror.state} ipv4=${source.mirror.ipv4.length} ipv6=${source.mirror.ipv6.length} upstream=${source.url}`,
      ),
    );
    if (note) lines.push(comment(note));
    // A list may hold hundreds of thousands of prefixes: push(...list) would pass each one
    // as an argument and overflow the call stack.
    for (const prefix of source.mirror.ipv4) lines.push(prefix);
    for (const prefix of source.mirror.ipv6) lines.push(prefix);
  }
  return lines.join('\n') + '\n';
}

/**
 * What the times in status.json mean, said in the document itself. A refresh that finds the
 * same list writes only state/checked.json (refresh/refresh.ts), so last_checked moves at every
 * refresh and the other times only when something changed (docs/API.md §2.3).
 */
const ATTEMPT_TIMES =
  'last_checked is the time of the last fetch of the source that was accepted, whether or not the list changed: a source whose last_checked is much older than refresh_interval_seconds is not being checked, and its list may be stale. last_attempt and last_success are the times of the newest attempt that changed what is published for the source: its prefixes, its state or its error. A refresh that gets the same list again moves only last_checked; one that fails the same way again records nothing, so a failed source has failed the same way since its last_attempt, as long as the refresh keeps running every refresh_interval_seconds.';

/** Whether a real copy of the operator's file backs this source's parser case (records/sources.yaml). */
function formatStatus(source: SourceView) {
  return { format_status: source.format_status ?? 'verified', format_status_why: source.format_status_why ?? null };
}

export function renderIpRanges(model: Model): RenderedFile[] {
  const counts = (list: readonly SourceView[]) => ({
    ipv4: list.reduce((n, s) => n + s.mirror.ipv4.length, 0),
    ipv6: list.reduce((n, s) => n + s.mirror.ipv6.length, 0),
  });
  const total = counts(model.sources);
  const ok = model.sources.filter((s) => s.mirror.state === 'ok').length;
  const failed = model.sources.filter((s) => s.mirror.state === 'failed').length;
  return [
    ...model.sources.map((source): RenderedFile => ({ path: href('ip_ranges', source.id), kind: 'ip-ranges', body: canonicalJson(sourceFile(model, source)) })),
    {
      path: href('ip_ranges_all'),
      kind: 'ip-ranges-all',
      body: canonicalJson({
        ipv4_count: total.ipv4,
        ipv6_count: total.ipv6,
        note: 'Counts are per source; a prefix published in two lists (Google lists several) is counted in each.',
        stale_sources: staleSources(model).map((s) => s.id),
        sources: model.sources.map((s) => ({
          id: s.id,
          operator: s.operator,
          state: s.mirror.state,
          endpoint: s.endpoint,
          ipv4: s.mirror.ipv4,
          ipv6: s.mirror.ipv6,
        })),
      }),
    },
    { path: href('ip_ranges_text'), kind: 'ip-ranges-text', body: allText(model) },
    {
      path: href('ip_sources'),
      kind: 'ip-sources',
      body: canonicalJson({
        count: model.sources.length,
        refresh_interval_seconds: 21600,
        sources: model.sources.map((s) => ({
          id: s.id,
          operator: s.operator,
          title: s.title,
          upstream_url: s.url,
          format: s.format,
          ...formatStatus(s),
          families: s.families,
          scope: s.scope ?? 'crawlers',
          crawlers: s.crawlers,
          endpoint: s.endpoint,
          state: s.mirror.state,
          ipv4_count: s.mirror.ipv4.length,
          ipv6_count: s.mirror.ipv6.length,
        })),
      }),
    },
    {
      path: href('status'),
      kind: 'status',
      body: (stamp) =>
        canonicalJson({
          sources_ok: ok,
          sources_failed: failed,
          sources_never_fetched: model.sources.length - ok - failed,
          generated_at: stamp,
          refresh_interval_seconds: 21600,
          times: ATTEMPT_TIMES,
          sources: model.sources.map((s) => ({
            id: s.id,
            operator: s.operator,
            state: s.mirror.state,
            ...formatStatus(s),
            last_checked: s.last_checked,
            last_attempt: s.mirror.last_attempt,
            last_success: s.mirror.last_success,
            last_change: s.mirror.last_change,
            changed_at_last_attempt: s.mirror.last_change !== null && s.mirror.last_change === s.mirror.last_attempt,
            error: s.mirror.error,
            upstream_created: s.mirror.upstream_created,
            findings: s.mirror.findings,
            endpoint: s.endpoint,
          })),
        }),
    },
  ];
}
