import { crawlerMarkdown } from '../../render/crawlers.ts';
import { classify, inputIssue, UA_LIMIT_BYTES, type Classification } from '../classify/index.ts';
import { howToVerify, lookup, MAX_ADDRESSES_PER_CALL, verifyBatch, type BatchAnswer } from '../verify/index.ts';
import type { ToolData, ToolDefinition } from './types.ts';
import { listOf, textOf } from './input.ts';


const UA_PARAM = {
  name: 'ua', kind: 'string' as const, required: true, maxBytes: UA_LIMIT_BYTES,
  description: 'The raw User-Agent header value, URL-encoded.',
  accepted: `a User-Agent header value, 1 to ${UA_LIMIT_BYTES} bytes, no control characters other than tab`,
  example: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)',
};

export const EXAMPLE_UA = UA_PARAM.example;

function summarizeClassification(output: unknown): string {
  const o = output as Classification;
  if (o.matched) return `${o.crawler.name} by ${o.crawler.operator} (${o.crawler.category_label}); robots.txt token ${o.crawler.robots_token}; ${o.crawler.respects_robots_txt_label}; verification: ${o.crawler.verification_label}. Blocking it: ${o.crawler.cost_of_blocking} Matched on "${o.matched_substring}".`;
  return `No crawler in the index matches this User-Agent. Heuristic (not an identification): ${o.heuristic.looks_automated ? 'it looks automated' : 'it does not look automated'}.`;
}

const classificationSchema = { type: 'object', required: ['matched'], properties: { matched: { type: 'boolean' }, crawler: { type: 'object' }, heuristic: { type: 'object' } } };

export const classifyTool: ToolDefinition = {
  name: 'classify_user_agent',
  path: 'classify-ua',
  title: 'Which crawler is this User-Agent?',
  description: 'Identifies the crawler behind a User-Agent header: operator, category, robots.txt token and stance, verification method, cost of blocking, record URL. The most specific substring wins (Googlebot-Image over Googlebot). An unmatched header is reported as unmatched, with a clearly labelled heuristic that is never an identification.',
  params: [UA_PARAM],
  outputSchema: classificationSchema,
  examples: [{ description: 'GPTBot', input: { ua: UA_PARAM.example } }],
  run: (input, { data }) => classify(data.classifier, textOf(input, 'ua')),
  summarize: summarizeClassification,
};

export const exampleTool: ToolDefinition = {
  name: 'example',
  path: 'example',
  title: 'A worked example',
  description: 'Runs classify_user_agent on a canned GPTBot User-Agent and returns the real answer, to show the shape of a tool call.',
  params: [],
  runsWithoutParams: true,
  outputSchema: { type: 'object', required: ['tool', 'input', 'output'], properties: { tool: { const: 'classify_user_agent' }, input: { type: 'object' }, output: classificationSchema } },
  examples: [{ description: 'No input', input: {} }],
  run: (_input, context) => ({ tool: 'classify_user_agent', input: { ua: EXAMPLE_UA }, output: classifyTool.run({ ua: EXAMPLE_UA }, context) }),
  summarize: (output) => `classify_user_agent("${EXAMPLE_UA}") → ${summarizeClassification((output as { output: unknown }).output)}`,
};

/** Finds a crawler by slug, robots token, name, operator or a User-Agent substring. */
function findCrawlers(data: ToolData, query: string) {
  const q = query.trim().toLowerCase();
  const exact = data.crawlers.filter((c) => c.slug === q || c.robots_token.toLowerCase() === q || c.name.toLowerCase() === q);
  if (exact.length > 0) return exact;
  const byOperator = data.crawlers.filter((c) => c.operator_slug === q || c.operator.toLowerCase() === q);
  if (byOperator.length > 0) return byOperator;
  const classified = classify(data.classifier, query);
  if (classified.matched) return data.crawlers.filter((c) => c.slug === classified.crawler.slug);
  return data.crawlers.filter((c) => c.user_agent_substring !== null && c.user_agent_substring.toLowerCase().includes(q));
}

export function verificationMethods(data: ToolData, query: string | null) {
  const selected = query === null ? data.crawlers : findCrawlers(data, query);
  const sources = new Map(data.sources.map((s) => [s.id, s]));
  const entries = selected.map((c) => ({
    slug: c.slug, name: c.name, operator: c.operator,
    ...howToVerify(c),
    mirrors: c.ip_sources.map((id) => {
      const s = sources.get(id);
      return { id, endpoint: s?.endpoint ?? null, state: s?.state ?? 'unknown', ipv4_count: s?.ipv4_count ?? 0, ipv6_count: s?.ipv6_count ?? 0, fetched_at: s?.last_success ?? null };
    }),
  }));
  const tally = { 'published-ranges': 0, 'reverse-dns': 0, none: 0 } as Record<string, number>;
  for (const e of entries) tally[e.method] = (tally[e.method] ?? 0) + 1;
  return { query, matched: entries.length, tally, crawlers: entries };
}

export const verificationMethodsTool: ToolDefinition = {
  name: 'verification_methods',
  path: 'verification-methods',
  title: 'How can each crawler be verified?',
  description: 'Says which crawlers verify by operator-published IP prefixes (with mirror counts and fetch dates), which by forward-confirmed reverse DNS (with the two DNS lookup commands), and which publish no method. With crawler: one crawler (slug, name, operator or user-agent substring); without: the whole tally.',
  params: [{ name: 'crawler', kind: 'string', required: false, maxBytes: 512, description: 'A crawler slug, name, robots token, operator or user-agent substring.', accepted: 'a crawler slug (gptbot), name, robots token, operator (openai) or user-agent substring, at most 512 bytes; omit for every crawler' }],
  outputSchema: { type: 'object', required: ['query', 'matched', 'tally', 'crawlers'], properties: { tally: { type: 'object', required: ['published-ranges', 'reverse-dns', 'none'] }, crawlers: { type: 'array', items: { type: 'object', required: ['slug', 'method', 'steps', 'commands'] } } } },
  examples: [{ description: 'Googlebot', input: { crawler: 'googlebot' } }, { description: 'The whole tally', input: {} }],
  run: (input, { data }) => verificationMethods(data, input['crawler'] === undefined ? null : textOf(input, 'crawler')),
  summarize: (output) => {
    const o = output as ReturnType<typeof verificationMethods>;
    if (o.matched === 0) return `No crawler matches "${o.query}".`;
    const head = `${o.matched} crawler${o.matched === 1 ? '' : 's'}: ${o.tally['published-ranges']} by published prefixes, ${o.tally['reverse-dns']} by reverse DNS, ${o.tally['none']} with no method.`;
    return o.matched <= 5 ? `${head}\n${o.crawlers.map((c) => `${c.name}: ${c.steps.join(' ')}`).join('\n')}` : head;
  },
};

export const verifyTool: ToolDefinition = {
  name: 'verify_batch',
  path: 'verify-crawler',
  title: 'Is this address really that crawler?',
  description: 'Checks up to 500 IPv4/IPv6 addresses against every operator-published prefix list. With ua (a claimed crawler token or a whole User-Agent header) each address gets a verdict: genuine, in the claimed operator\'s range for another crawler, in another operator\'s range, in no published range (with how else to verify), or an unknown claim. Invalid items are reported one by one.',
  params: [
    { name: 'ip', kind: 'list', required: true, maxItems: MAX_ADDRESSES_PER_CALL, split: 'addresses', description: 'Addresses: repeat the parameter or separate with commas or spaces.', accepted: `1 to ${MAX_ADDRESSES_PER_CALL} IPv4 or IPv6 addresses (repeat ip= or separate with commas or spaces)`, example: '20.171.206.10' },
    { name: 'ua', kind: 'string', required: false, maxBytes: UA_LIMIT_BYTES, description: 'The claimed crawler: a robots token such as GPTBot, or the whole User-Agent header; applied to every address.', accepted: `a robots token or User-Agent header, at most ${UA_LIMIT_BYTES} bytes` },
  ],
  outputSchema: { type: 'object', required: ['claim', 'received', 'checked', 'limit', 'results', 'summary'], properties: { results: { type: 'array', items: { type: 'object', required: ['input', 'valid'] } } } },
  examples: [{ description: 'Two addresses claiming to be GPTBot', input: { ip: ['20.171.206.10', '192.0.2.1'], ua: 'GPTBot' } }],
  run: (input, { data }) => verifyBatch(data.prefixes, data.crawlers, listOf(input, 'ip'), input['ua'] === undefined ? undefined : textOf(input, 'ua')),
  summarize: (output) => {
    const o = output as BatchAnswer;
    const verdicts = o.summary.verdicts ? Object.entries(o.summary.verdicts).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`).join(', ') : null;
    return `${o.checked} address${o.checked === 1 ? '' : 'es'} checked: ${o.summary.in_published_ranges} in a published range, ${o.summary.invalid} invalid.${verdicts ? ` Verdicts: ${verdicts}.` : ''}${o.claim && !o.claim.resolved ? ` Claim: ${o.claim.note}` : ''}`;
  },
};

export const whoamiTool: ToolDefinition = {
  name: 'whoami',
  path: 'whoami',
  title: 'Who does this service think I am?',
  description: 'Answers about the calling request: the User-Agent sent, the source address, whether the index recognises the caller, and whether an operator publishes a prefix containing the address. Whether the caller was seen before and how it is booked need the request log, which this service does not keep yet: those fields say so instead of guessing.',
  params: [],
  runsWithoutParams: true,
  outputSchema: { type: 'object', required: ['user_agent', 'address', 'recognised', 'in_published_range', 'seen_before', 'booked_as'] },
  examples: [{ description: 'No input', input: {} }],
  run: (_input, { data, caller }) => {
    const classification = caller.userAgent !== null && inputIssue(caller.userAgent) === null ? classify(data.classifier, caller.userAgent) : null;
    const found = caller.address ? lookup(data.prefixes, caller.address) : null;
    return {
      user_agent: caller.userAgent,
      address: caller.address,
      recognised: classification?.matched ? { slug: classification.crawler.slug, name: classification.crawler.name, operator: classification.crawler.operator } : null,
      in_published_range: found && found.valid && found.matches.length > 0 ? found.matches.map((m) => ({ source: m.source, operator: m.operator, prefix: m.prefix })) : [],
      seen_before: { known: false, reason: 'This service keeps no request log yet, so it cannot say.' },
      booked_as: { known: false, reason: 'This service keeps no request log yet, so it books no caller.' },
    };
  },
  summarize: (output) => {
    const o = output as { user_agent: string | null; address: string | null; recognised: { name: string } | null; in_published_range: { source: string }[] };
    return `You sent User-Agent "${o.user_agent ?? ''}" from ${o.address ?? 'an unknown address'}. ${o.recognised ? `The index recognises it as ${o.recognised.name}.` : 'The index does not recognise it.'} ${o.in_published_range.length > 0 ? `The address is in ${o.in_published_range.map((m) => m.source).join(', ')}.` : 'The address is in no operator-published range.'}`;
  },
};

export const crawlerMarkdownTool: ToolDefinition = {
  name: 'crawler_markdown',
  path: null,
  title: 'A crawler record as Markdown',
  description: 'Returns the record of one crawler (by slug, name, robots token or user-agent substring) as Markdown for a model to read or quote.',
  params: [{ name: 'crawler', kind: 'string', required: true, maxBytes: 512, description: 'A crawler slug, name, robots token or user-agent substring.', accepted: 'a crawler slug (gptbot), name, robots token or user-agent substring' }],
  outputSchema: { type: 'object', required: ['matched', 'markdown'], properties: { matched: { type: 'array', items: { type: 'string' } }, markdown: { type: 'string' } } },
  examples: [{ description: 'GPTBot', input: { crawler: 'GPTBot' } }],
  run: (input, { data }) => {
    const found = findCrawlers(data, textOf(input, 'crawler')).slice(0, 5);
    return { matched: found.map((c) => c.slug), markdown: found.length === 0 ? `No crawler in the index matches "${textOf(input, 'crawler')}".\n` : found.map(crawlerMarkdown).join('\n---\n\n') };
  },
  summarize: (output) => (output as { markdown: string }).markdown,
};

export const policyMarkdownTool: ToolDefinition = {
  name: 'policy_markdown',
  path: null,
  title: 'A robots.txt policy as Markdown',
  description: 'Returns one of the 8 ready-made robots.txt policies as Markdown: rationale, caveats, the crawlers it names, and the fragment to append.',
  params: [{ name: 'policy', kind: 'string', required: true, maxBytes: 64, description: 'The policy id.', accepted: 'allow-all, block-ai-training, block-all-ai, block-datasets, allow-ai-search-only, block-seo-tools, block-disputed or maximum-ai-visibility' }],
  outputSchema: { type: 'object', required: ['policy', 'markdown'], properties: { policy: { type: ['string', 'null'] }, markdown: { type: 'string' } } },
  examples: [{ description: 'Block AI training', input: { policy: 'block-ai-training' } }],
  run: (input, { data }) => {
    const policy = data.policies.find((p) => p.id === textOf(input, 'policy'));
    if (!policy) return { policy: null, markdown: `No policy "${textOf(input, 'policy')}". Policies: ${data.policies.map((p) => p.id).join(', ')}.\n` };
    const rule = policy.directive === 'allow' ? 'Allow: /' : 'Disallow: /';
    const fragment = policy.directive === 'none' ? '# (names no crawler)' : policy.crawlers.map((c) => `User-agent: ${c.robots_token}\n${rule}`).join('\n\n');
    const markdown = [`# ${policy.title} (\`${policy.id}\`)`, '', policy.rationale, '', '## Caveats', '', ...policy.caveats.map((c) => `- ${c}`), '', `## Crawlers named (${policy.crawlers.length})`, '',
      ...policy.crawlers.map((c) => `- \`${c.robots_token}\` (${c.slug}, ${c.respects_robots_txt})${c.note ? `: ${c.note}` : ''}`), '', '## Fragment', '', '```', fragment, '```', '', `Source: ${data.baseUrl}/policy/${policy.id}.json`, ''].join('\n');
    return { policy: policy.id, markdown };
  },
  summarize: (output) => (output as { markdown: string }).markdown,
};
