import type { Model } from '../model/model.ts';
import { renderAgentCard } from './agent-card.ts';
import { renderChanges } from './changes.ts';
import { renderClients } from './clients.ts';
import { renderCoverage } from './coverage.ts';
import { renderCrosswalk } from './crosswalk.ts';
import { renderCrawlers } from './crawlers.ts';
import { renderData } from './data.ts';
import { renderDiscovery } from './discovery.ts';
import { renderFeedFiles } from './feeds.ts';
import { renderGroups } from './groups.ts';
import { renderHome } from './home.ts';
import { renderHostRules } from './host-rules.ts';
import { renderIpRanges } from './ip-ranges.ts';
import { renderOpenApi } from './openapi.ts';
import type { RenderedFile } from './output.ts';
import { renderPolicies } from './policies.ts';
import { renderReference } from './reference.ts';
import { renderPolicyAccuracy } from './server/accuracy.ts';
import { renderAllowLists } from './server/allow-lists.ts';
import { renderServerConfigs } from './server/configs.ts';
import { renderServiceTerms } from './service-terms.ts';
import { renderSignatureAgents } from './signature-agents.ts';
import { renderSitePages } from './site-pages.ts';
import { renderTools } from './tools.ts';

/** What a renderer may read besides the model: the build's time, and the files the renderers before it made. */
interface BuildSoFar {
  /** The build's time: only security.txt reads it, to renew its Expires when it falls due (render/service-terms.ts). */
  now: string;
  rendered: readonly RenderedFile[];
}

interface Renderer {
  /** The module under pipeline/ that exports `render`: what a route's `writtenBy` names (test/outputs.test.ts). */
  module: string;
  render: (model: Model, build: BuildSoFar) => RenderedFile[];
}

/**
 * Every file of dist/ except the ledger, which describes these, in the order they are made:
 * the sitemap (discovery) lists the pages the others made, and the static hosts' rules cover
 * every document, so those two come last.
 */
const RENDERERS: readonly Renderer[] = [
  { module: 'render/home.ts', render: renderHome },
  { module: 'render/data.ts', render: renderData },
  { module: 'render/clients.ts', render: renderClients },
  { module: 'render/crawlers.ts', render: renderCrawlers },
  { module: 'render/groups.ts', render: renderGroups },
  { module: 'render/policies.ts', render: renderPolicies },
  { module: 'render/server/configs.ts', render: renderServerConfigs },
  { module: 'render/server/accuracy.ts', render: renderPolicyAccuracy },
  { module: 'render/ip-ranges.ts', render: renderIpRanges },
  { module: 'render/signature-agents.ts', render: renderSignatureAgents },
  { module: 'render/server/allow-lists.ts', render: renderAllowLists },
  { module: 'render/changes.ts', render: renderChanges },
  { module: 'render/feeds.ts', render: renderFeedFiles },
  { module: 'render/tools.ts', render: renderTools },
  { module: 'render/coverage.ts', render: renderCoverage },
  { module: 'render/crosswalk.ts', render: renderCrosswalk },
  { module: 'render/openapi.ts', render: renderOpenApi },
  { module: 'render/agent-card.ts', render: renderAgentCard },
  { module: 'render/reference.ts', render: renderReference },
  { module: 'render/site-pages.ts', render: renderSitePages },
  { module: 'render/service-terms.ts', render: renderServiceTerms },
  { module: 'render/discovery.ts', render: renderDiscovery },
  { module: 'render/host-rules.ts', render: renderHostRules },
];

/** A renderer that ran: its module, its function and the paths it made. */
export interface RendererRun {
  module: string;
  render: Renderer['render'];
  paths: string[];
}

/** Every file of dist/ but the ledger, by the renderer that made it: its module, its function and its files. */
export function renderByModule(model: Model, now: string): { module: string; render: Renderer['render']; files: RenderedFile[] }[] {
  const rendered: RenderedFile[] = [];
  return RENDERERS.map(({ module, render }) => {
    const files = render(model, { now, rendered: [...rendered] });
    rendered.push(...files);
    return { module, render, files };
  });
}
