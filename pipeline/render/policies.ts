import type { CrawlerView, Model, PolicyView } from '../model/model.ts';
import { url } from '../model/model.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';
import { DIALECTS } from './server/dialects.ts';

/** Naming a crawler that says robots.txt does not apply records a wish, not a block. */
function effect(policy: PolicyView, crawler: CrawlerView): string | null {
  if (crawler.respects_robots_txt === 'ignores') return 'The operator says robots.txt does not apply to this fetcher, so this line may have no effect.';
  if (crawler.respects_robots_txt === 'disputed' && policy.directive === 'disallow')
    return 'Reported to ignore robots.txt; block it at the server or WAF as well.';
  if (!crawler.robots_token_is_product_token) return crawler.robots_token_note;
  return null;
}

function policyJson(model: Model, policy: PolicyView): string {
  return canonicalJson({
    id: policy.id,
    title: policy.title,
    directive: policy.directive,
    select: policy.select ?? null,
    rationale: policy.rationale,
    caveats: policy.caveats,
    json_url: url(model.site, href('policy', policy.id)),
    robots_url: url(model.site, href('robots', policy.id)),
    // The same policy enforced at the server, by User-Agent, as the HTML page links it.
    server_configs: Object.fromEntries(DIALECTS.map((dialect) => [dialect.id, url(model.site, href(dialect.route, policy.id))])),
    crawler_count: policy.crawlers.length,
    crawlers: policy.crawlers.map((crawler) => ({
      slug: crawler.slug,
      name: crawler.name,
      operator: crawler.operator,
      category: crawler.category,
      robots_token: crawler.robots_token,
      respects_robots_txt: crawler.respects_robots_txt,
      note: effect(policy, crawler),
      json_url: crawler.json_url,
    })),
  });
}

/**
 * A fragment to append to an existing robots.txt: one group per token (the most widely
 * understood form), each preceded by a comment naming the crawler so a reader knows what a
 * line is for. The date is when the fragment's content last changed.
 */
function robotsFragment(model: Model, policy: PolicyView, stamp: string): string {
  const lines = [
    `# ${model.site.name} policy "${policy.id}": ${policy.title}`,
    `# Content last changed ${stamp.slice(0, 10)}. Source: ${url(model.site, href('policy', policy.id))}`,
    `# ${policy.crawlers.length === 0 ? 'Names no crawler' : `Names ${policy.crawlers.length} crawler${policy.crawlers.length === 1 ? '' : 's'}`}. Append to your robots.txt; read the policy's caveats first.`,
    '',
  ];
  const rule = policy.directive === 'allow' ? 'Allow: /' : 'Disallow: /';
  for (const crawler of policy.directive === 'none' ? [] : policy.crawlers) {
    const note = effect(policy, crawler);
    lines.push(`# ${crawler.name} (${crawler.operator}, ${crawler.category})${note ? `: ${note}` : ''}`);
    lines.push(`User-agent: ${crawler.robots_token}`, rule, '');
  }
  return lines.join('\n');
}

export function renderPolicies(model: Model): RenderedFile[] {
  return model.policies.flatMap((policy): RenderedFile[] => [
    { path: href('policy', policy.id), kind: 'policy', body: policyJson(model, policy) },
    { path: href('robots', policy.id), kind: 'robots', body: (stamp) => robotsFragment(model, policy, stamp) },
  ]);
}
