import { userAgentPatterns } from '../records/user-agent-forms.ts';
import type { Model, CrawlerView } from '../model/model.ts';
import { url } from '../model/model.ts';
import { href } from '../paths.ts';
import { routes } from '../routes.ts';
import { csvTable } from './csv.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { alternation } from './regex.ts';
import { TOKEN_RULE_WORDS } from '../tools/classify/token.ts';

/** The 23 fields of docs/API.md §2.1, in order: the CSV header and the first keys of every record. */
export const SPEC_FIELDS = [
  'slug',
  'name',
  'operator',
  'operator_slug',
  'category',
  'category_label',
  'robots_token',
  'user_agent_substring',
  'user_agent_example',
  'respects_robots_txt',
  'respects_robots_txt_label',
  'verification_method',
  'verification_label',
  'published_ip_ranges_url',
  'ip_ranges_endpoint',
  'ipv4_prefix_count',
  'ipv6_prefix_count',
  'what_it_is',
  'cost_of_blocking',
  'operator_docs',
  'html_url',
  'json_url',
  'last_reviewed',
] as const satisfies readonly (keyof CrawlerView)[];

function endpointMap(model: Model): Record<string, { url: string; type: string; returns: string; template: boolean }> {
  return Object.fromEntries(
    routes().map((route) => [
      route.key,
      {
        url: url(model.site, route.path),
        type: route.type,
        returns: route.returns,
        template: route.parameter !== undefined,
      },
    ]),
  );
}

export function categoryCounts(model: Model): Map<string, number> {
  const counts = new Map<string, number>(model.categories.map((c) => [c.id, 0]));
  for (const crawler of model.crawlers) counts.set(crawler.category, (counts.get(crawler.category) ?? 0) + 1);
  return counts;
}

function agentsJson(model: Model, generatedAt: string): string {
  const counts = categoryCounts(model);
  return canonicalJson({
    count: model.crawlers.length,
    generated_at: generatedAt,
    license: model.site.license,
    operator_count: model.operators.length,
    categories: model.categories.map((c) => ({
      id: c.id,
      label: c.label,
      ai: c.ai,
      definition: c.definition,
      count: counts.get(c.id) ?? 0,
      json_url: url(model.site, href('category', c.id)),
    })),
    policies: model.policies.map((p) => ({
      id: p.id,
      title: p.title,
      crawler_count: p.crawlers.length,
      json_url: url(model.site, href('policy', p.id)),
      robots_url: url(model.site, href('robots', p.id)),
    })),
    endpoints: endpointMap(model),
    // The citations stay in each crawler's own document (json_url): with them the list passed
    // 2 MB at 670 crawlers (docs/API.md §2.2).
    crawlers: model.crawlers.map(({ citations: _citations, ...listed }) => listed),
  });
}

function agentsCsv(model: Model): string {
  return csvTable(
    SPEC_FIELDS,
    model.crawlers.map((crawler) => SPEC_FIELDS.map((field) => crawler[field])),
  );
}

/** Every pattern that recognises one of the crawlers, variants and full forms included: robots-only control tokens have none. */
function patternsOf(crawlers: readonly CrawlerView[]): string[] {
  return crawlers.flatMap(userAgentPatterns);
}

/** Patterns are already written; the alternation only orders and joins them. */
const asWritten = (pattern: string) => pattern;

function uaRegexJson(model: Model): string {
  const ai = new Set(model.categories.filter((c) => c.ai).map((c) => c.id));
  return canonicalJson({
    flavor: `Pre-escaped alternations valid in JavaScript, PCRE and RE2, written as the crawlers send their tokens; add the case-insensitive flag (i) to match as classify-ua does, ignoring the case of ASCII letters. Match anywhere in the User-Agent header. Each crawler's substring counts only as a token of its own, the rule classify-ua and the server configs apply: ${TOKEN_RULE_WORDS} (so Exabot is not found in Alexabot, nor Google-Agent in a URL ending /google-agent-search); the boundaries are written as groups, not \\b or lookaround, so a match may include the one character beside the token. A crawler whose token other software also sends is matched only by the whole headers it sends (user_agent_full_forms), each anchored with ^ and $. A set with no crawler is [^\\s\\S], which matches nothing.`,
    all: alternation(patternsOf(model.crawlers), asWritten),
    ai_only: alternation(patternsOf(model.crawlers.filter((c) => ai.has(c.category))), asWritten),
    by_category: Object.fromEntries(model.categories.map((c) => [c.id, alternation(patternsOf(model.crawlers.filter((x) => x.category === c.id)), asWritten)])),
  });
}

export function renderData(model: Model): RenderedFile[] {
  return [
    { path: href('agents'), kind: 'data', body: (stamp) => agentsJson(model, stamp) },
    { path: href('agents_csv'), kind: 'data', body: agentsCsv(model) },
    { path: href('ua_regex'), kind: 'data', body: uaRegexJson(model) },
  ];
}
