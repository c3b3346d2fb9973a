import type { Model } from '../model/model.ts';
import { EVIDENCE_LEVELS, STANCES, VERIFICATION_METHODS } from '../records/types.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';
import { crosswalk } from './crosswalk.ts';

/** Counts that show at a glance what the index covers; the home page shows the same numbers. */
export function coverage(model: Model) {
  const count = <T extends string>(keys: readonly T[], of: (c: Model['crawlers'][number]) => T) =>
    Object.fromEntries(keys.map((k) => [k, model.crawlers.filter((c) => of(c) === k).length])) as Record<T, number>;
  return {
    crawlers: model.crawlers.length,
    operators: model.operators.length,
    robots_only_tokens: model.crawlers.filter((c) => c.robots_only).length,
    by_category: count(
      model.categories.map((c) => c.id),
      (c) => c.category,
    ),
    by_stance: count(STANCES, (c) => c.respects_robots_txt),
    by_verification: count(VERIFICATION_METHODS, (c) => c.verification_method),
    verification_documented: Object.fromEntries(
      VERIFICATION_METHODS.map((m) => [m, model.crawlers.filter((c) => c.verification.some((entry) => entry.method === m)).length]),
    ),
    by_evidence: count(EVIDENCE_LEVELS, (c) => c.evidence),
    by_category_and_evidence: Object.fromEntries(
      model.categories.map((category) => [
        category.id,
        Object.fromEntries(EVIDENCE_LEVELS.map((e) => [e, model.crawlers.filter((c) => c.category === category.id && c.evidence === e).length])),
      ]),
    ),
    peer_names: peerNames(model),
    crosswalk: Object.fromEntries(crosswalk(model).peers.map((peer) => [peer.id, peer.counts])),
    ip_sources: {
      total: model.sources.length,
      ok: model.sources.filter((s) => s.mirror.state === 'ok').length,
      failed: model.sources.filter((s) => s.mirror.state === 'failed').length,
      never_fetched: model.sources.filter((s) => s.mirror.state === 'never-fetched').length,
    },
    policies: Object.fromEntries(model.policies.map((p) => [p.id, p.crawlers.length])),
  };
}

/** How many names of the peers' AI list the index places, and why it leaves the others out. */
function peerNames(model: Model) {
  const { standing, source } = model.peers;
  const reasons = (reason: string) => standing.excluded.filter((e) => e.reason === reason).length;
  return {
    source: source.url,
    total: standing.total,
    placed: standing.placed.length,
    excluded: { 'not-a-crawler': reasons('not-a-crawler'), 'no-evidence': reasons('no-evidence') },
    unaccounted: standing.unaccounted.length,
  };
}

export function renderCoverage(model: Model): RenderedFile[] {
  return [{ path: href('coverage'), kind: 'coverage', body: canonicalJson(coverage(model)) }];
}
