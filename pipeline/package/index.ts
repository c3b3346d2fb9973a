// The tools as functions, for a program that depends on the package: the same registry and the
// same answers as the HTTP, MCP and A2A surfaces and the command line, run in the caller's
// process on a published dist/ (the one the package ships, offline, unless given another).
//
//   import { openIndex } from 'crawler-index';
//   const index = await openIndex();
//   const answer = await index.classify('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)');
//   if (answer.matched) answer.crawler.slug; // 'gptbot'
//
// A package's entry cannot be TypeScript (Node strips no types under node_modules), so `npm pack`
// bundles this module into lib/ with its declarations (scripts/package-library.ts, docs/API.md §11).
import { join } from 'node:path';
import { TOOL_SNAPSHOT_PATHS, toolDataFrom } from '../http/tool-data.ts';
import { snapshotStore } from '../node/dist-snapshot.ts';
import { isBuild, packageRoot } from '../node/package-root.ts';
import type { auditTool } from '../tools/definitions/audit-ai-access.ts';
import type { allowedTool } from '../tools/definitions/check-path-allowed.ts';
import type { lintTool } from '../tools/definitions/lint-robots-txt.ts';
import type { Classification } from '../tools/classify/classify.ts';
import { executeTool } from '../tools/registry/call.ts';
import type { ToolData } from '../tools/registry/types.ts';
import type { BatchAnswer } from '../tools/verify/index.ts';

/** What each tool answers: the types of the JSON its endpoint sends (docs/API.md §4.5). */
export type { Classification } from '../tools/classify/classify.ts';
export type PathVerdicts = Awaited<ReturnType<typeof allowedTool.run>>;
export type AiAccessAudit = Awaited<ReturnType<typeof auditTool.run>>;
export type LintReport = Awaited<ReturnType<typeof lintTool.run>>;
export type AddressVerdicts = BatchAnswer;

/** An input a tool does not accept, as the endpoints answer 400: which field, why, and the form it accepts. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
  readonly field: string;
  readonly accepted: string;
  constructor(field: string, message: string, accepted: string) {
    super(`${field}: ${message} Accepted: ${accepted}.`);
    this.field = field;
    this.accepted = accepted;
  }
}

export interface CrawlerIndex {
  /** Which crawler a User-Agent header names (classify_user_agent). */
  classify(userAgent: string): Promise<Classification>;
  /** Whether each path may be fetched by the crawler a token or User-Agent names, under RFC 9309 (check_path_allowed). */
  allowed(robotsTxt: string, options: { userAgent: string; paths: readonly string[] }): Promise<PathVerdicts>;
  /** Which AI crawlers a robots.txt blocks and lets in at a path, and the usage preferences of each (audit_ai_access). */
  auditAiAccess(robotsTxt: string, options?: { path?: string; contentUsageHeader?: string }): Promise<AiAccessAudit>;
  /** A robots.txt's faults, each with its line and a fix (lint_robots_txt). */
  lint(robotsTxt: string): Promise<LintReport>;
  /** Whether each address is in a range its operator publishes, and with a claimed crawler its verdict (verify_batch). */
  verify(addresses: readonly string[], options?: { userAgent?: string }): Promise<AddressVerdicts>;
}

/**
 * The index as it was built into `dist` (default: the package's own). The documents the tools
 * read, and no others, are read and checked against the ledger once; every call then runs in
 * this process.
 */
export async function openIndex(options: { dist?: string } = {}): Promise<CrawlerIndex> {
  const dist = options.dist ?? shippedDist();
  if (!isBuild(dist)) throw new Error(`${dist} holds no build (no documents.json): give openIndex the dist/ folder npm run build wrote`);
  const store = await snapshotStore(dist, { checkEveryMs: Number.POSITIVE_INFINITY, compress: false, only: new Set(TOOL_SNAPSHOT_PATHS) });
  const data = await toolDataFrom(store);
  store.close();
  if (data === null) throw new Error(`${dist} lacks the documents the tools read (data/agents.json and the IP range lists); build it with npm run build`);
  return indexOn(data);
}

/** The dist/ this package was published with. */
function shippedDist(): string {
  const root = packageRoot();
  if (root === null) throw new Error('this copy of crawler-index holds no dist/: build it with npm run build, or pass openIndex({ dist })');
  return join(root, 'dist');
}

function indexOn(data: ToolData): CrawlerIndex {
  const call = async <Output>(tool: string, params: Record<string, unknown>): Promise<Output> => {
    const run = await executeTool({ tool, params, caller: { userAgent: null, address: null }, form: 'structured' }, data);
    switch (run.status) {
      case 'answered':
        if (run.form !== 'structured') throw new Error(`${tool}: answered in the ${run.form} form, not structured`);
        return run.output as Output;
      case 'refused':
        throw new ToolInputError(run.field, run.message, run.accepted);
      case 'too-large':
        throw new Error(`${tool}: ${run.message}`);
      case 'failed':
        throw new Error(`${tool} failed: ${run.message}`);
      case 'unavailable':
        throw new Error(`${tool}: ${run.message}`);
    }
  };
  return {
    classify: (userAgent) => call('classify_user_agent', { ua: userAgent }),
    allowed: (robotsTxt, { userAgent, paths }) => call('check_path_allowed', { robots_txt: robotsTxt, ua: userAgent, path: [...paths] }),
    auditAiAccess: (robotsTxt, options = {}) =>
      call('audit_ai_access', {
        robots_txt: robotsTxt,
        ...(options.path === undefined ? {} : { path: options.path }),
        ...(options.contentUsageHeader === undefined ? {} : { content_usage_header: options.contentUsageHeader }),
      }),
    lint: (robotsTxt) => call('lint_robots_txt', { robots_txt: robotsTxt }),
    verify: (addresses, options = {}) => call('verify_batch', { ip: [...addresses], ...(options.userAgent === undefined ? {} : { ua: options.userAgent }) }),
  };
}
