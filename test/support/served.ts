import { join } from 'node:path';
import { startServer, type RunningServer, type ServeOptions } from '../../pipeline/node/server.ts';
import type { ToolData } from '../../pipeline/tools/registry/index.ts';
import { builtMini } from './built-mini.ts';
import { publishedToolData } from './tool-data.ts';

export interface ServedMini {
  root: string;
  server: RunningServer;
  /** The tools' view of the same build, for calling handlers in-process beside the socket tests. */
  data: ToolData;
  dispose(): Promise<void>;
}

/**
 * A server on the built tree under `root`, on a random loopback port: uncompressed, with tool calls
 * in place and a look at dist/ on every request, unless the test asks otherwise. Brotli over a
 * whole tree and the threads' module loading cost seconds of CPU, so only the tests of
 * content-coding and of the threads turn them on (docs/ARCHITECTURE.md §6).
 */
export function serveTree(root: string, options: Partial<Omit<ServeOptions, 'root'>> = {}): Promise<RunningServer> {
  return startServer({ root, port: 0, host: '127.0.0.1', checkEveryMs: 0, compress: false, tools: { threads: 0 }, ...options });
}

/** The mini fixture built at MINI_BUILT_AT and served on a random loopback port, uncompressed unless asked. */
export async function serveMini(
  options: Pick<ServeOptions, 'tools' | 'exportKey' | 'compress'> & { requestLog?: Omit<NonNullable<ServeOptions['requestLog']>, 'file'> } = {},
): Promise<ServedMini> {
  const project = await builtMini();
  // A request log, when asked for, lives in the project's state/ as npm start keeps it.
  const requestLog = options.requestLog === undefined ? undefined : { ...options.requestLog, file: join(project.root, 'state', 'requests.db') };
  // Tool threads stay on unless asked off: the tests of the tools over MCP and A2A run them as npm start does.
  const server = await serveTree(project.root, { tools: {}, ...options, requestLog });
  const data = await publishedToolData(project.root);
  return {
    root: project.root,
    server,
    data,
    dispose: async () => {
      await server.close();
      await project.dispose();
    },
  };
}
