import { changesPage, DEFAULT_LIMIT, type PublishedLog } from '../changes/page.ts';
import type { Model } from '../model/model.ts';
import { staleSources } from './ip-ranges.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';

function publishedLog(model: Model, generatedAt: string): PublishedLog {
  const { log } = model;
  return { head: log.head, oldest: log.oldest, generated_at: generatedAt, stale_sources: staleSources(model), events: log.events };
}

/**
 * /changes/log.json is every retained event: what the server pages through. /changes.json is
 * the page a client gets with no parameters, rendered by the same function the server uses,
 * so a static host serving dist/ gives the same answer.
 */
export function renderChanges(model: Model): RenderedFile[] {
  return [
    { path: href('changes_log'), kind: 'changes-log', body: (stamp) => canonicalJson(publishedLog(model, stamp)) },
    {
      path: href('changes'),
      kind: 'changes',
      body: (stamp) => {
        const result = changesPage(publishedLog(model, stamp), { since: { kind: 'start' }, limit: DEFAULT_LIMIT }, model.site.base_url);
        if (!result.ok) throw new Error(`changes page: ${result.message}`);
        return canonicalJson(result.page);
      },
    },
  ];
}
