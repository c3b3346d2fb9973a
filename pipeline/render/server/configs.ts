// Every policy as a config file for each server in DIALECTS: /policy/{policy}.nginx.conf,
// .apache.conf, .caddy.conf and .haproxy.conf. Plain text with `#` comments (all four servers read them),
// so any static host serves them and a site owner reads what a file does before including it.

import type { Model, PolicyView } from '../../model/model.ts';
import { url } from '../../model/model.ts';
import type { SiteSettings } from '../../records/types.ts';
import { href } from '../../paths.ts';
import type { RenderedFile } from '../output.ts';
import { DIALECTS, type Dialect } from './dialects.ts';
import { policyMatcher, type PolicyMatcher } from './matcher.ts';
import { TOKEN_RULE_WORDS } from '../../tools/classify/token.ts';

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

function header(site: SiteSettings, matcher: PolicyMatcher, dialect: Dialect, stamp: string): string[] {
  const { policy } = matcher;
  const crawlerCount = matcher.lines.reduce((n, line) => n + line.crawlers.length, 0);
  const verb = matcher.action === 'deny' ? 'Blocks (answers 403 to)' : 'Names, without blocking,';
  return [
    `${site.name} policy "${policy.id}" for ${dialect.label}: ${policy.title}`,
    `Content last changed ${stamp.slice(0, 10)}. Built from the index's records; source: ${url(site, href('policy_html', policy.id))}`,
    `Accuracy of this file against real browser and crawler headers: ${url(site, href('policy_accuracy'))}`,
    '',
    crawlerCount === 0
      ? 'Matches no crawler: this policy names none that a User-Agent rule can catch.'
      : `${verb} ${crawlerCount} crawler${crawlerCount === 1 ? '' : 's'} by the User-Agent token each sends, ignoring case, only where it`,
    ...(crawlerCount === 0 ? [] : ['stands as a word of its own,', `that is with ${TOKEN_RULE_WORDS}:`]),
    ...matcher.lines.flatMap((line) => line.crawlers.map((c) => `  ${c.name} (${c.operator}): ${line.label}`)),
    ...(matcher.unenforceable.length === 0
      ? []
      : [
          '',
          `Cannot enforce ${matcher.unenforceable.length}: keep the robots.txt fragment ${url(site, href('robots', policy.id))} for them.`,
          ...matcher.unenforceable.map(({ crawler, why }) => `  ${crawler.robots_token ?? crawler.name} (${crawler.operator}): ${oneLine(why)}`),
        ]),
    '',
    'Anyone can send any User-Agent. To tell a real crawler from one that only claims its name, use the',
    `verified address lists: ${url(site, href('ip_sources'))} names one nginx geo and one HAProxy file per list.`,
    '',
    ...dialect.usage(matcher),
  ].map((line) => (line === '' ? '#' : `# ${line}`));
}

/** The text of /policy/{policy}.<ext>; the tools and the accuracy table call it too. */
export function serverConfig(site: SiteSettings, policy: PolicyView, dialect: Dialect, stamp: string): string {
  const matcher = policyMatcher(policy);
  return [...header(site, matcher, dialect, stamp), '', ...dialect.body(matcher), ''].join('\n');
}

export function renderServerConfigs(model: Model): RenderedFile[] {
  return model.policies.flatMap((policy) =>
    DIALECTS.map(
      (dialect): RenderedFile => ({
        path: href(dialect.route, policy.id),
        kind: 'server-config',
        body: (stamp) => serverConfig(model.site, policy, dialect, stamp),
      }),
    ),
  );
}
