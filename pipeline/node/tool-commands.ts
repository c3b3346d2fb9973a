// The tools on the command line (`npx crawler-index audit robots.txt`): the same registry the
// HTTP, MCP and A2A surfaces call, run offline on the committed dist/. Files and standard input
// are read by read-input.ts; the answer is the tool's summary (and a line per item where the
// tool has items, as verify has addresses), or its JSON with --json.

import { join } from 'node:path';
import { TOOL_SNAPSHOT_PATHS, toolDataFrom } from '../http/tool-data.ts';
import { executeTool } from '../tools/registry/call.ts';
import { toolByName } from '../tools/registry/index.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { snapshotStore } from './dist-snapshot.ts';
import { isBuild } from './package-root.ts';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Runs one tool on the tree under `root`. Exit codes: 0 answered, 2 the input was refused (the
 * message names the field and its accepted form), 1 anything else.
 */
export async function runToolCommand(root: string, tool: string, params: Record<string, unknown>, json: boolean): Promise<CommandResult> {
  if (!isBuild(join(root, 'dist')))
    return {
      stdout: '',
      stderr: `${join(root, 'dist')} holds no build (no documents.json): run npm run build in ${root}, or leave out --root to answer from the index this package ships.\n`,
      exitCode: 1,
    };
  const store = await snapshotStore(join(root, 'dist'), { checkEveryMs: 3_600_000, compress: false, only: new Set(TOOL_SNAPSHOT_PATHS) });
  const data = await toolDataFrom(store);
  if (data === null) return { stdout: '', stderr: `${root}/dist lacks the documents the tools read; run npm run build.\n`, exitCode: 1 };
  const run = await executeTool({ tool, params, caller: { userAgent: null, address: null }, form: 'structured' }, data);
  switch (run.status) {
    case 'answered': {
      if (run.form !== 'structured') return { stdout: '', stderr: `${tool}: unexpected answer form\n`, exitCode: 1 };
      if (json) return { stdout: canonicalJson(run.output), stderr: '', exitCode: 0 };
      const lines = toolByName(tool)?.itemLines?.(run.output) ?? [];
      return { stdout: [run.summary, ...lines].map((line) => `${line}\n`).join(''), stderr: '', exitCode: 0 };
    }
    case 'refused':
      return { stdout: '', stderr: `${run.field}: ${run.message} Accepted: ${run.accepted}.\n`, exitCode: 2 };
    case 'too-large':
      return { stdout: '', stderr: `${run.message}\n`, exitCode: 2 };
    case 'failed':
      return { stdout: '', stderr: `${tool} failed: ${run.message}\n`, exitCode: 1 };
    case 'unavailable':
      return { stdout: '', stderr: `${run.message}\n`, exitCode: 1 };
  }
}
