// Verified-only allow-lists: for each mirrored operator list, an nginx `geo` file and an HAProxy
// ACL file of its prefixes, so a site can let the real crawler in and refuse a request that only
// claims its User-Agent. Rendered from the mirror, so every refresh that changes a list changes them.
//
// A crawler can be covered by several lists (Google's user-triggered fetchers send from two). A
// request claiming it is genuine when it comes from any of them, so each file's addresses are its
// own list joined with the lists that cover the same crawlers; the header names them.

import type { CrawlerView, Model, SourceView } from '../../model/model.ts';
import { url } from '../../model/model.ts';
import { href } from '../../paths.ts';
import { userAgentPatterns, userAgentSubstrings } from '../../records/user-agent-forms.ts';
import { compareText } from '../../util/compare.ts';
import type { RenderedFile } from '../output.ts';
import { haproxyQuote, NGINX_HASH_HINT, nginxQuote } from './dialects.ts';

interface AllowList {
  source: SourceView;
  /** The lists whose addresses count: this one and those sharing a crawler with it. */
  lists: readonly SourceView[];
  prefixes: readonly string[];
  /** The list's crawlers that send a User-Agent of their own, which a request can claim (in any of its forms). */
  claimable: readonly CrawlerView[];
  name: string;
}

function allowList(model: Model, source: SourceView): AllowList {
  const lists = model.sources.filter((other) => other === source || other.crawlers.some((slug) => source.crawlers.includes(slug)));
  const prefixes = [...new Set(lists.flatMap((s) => [...s.mirror.ipv4, ...s.mirror.ipv6]))].sort(compareText);
  const claimable = model.crawlers.filter((c) => source.crawlers.includes(c.slug) && c.user_agent_substring !== null);
  return { source, lists, prefixes, claimable, name: source.id.replaceAll('-', '_') };
}

function header(model: Model, list: AllowList, server: string, stamp: string): string[] {
  const { source } = list;
  const others = list.lists.filter((s) => s !== source);
  return [
    `${model.site.name}: verified addresses of ${source.title} (${source.operator}), for ${server}`,
    `Content last changed ${stamp.slice(0, 10)}. Mirrored from ${source.url}`,
    `State of the mirror: ${source.mirror.state}; last good fetch ${source.mirror.last_success ?? 'never'}. Rebuilt whenever the list changes: ${url(model.site, href('ip_ranges', source.id))}`,
    ...(others.length === 0
      ? []
      : [`Also holds ${others.map((s) => s.id).join(', ')}, which cover some of the same crawlers: a request from either is theirs.`]),
    `${list.prefixes.length} prefixes. User-Agents it vouches for:`,
    ...list.claimable.map((c) => `  ${c.name}: ${userAgentSubstrings(c).join(', ')}`),
    ...(list.prefixes.length === 0 ? ['', 'The list holds no prefixes yet, so the impostor rule below is off: it never refuses anyone.'] : []),
  ];
}

const comment = (lines: readonly string[]): string[] => lines.map((line) => (line === '' ? '#' : `# ${line}`));

function nginxText(model: Model, list: AllowList, stamp: string): string {
  const from = `$crawler_index_from_${list.name}`;
  const claims = `$crawler_index_claims_${list.name}`;
  const impostor = `$crawler_index_impostor_${list.name}`;
  return [
    ...comment([
      ...header(model, list, 'nginx', stamp),
      '',
      'Include this file inside http { }. Then inside server { }:   if ($crawler_index_impostor_' + `${list.name}) { return 403; }`,
      `${from} is 1 for an address in the list, ${claims} is 1 for a User-Agent naming one of`,
      `its crawlers, and ${impostor} is 1 when a request claims one of them from anywhere else.`,
      'Behind a proxy or CDN, set the client address first (real_ip_header, set_real_ip_from): geo reads $remote_addr.',
      NGINX_HASH_HINT,
    ]),
    '',
    `geo ${from} {`,
    '    default 0;',
    ...list.prefixes.map((prefix) => `    ${prefix} 1;`),
    '}',
    '',
    `map $http_user_agent ${claims} {`,
    '    default 0;',
    ...list.claimable.flatMap(userAgentPatterns).map((pattern) => `    ${nginxQuote(pattern)} 1;`),
    '}',
    '',
    `map "${claims}:${from}" ${impostor} {`,
    '    default 0;',
    ...(list.prefixes.length === 0 ? [] : ['    "1:0" 1;']),
    '}',
    '',
  ].join('\n');
}

function haproxyText(model: Model, list: AllowList, stamp: string): string {
  const file = `/etc/haproxy/${list.source.id}.list`;
  return [
    ...comment([
      ...header(model, list, 'HAProxy', stamp),
      '',
      `An HAProxy ACL file: one prefix per line. Save it as ${file} and, in a frontend:`,
      ...list.claimable
        .flatMap(userAgentPatterns)
        .map((pattern) => `  acl crawler_index_claims_${list.name} req.fhdr(user-agent) -m reg -i ${haproxyQuote(pattern)}`),
      `  acl crawler_index_from_${list.name} src -f ${file}`,
      ...(list.prefixes.length === 0 || list.claimable.length === 0
        ? []
        : [`  http-request deny deny_status 403 if crawler_index_claims_${list.name} !crawler_index_from_${list.name}`]),
      'Behind a proxy or CDN, match on the forwarded client address instead of src.',
    ]),
    ...list.prefixes,
    '',
  ].join('\n');
}

export function renderAllowLists(model: Model): RenderedFile[] {
  return model.sources.flatMap((source): RenderedFile[] => {
    const list = allowList(model, source);
    return [
      { path: href('ip_ranges_nginx', source.id), kind: 'allow-list', body: (stamp) => nginxText(model, list, stamp) },
      { path: href('ip_ranges_haproxy', source.id), kind: 'allow-list', body: (stamp) => haproxyText(model, list, stamp) },
    ];
  });
}
