import type { SiteSettings } from '../records/types.ts';
import type { Answerer } from './answer-context.ts';
import { documentResponse } from './document-answer.ts';
import { jsonDocument } from './store.ts';
import { ACCESS } from '../contract/access.ts';
import { routes } from '../routes.ts';
import { API_PREFIX, href } from '../paths.ts';

/** docs/API.md §9.4: the root document of /api/v1, generated from the route table. */
function apiRootDocument(site: SiteSettings, generatedAt: string): unknown {
  const prefixed = site.base_url + API_PREFIX;
  const concrete = routes().filter((r) => !r.parameter && r.key !== 'api_root');
  const templates = routes().filter((r) => r.parameter);
  return {
    api: site.name,
    version: 'v1',
    status: 'current',
    is_the_only_version: true,
    base_url: prefixed,
    unprefixed_base_url: site.base_url,
    same_api_as: site.base_url,
    openapi_version: '3.1.0',
    summary:
      'Read-only, keyless index of web crawlers: robots.txt tokens, user-agent patterns, verification, ready-made robots.txt policies. Every path is also served without the /api/v1 prefix, with the same bytes and validators.',
    access: { ...ACCESS, methods: ['GET', 'HEAD', 'OPTIONS'] },
    license: { id: site.license, data: 'All data is dedicated to the public domain under CC0-1.0.' },
    describes: {
      home: `${site.base_url}${href('home')}`,
      crawlers: `${site.base_url}${href('agents')}`,
      ledger: `${site.base_url}${href('documents')}`,
      repository: site.repository,
    },
    endpoints: concrete.map((r) => ({ path: r.path, url: prefixed + r.path, unprefixed: site.base_url + r.path, returns: r.returns })),
    templates: templates.map((r) => ({ path: r.path, url: prefixed + r.path })),
    endpoint_count: concrete.length + templates.length,
    versions: { v1: 'current' },
    generated_at: generatedAt,
  };
}

/** GET /api/v1: computed per request, so it names the origin the client used. */
export const answerApiRoot: Answerer<'api-root'> = async (_how, { request, headers, here }, { store }) => {
  const generatedAt = await store.generatedAt();
  return documentResponse(await jsonDocument(API_PREFIX, apiRootDocument(here, generatedAt), generatedAt), request, headers);
};
