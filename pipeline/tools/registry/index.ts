import { auditTool } from '../definitions/audit-ai-access.ts';
import { allowedTool } from '../definitions/check-path-allowed.ts';
import { classifyTool } from '../definitions/classify-user-agent.ts';
import { crawlerMarkdownTool } from '../definitions/crawler-markdown.ts';
import { exampleTool } from '../definitions/example.ts';
import { lintTool } from '../definitions/lint-robots-txt.ts';
import { policyMarkdownTool } from '../definitions/policy-markdown.ts';
import { mergePolicyTool } from '../definitions/merge-policy.ts';
import { serverConfigTool } from '../definitions/server-config.ts';
import { siteCheckTool } from '../definitions/site-check.ts';
import { triageTool } from '../definitions/triage-log-lines.ts';
import { verificationMethodsTool } from '../definitions/verification-methods.ts';
import { verifyTool } from '../definitions/verify-batch.ts';
import { verifySignatureTool } from '../definitions/verify-signature.ts';
import { whoamiTool } from '../definitions/whoami.ts';
import type { ToolDefinition } from './types.ts';

export type { ToolDefinition, ToolData, Caller } from './types.ts';

/** Every tool, once. The HTTP endpoints, MCP servers and A2A skills are generated from this list. */
export const TOOLS: readonly ToolDefinition[] = [
  auditTool,
  classifyTool,
  exampleTool,
  allowedTool,
  lintTool,
  verificationMethodsTool,
  verifyTool,
  verifySignatureTool,
  whoamiTool,
  siteCheckTool,
  triageTool,
  crawlerMarkdownTool,
  policyMarkdownTool,
  mergePolicyTool,
  serverConfigTool,
];

export function toolByName(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}

/**
 * The MCP servers (docs/API.md §4.6): `/mcp` offers every tool; the focused servers offer a
 * few each, for clients that load every tool they are given. Every path ends in /mcp, because
 * the official MCP Inspector rewrites a URL that does not; the paths these servers had before
 * (`legacyPath`) keep answering.
 */
export const MCP_SERVERS: readonly { id: string; path: string; legacyPath: string | null; name: string; description: string; tools: readonly string[] }[] = [
  {
    id: 'all',
    path: '/mcp',
    legacyPath: null,
    name: 'crawler-index',
    description:
      'Every Crawler Index tool: identify crawlers from User-Agent headers, verify their addresses, evaluate, lint and audit robots.txt files, and read crawler records and policies as Markdown.',
    tools: TOOLS.map((t) => t.name),
  },
  {
    id: 'robots',
    path: '/robots/mcp',
    legacyPath: '/mcp/robots',
    name: 'crawler-index-robots',
    description: 'Evaluate, lint, audit robots.txt files under RFC 9309, and merge a policy into one.',
    tools: ['audit_ai_access', 'check_path_allowed', 'lint_robots_txt', 'merge_policy'],
  },
  {
    id: 'netcheck',
    path: '/netcheck/mcp',
    legacyPath: '/mcp/netcheck',
    name: 'crawler-index-netcheck',
    description: 'Verify crawlers: IP addresses against operator-published prefixes, and signed requests (Web Bot Auth) against key directories.',
    tools: ['verification_methods', 'verify_batch', 'verify_signature'],
  },
  {
    id: 'doctor',
    path: '/doctor/mcp',
    legacyPath: '/mcp/doctor',
    name: 'crawler-index-doctor',
    description: 'One-call robots.txt check-up for a site.',
    tools: ['site_check'],
  },
  {
    id: 'lint',
    path: '/lint/mcp',
    legacyPath: '/mcp/lint',
    name: 'crawler-index-lint',
    description: 'robots.txt linting and evaluation.',
    tools: ['lint_robots_txt', 'check_path_allowed'],
  },
  {
    id: 'triage',
    path: '/triage/mcp',
    legacyPath: '/mcp/triage',
    name: 'crawler-index-triage',
    description: 'Classify and verify batches of access-log lines.',
    tools: ['triage_log_lines', 'classify_user_agent', 'verify_batch'],
  },
  {
    id: 'markdown',
    path: '/markdown/mcp',
    legacyPath: '/mcp/markdown',
    name: 'crawler-index-markdown',
    description: 'Crawler records and robots.txt policies as Markdown for models, and the policies as web server configs.',
    tools: ['crawler_markdown', 'policy_markdown', 'server_config'],
  },
];
