import { aiTokens, allowedTool, auditAiAccess, auditTool, checkEvaluationBudget, LINT_SCHEMA, lintAnswer, lintTool } from './robots-tools.ts';
import { classifyTool, crawlerMarkdownTool, exampleTool, policyMarkdownTool, verificationMethodsTool, verifyTool, whoamiTool } from './crawler-tools.ts';
import { classify } from '../classify/index.ts';
import { evaluateMany, lintParsed, parseRobotsTxt } from '../robots/index.ts';
import { verifyBatch } from '../verify/index.ts';
import type { ToolDefinition } from './types.ts';
import { textOf } from './input.ts';

export type { ToolDefinition, ToolContext, ToolData, ToolInput, Caller, ParamSpec } from './types.ts';


/** The crawlers site_check always evaluates, AI or not. */
const KEY_TOKENS = ['Googlebot', 'Bingbot', 'GPTBot', 'OAI-SearchBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'Applebot'];

/** /mcp/doctor: one call that checks a site's robots.txt the ways a site owner needs. */
export const siteCheckTool: ToolDefinition = {
  name: 'site_check',
  path: null,
  title: 'One-call robots.txt check-up',
  description: 'Lints a robots.txt, audits which AI crawlers it blocks and lets in, and evaluates the home page for the best-known crawlers, in one call.',
  params: auditTool.params,
  outputSchema: { type: 'object', required: ['lint', 'ai_access', 'key_crawlers'], properties: { lint: LINT_SCHEMA, ai_access: auditTool.outputSchema } },
  examples: auditTool.examples,
  run: (input, { data }) => {
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const path = textOf(input, 'path') || '/';
    checkEvaluationBudget(parsed, [...aiTokens(data.crawlers, data.aiCategories), ...KEY_TOKENS], [path], 'robots_txt', 'Send a file with fewer rules (merge them with * patterns).');
    return {
      lint: lintAnswer(lintParsed(parsed)),
      ai_access: auditAiAccess(parsed, path, data.crawlers, data.aiCategories),
      key_crawlers: KEY_TOKENS.map((token) => ({ token, ...pick(evaluateMany(parsed, token, [path])[0]!) })),
    };
  },
  summarize: (output) => {
    const o = output as { lint: ReturnType<typeof lintAnswer>; ai_access: ReturnType<typeof auditAiAccess>; key_crawlers: { token: string; allowed: boolean }[] };
    const findings = o.lint.findings.length + o.lint.findings_omitted;
    return `${findings} lint finding${findings === 1 ? '' : 's'}. ${auditTool.summarize(o.ai_access)} Key crawlers: ${o.key_crawlers.map((k) => `${k.token} ${k.allowed ? 'allowed' : 'blocked'}`).join(', ')}.`;
  },
};

function pick(verdict: { allowed: boolean; deciding: { line: number; text: string } | null; reason: string }) {
  return { allowed: verdict.allowed, deciding: verdict.deciding ? { line: verdict.deciding.line, text: verdict.deciding.text } : null, reason: verdict.reason };
}

const LINE_LIMIT = 500;

/** /mcp/triage: classify and verify log lines (address + User-Agent) in one batch. */
export const triageTool: ToolDefinition = {
  name: 'triage_log_lines',
  path: null,
  title: 'Triage access-log lines',
  description: 'Takes up to 500 log lines, each an IP address followed by the User-Agent (for example "66.249.66.1 Mozilla/5.0 (compatible; Googlebot/2.1; …)"), and says per line which crawler the User-Agent claims and whether the address is genuinely that crawler\'s.',
  params: [{ name: 'lines', kind: 'list', required: true, maxItems: LINE_LIMIT, description: 'Log lines: an address, white space, then the User-Agent.', accepted: `1 to ${LINE_LIMIT} lines "<ip> <user-agent>" as an array (or one string with one line per row)` }],
  outputSchema: { type: 'object', required: ['lines', 'summary'] },
  examples: [{ description: 'One genuine and one spoofed Googlebot', input: { lines: ['66.249.66.1 Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', '203.0.113.9 Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'] } }],
  run: (input, { data }) => {
    const raw = Array.isArray(input['lines']) ? (input['lines'] as string[]) : textOf(input, 'lines').split(/\r?\n/);
    const lines = raw.flatMap((l) => l.split(/\r?\n/)).map((l) => l.trim()).filter(Boolean);
    const results = lines.map((line) => {
      const [address = '', ...rest] = line.split(/\s+/);
      const ua = rest.join(' ');
      const classification = ua ? classify(data.classifier, ua) : null;
      const verified = verifyBatch(data.prefixes, data.crawlers, [address], ua || undefined).results[0];
      return { line, address, user_agent: ua, claims: classification?.matched ? classification.crawler.slug : null, verification: verified ?? null };
    });
    const verdicts: Record<string, number> = {};
    for (const r of results) {
      const v = r.verification && 'verdict' in r.verification ? r.verification.verdict ?? 'no-claim' : 'invalid-address';
      verdicts[v] = (verdicts[v] ?? 0) + 1;
    }
    return { lines: results, summary: { lines: results.length, verdicts } };
  },
  summarize: (output) => {
    const o = output as { summary: { lines: number; verdicts: Record<string, number> } };
    return `${o.summary.lines} line${o.summary.lines === 1 ? '' : 's'}: ${Object.entries(o.summary.verdicts).map(([v, n]) => `${n} ${v}`).join(', ')}.`;
  },
};

/** Every tool, once. The HTTP endpoints, MCP servers and A2A skills are generated from this list. */
export const TOOLS: readonly ToolDefinition[] = [
  auditTool, classifyTool, exampleTool, allowedTool, lintTool, verificationMethodsTool, verifyTool, whoamiTool,
  siteCheckTool, triageTool, crawlerMarkdownTool, policyMarkdownTool,
];

export function toolByName(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}

export function toolByPath(path: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.path === path);
}

/** The MCP servers (SPEC 4.6): a path and the tools it exposes. */
export const MCP_SERVERS: readonly { path: string; name: string; description: string; tools: readonly string[] }[] = [
  { path: '/mcp', name: 'crawler-index', description: 'Identify crawlers from User-Agent headers, and see how this service sees you.', tools: ['classify_user_agent', 'whoami', 'example'] },
  { path: '/mcp/robots', name: 'crawler-index-robots', description: 'Evaluate, lint and audit robots.txt files under RFC 9309.', tools: ['audit_ai_access', 'check_path_allowed', 'lint_robots_txt'] },
  { path: '/mcp/netcheck', name: 'crawler-index-netcheck', description: 'Verify crawler IP addresses against operator-published prefixes.', tools: ['verification_methods', 'verify_batch'] },
  { path: '/mcp/doctor', name: 'crawler-index-doctor', description: 'One-call robots.txt check-up for a site.', tools: ['site_check'] },
  { path: '/mcp/lint', name: 'crawler-index-lint', description: 'robots.txt linting and evaluation.', tools: ['lint_robots_txt', 'check_path_allowed'] },
  { path: '/mcp/triage', name: 'crawler-index-triage', description: 'Classify and verify batches of access-log lines.', tools: ['triage_log_lines', 'classify_user_agent', 'verify_batch'] },
  { path: '/mcp/markdown', name: 'crawler-index-markdown', description: 'Crawler records and robots.txt policies as Markdown for models.', tools: ['crawler_markdown', 'policy_markdown'] },
];
