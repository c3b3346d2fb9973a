import type { Model } from '../model/model.ts';
import { renderCrawlers } from './crawlers.ts';
import { renderData } from './data.ts';
import { renderGroups } from './groups.ts';
import { renderHome } from './home.ts';
import type { RenderedFile } from './output.ts';
import { renderPolicies } from './policies.ts';

/** Every file of dist/ except the ledger, which describes these. */
export const RENDERERS: ReadonlyArray<(model: Model) => RenderedFile[]> = [
  renderHome,
  renderData,
  renderCrawlers,
  renderGroups,
  renderPolicies,
];

export function renderAll(model: Model): RenderedFile[] {
  return RENDERERS.flatMap((render) => render(model));
}

/** The output schema each JSON kind must satisfy; the build and the tests both use this table. */
export const OUTPUT_SCHEMAS: Readonly<Record<string, string>> = {
  'data:/data/agents.json': 'outputs/agents.schema.json',
  'data:/data/ua-regex.json': 'outputs/ua-regex.schema.json',
  crawler: 'outputs/crawler.schema.json',
  operator: 'outputs/operator.schema.json',
  category: 'outputs/category.schema.json',
  policy: 'outputs/policy.schema.json',
  ledger: 'outputs/documents.schema.json',
};

export function schemaForFile(kind: string, path: string): string | undefined {
  return OUTPUT_SCHEMAS[`${kind}:${path}`] ?? OUTPUT_SCHEMAS[kind];
}
