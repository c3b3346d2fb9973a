import type { Model } from '../model/model.ts';
import { url } from '../model/model.ts';
import { compareText } from '../util/compare.ts';
import { categoryCounts } from './data.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';

/** Operators and categories: each a record plus the full records of its crawlers. */
export function renderGroups(model: Model): RenderedFile[] {
  const operators = model.operators.map((operator): RenderedFile => {
    const crawlers = model.crawlers.filter((c) => c.operator_slug === operator.slug);
    const sources = model.sources.filter((s) => s.operator === operator.slug);
    const hostnames = [...new Set(crawlers.flatMap((c) => c.reverse_dns_hostnames))].sort(compareText);
    return {
      path: href('operator', operator.slug),
      kind: 'operator',
      body: canonicalJson({
        slug: operator.slug,
        name: operator.name,
        homepage: operator.homepage,
        docs_url: operator.docs_url,
        about: operator.about,
        verification: {
          methods: [...new Set(crawlers.map((c) => c.verification_method))].sort(compareText),
          note: operator.verification_note ?? null,
          ip_sources: sources.map((s) => ({ id: s.id, title: s.title, upstream_url: s.url, endpoint: s.endpoint })),
          reverse_dns_hostnames: hostnames,
        },
        last_reviewed: operator.last_reviewed,
        json_url: url(model.site, href('operator', operator.slug)),
        crawler_count: crawlers.length,
        crawlers,
      }),
    };
  });
  const counts = categoryCounts(model);
  const categories = model.categories.map(
    (category): RenderedFile => ({
      path: href('category', category.id),
      kind: 'category',
      body: canonicalJson({
        id: category.id,
        label: category.label,
        ai: category.ai,
        definition: category.definition,
        json_url: url(model.site, href('category', category.id)),
        crawler_count: counts.get(category.id) ?? 0,
        crawlers: model.crawlers.filter((c) => c.category === category.id),
      }),
    }),
  );
  return [...operators, ...categories];
}
