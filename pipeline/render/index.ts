import type { Model } from '../model/model.ts';
import { renderChanges } from './changes.ts';
import { renderCrawlers } from './crawlers.ts';
import { renderData } from './data.ts';
import { renderGroups } from './groups.ts';
import { renderHome } from './home.ts';
import { renderIpRanges } from './ip-ranges.ts';
import { renderSignatureAgents } from './signature-agents.ts';
import type { RenderedFile } from './output.ts';
import { renderPolicies } from './policies.ts';
import { renderFeeds } from './feeds.ts';
import { renderTools } from './tools.ts';
import { renderCoverage } from './coverage.ts';
import { renderClients } from './clients.ts';
import { agentCard } from './agent-card.ts';
import { renderOpenApi } from './openapi.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { href } from '../paths.ts';
import { renderReference } from './reference.ts';
import { renderSitePages } from './site-pages.ts';
import { renderDiscovery } from './discovery.ts';
import { renderServiceTerms } from './service-terms.ts';
import { renderHostRules } from './host-rules.ts';
import { renderServerConfigs } from './server/configs.ts';
import { renderAllowLists } from './server/allow-lists.ts';
import { renderPolicyAccuracy } from './server/accuracy.ts';

/** The feeds carry a build date, so they are rendered with the ledger's stamp like other dated files. */
function renderFeedFiles(model: Model): RenderedFile[] {
  return [href('feed_json'), href('feed_rss')].map(
    (path): RenderedFile => ({
      path,
      kind: 'feed',
      body: (stamp) => {
        const file = renderFeeds(model.site, model.log, stamp).find((f) => f.path === path);
        if (!file || typeof file.body !== 'string') throw new Error(`feeds: ${path} not rendered`);
        return file.body;
      },
    }),
  );
}

/** Every file of dist/ except the ledger, which describes these. */
const RENDERERS: ReadonlyArray<(model: Model) => RenderedFile[]> = [
  renderHome,
  renderData,
  renderClients,
  renderCrawlers,
  renderGroups,
  renderPolicies,
  renderServerConfigs,
  renderPolicyAccuracy,
  renderIpRanges,
  renderSignatureAgents,
  renderAllowLists,
  renderChanges,
  renderFeedFiles,
  renderTools,
  renderCoverage,
  renderOpenApi,
  (model) => [{ path: href('agent_card'), kind: 'agent-card', body: canonicalJson(agentCard(model.site)) }],
];

/**
 * `now` is the build's time: only security.txt reads it, to renew its Expires when it falls
 * due (render/service-terms.ts). The sitemap lists the pages the other renderers made; the
 * static hosts' rules cover every document.
 */
export function renderAll(model: Model, now: string): RenderedFile[] {
  const files = [...RENDERERS.flatMap((render) => render(model)), ...renderReference(model), ...renderSitePages(model), ...renderServiceTerms(model, now)];
  const documents = [...files, ...renderDiscovery(model, files)];
  return [...documents, ...renderHostRules(documents)];
}
