import { join } from 'node:path';
import { toolDataFrom } from '../../pipeline/http/tool-data.ts';
import { snapshotStore } from '../../pipeline/node/dist-snapshot.ts';
import type { Caller, ToolData } from '../../pipeline/tools/registry/index.ts';
import { inProcessRunner, type CallContext } from '../../pipeline/tools/registry/runner.ts';

/** The tools' data exactly as the server builds it from a published dist/ (ledger-checked). */
export async function publishedToolData(root: string): Promise<ToolData> {
  const data = await toolDataFrom(await snapshotStore(join(root, 'dist'), { checkEveryMs: 60_000, compress: false }));
  if (!data) throw new Error(`${root}/dist lacks the documents the tools read`);
  return data;
}

/** What a transport is handed for one request, with every call run in place on `data`. */
export function inPlace(data: ToolData, caller: Caller = { userAgent: null, address: null }): CallContext {
  return { caller, runner: inProcessRunner(async () => data), baseUrl: data.baseUrl };
}
