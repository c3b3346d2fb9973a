import type { SiteSettings } from '../records/types.ts';
import { TOOLS, type ToolDefinition } from '../tools/registry/index.ts';
import { href, TOOLS_FOLDER } from '../paths.ts';
import type { Model } from '../model/model.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';

// The A2A agent card (/.well-known/agent-card.json) for POST /a2a, which speaks A2A 1.0
// (SendMessage) and 0.3 (message/send) on one URL. One static card serves both generations,
// so any static host can publish it: A2A 1.0 clients read `supportedInterfaces` (1.0 listed
// first, as the preferred one); 0.3 clients read the top-level `url`, `preferredTransport` and
// `protocolVersion`, which 1.0 dropped. This is the hybrid shape the A2A JavaScript SDK's own
// compatibility layer sends to 0.3 clients, and 1.0 SDKs read it as a 1.0 card.
// Its skills are the tool registry's tools; A2A_PROMPTS are the ones /a2a also reaches from
// plain language, and each example below is a message /a2a answers as written.

/** The 0.3 field's value: that generation's cards named the full version. */
const LEGACY_PROTOCOL_VERSION = '0.3.0';
const AGENT_VERSION = '1.1.0';

/** Plain-language examples for the tools /a2a routes to without a data part. */
export const A2A_PROMPTS: Readonly<Record<string, readonly string[]>> = {
  classify_user_agent: [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)',
    'User-Agent: Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ],
  verify_batch: ['Is 66.249.66.1 really Googlebot?', '20.171.206.10, 192.0.2.1 GPTBot'],
  audit_ai_access: ['User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /'],
  whoami: ['Who am I?'],
  crawler_markdown: ['What is PerplexityBot?', 'Can GPTBot fetch /search?', 'Should I block PerplexityBot?'],
  verification_methods: ['Which crawlers does OpenAI run?'],
  check_path_allowed: ['Can GPTBot fetch /search?\nUser-agent: GPTBot\nDisallow: /search'],
  policy_markdown: ['How do I block AI training but keep AI search?'],
  server_config: ['nginx config to block AI training'],
};

const PARAM_TAGS: Readonly<Record<string, string>> = {
  robots_txt: 'robots.txt',
  ua: 'user-agent',
  ip: 'ip-verification',
  lines: 'access-log',
  crawler: 'crawler-record',
  policy: 'robots-policy',
};

function tagsOf(tool: ToolDefinition): string[] {
  const tags = new Set(['crawlers', ...tool.params.map((p) => PARAM_TAGS[p.name]).filter((t): t is string => t !== undefined)]);
  if (tool.params.length === 0) tags.add('no-input');
  if (A2A_PROMPTS[tool.name]) tags.add('plain-language');
  return [...tags];
}

/** A data part that calls this tool directly, as /a2a accepts it. */
function dataExample(tool: ToolDefinition, input: unknown): string {
  return JSON.stringify({ skill: tool.name, input });
}

export function agentCard(site: SiteSettings): unknown {
  const endpoint = `${site.base_url}${href('a2a')}`;
  return {
    name: site.name,
    description:
      'Identifies web crawlers from User-Agent headers, verifies crawler IP addresses against operator-published ranges, audits robots.txt files against every AI crawler in an open, keyless index, and answers questions such as "Can GPTBot fetch /search?" or "How do I block AI training but keep AI search?". Send plain text or a data part {"skill": "<skill id>", "input": {...}}.',
    supportedInterfaces: [
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ],
    provider: { organization: site.name, url: site.base_url },
    version: AGENT_VERSION,
    documentationUrl: `${site.base_url}${TOOLS_FOLDER}`,
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: TOOLS.map((tool) => ({
      id: tool.name,
      name: tool.title,
      description: tool.description,
      tags: tagsOf(tool),
      examples: [...(A2A_PROMPTS[tool.name] ?? []), ...tool.examples.map((e) => dataExample(tool, e.input))],
      inputModes: ['text/plain', 'application/json'],
      outputModes: ['text/plain', 'application/json'],
    })),
    // A2A 0.3's fields, for clients that have not moved to 1.0.
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    url: endpoint,
    preferredTransport: 'JSONRPC',
    supportsAuthenticatedExtendedCard: false,
  };
}

/** The stored card, for static hosts; the server answers the same path with its own origin (http/a2a/agent-card-answer.ts). */
export function renderAgentCard(model: Model): RenderedFile[] {
  return [{ path: href('agent_card'), kind: 'agent-card', body: canonicalJson(agentCard(model.site)) }];
}
