import { evaluateMany, lintParsed, parseRobotsTxt } from '../robots/index.ts';
import { textOf } from '../registry/input.ts';
import { defineTool } from '../registry/types.ts';
import { auditTool } from './audit-ai-access.ts';
import { aiTokens, auditAiAccess, checkEvaluationBudget, LINT_SCHEMA, lintAnswer, lintIndexOf } from './robots-answers.ts';

/** The crawlers site_check always evaluates, AI or not. */
const KEY_TOKENS = ['Googlebot', 'Bingbot', 'GPTBot', 'OAI-SearchBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'Applebot'];

function pick(verdict: { allowed: boolean; deciding: { line: number; text: string } | null; reason: string }) {
  return { allowed: verdict.allowed, deciding: verdict.deciding ? { line: verdict.deciding.line, text: verdict.deciding.text } : null, reason: verdict.reason };
}

/** /mcp/doctor: one call that checks a site's robots.txt the ways a site owner needs. */
export const siteCheckTool = defineTool({
  name: 'site_check',
  path: null,
  title: 'One-call robots.txt check-up',
  description: `Lints a robots.txt, audits which AI crawlers it blocks and lets in at path (default /, the home page), and evaluates that path for ${KEY_TOKENS.length} well-known crawlers (${KEY_TOKENS.join(', ')}), in one call.`,
  params: auditTool.params,
  outputSchema: { type: 'object', required: ['lint', 'ai_access', 'key_crawlers'], properties: { lint: LINT_SCHEMA, ai_access: auditTool.outputSchema } },
  examples: auditTool.examples,
  run: (input, { data }) => {
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const path = textOf(input, 'path') || '/';
    checkEvaluationBudget(
      parsed,
      [...aiTokens(data.crawlers, data.aiCategories), ...KEY_TOKENS],
      [path],
      'robots_txt',
      'Send a file with fewer rules (merge them with * patterns).',
    );
    return {
      lint: lintAnswer(lintParsed(parsed, lintIndexOf(data.crawlers, data.clients))),
      ai_access: auditAiAccess(parsed, path, data.crawlers, data.aiCategories, data.clients, textOf(input, 'content_usage_header')),
      key_crawlers: KEY_TOKENS.map((token) => ({ token, ...pick(evaluateMany(parsed, token, [path])[0]!) })),
    };
  },
  summarize: (o) => {
    const findings = o.lint.findings.length + o.lint.findings_omitted;
    return `${findings} lint finding${findings === 1 ? '' : 's'}. ${auditTool.summarize(o.ai_access)} Key crawlers: ${o.key_crawlers.map((k) => `${k.token} ${k.allowed ? 'allowed' : 'blocked'}`).join(', ')}.`;
  },
});
