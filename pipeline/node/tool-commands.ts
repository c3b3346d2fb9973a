// The tools on the command line (`npx crawler-index audit robots.txt`): the same registry the
// HTTP, MCP and A2A surfaces call, run offline on the committed dist/. Files and standard input
// are read here; the answer is the tool's summary, or its JSON with --json.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toolDataFrom } from '../http/tool-data.ts';
import { executeTool } from '../tools/registry/call.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { snapshotStore } from './dist-snapshot.ts';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A file the command line names that cannot be read: said in one line, never a stack trace. */
export class InputUnreadable extends Error {}

/** A file's text, or standard input's for `-`. */
export async function readInput(path: string): Promise<string> {
  if (path !== '-')
    return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new InputUnreadable(`cannot read ${path} (${error.code ?? error.message}); give a readable file, or - for standard input`);
    });
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs one tool on the tree under `root`. Exit codes: 0 answered, 2 the input was refused (the
 * message names the field and its accepted form), 1 anything else.
 */
export async function runToolCommand(root: string, tool: string, params: Record<string, unknown>, json: boolean): Promise<CommandResult> {
  const store = await snapshotStore(join(root, 'dist'), { checkEveryMs: 3_600_000, compress: false });
  const data = await toolDataFrom(store);
  if (data === null) return { stdout: '', stderr: `${root}/dist lacks the documents the tools read; run npm run build.\n`, exitCode: 1 };
  const run = await executeTool({ tool, params, caller: { userAgent: null, address: null }, form: 'structured' }, data);
  switch (run.status) {
    case 'answered':
      if (run.form !== 'structured') return { stdout: '', stderr: `${tool}: unexpected answer form\n`, exitCode: 1 };
      return { stdout: json ? canonicalJson(run.output) : `${run.summary}\n`, stderr: '', exitCode: 0 };
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
