import { VERIFICATION_METHODS, type VerificationMethod } from '../../records/types.ts';
// What the crawler tools share: the User-Agent parameter, how a classification is summarised,
// and finding crawlers by any name a person might type.
import { classify, UA_LIMIT_BYTES, type Classification } from '../classify/index.ts';
import type { ParamSpec, ToolData } from '../registry/types.ts';
import { howToVerify } from '../verify/index.ts';
import { crawlerFields } from '../../model/crawler-fields.ts';

export const UA_PARAM = {
  name: 'ua',
  kind: 'string',
  required: true,
  maxBytes: UA_LIMIT_BYTES,
  description: 'The User-Agent header value exactly as the request carried it.',
  http: 'URL-encoded in the query string.',
  accepted: `a User-Agent header value, 1 to ${UA_LIMIT_BYTES} bytes, no control characters other than tab`,
  example: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)',
} as const satisfies ParamSpec;

export const EXAMPLE_UA = UA_PARAM.example;

export function summarizeClassification(o: Classification): string {
  if (o.matched)
    return `${o.crawler.name} by ${o.crawler.operator} (${o.crawler.category_label}); ${o.crawler.robots_token === null ? 'no documented robots.txt token (its record says why)' : `robots.txt token ${o.crawler.robots_token}`}; ${o.crawler.respects_robots_txt_label}; verification: ${o.crawler.verification_label}. Blocking it: ${o.crawler.cost_of_blocking} Matched on "${o.matched_substring}".`;
  // A header that was not examined gets no guess about its shape: say why instead.
  if (o.input_issue !== null) return `No crawler in the index matches this User-Agent. ${o.heuristic.note}`;
  if (o.client !== null) return `No crawler in the index matches this User-Agent. ${o.client.note} ${o.client.name}: ${o.client.what_it_is}`;
  return `No crawler in the index matches this User-Agent. Heuristic (not an identification): ${o.heuristic.looks_automated ? 'it looks automated' : 'it does not look automated'}.`;
}

export const classificationSchema = {
  type: 'object',
  required: ['matched'],
  properties: {
    matched: { type: 'boolean' },
    crawler: { type: 'object' },
    client: {
      type: ['object', 'null'],
      description: 'When no crawler matches: the non-crawler client (HTTP library, uptime monitor, tool) whose default header this is, or null.',
    },
    heuristic: { type: 'object' },
  },
};

/** Finds a crawler by slug, robots token, name, operator or a User-Agent substring. */
export function findCrawlers(data: ToolData, query: string) {
  const q = query.trim().toLowerCase();
  const exact = data.crawlers.filter((c) => c.slug === q || c.robots_token?.toLowerCase() === q || c.name.toLowerCase() === q);
  if (exact.length > 0) return exact;
  const byOperator = crawlersOfOperator(data, query);
  if (byOperator.length > 0) return byOperator;
  const classified = classify(data.classifier, query);
  if (classified.matched) return data.crawlers.filter((c) => c.slug === classified.crawler.slug);
  return data.crawlers.filter((c) => c.user_agent_substring?.toLowerCase().includes(q) ?? false);
}

/** The crawlers of the operator whose slug or name the query is; empty when it names no operator. */
function crawlersOfOperator(data: ToolData, query: string) {
  const q = query.trim().toLowerCase();
  return data.crawlers.filter((c) => c.operator_slug === q || c.operator.toLowerCase() === q);
}

export function verificationMethods(data: ToolData, query: string | null) {
  // An operator's name asks for all its crawlers, also where one of them has the same name (yandex):
  // they are verified the same way, and the one named is among them.
  const ofOperator = query === null ? [] : crawlersOfOperator(data, query);
  const selected = query === null ? data.crawlers : ofOperator.length > 0 ? ofOperator : findCrawlers(data, query);
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  const entries = selected.map((c) => ({
    ...crawlerFields(c, ['slug', 'name', 'operator']),
    ...howToVerify(c),
    mirrors: c.ip_sources.map((id) => {
      const s = sources.get(id);
      return {
        id,
        endpoint: s?.endpoint ?? null,
        state: s?.state ?? 'unknown',
        ipv4_count: s?.ipv4_count ?? 0,
        ipv6_count: s?.ipv6_count ?? 0,
        fetched_at: s?.confirmed_at ?? null,
      };
    }),
  }));
  // tally: each crawler once, by its strongest method; documented: each method every crawler offers.
  const tally = Object.fromEntries(VERIFICATION_METHODS.map((m) => [m, 0])) as Record<VerificationMethod, number>;
  const documented = { ...tally };
  for (const e of entries) {
    tally[e.method]++;
    for (const m of e.methods) documented[m]++;
  }
  return { query, matched: entries.length, tally, documented, crawlers: entries };
}
