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

/** The mini fixture built at MINI_BUILT_AT and served on a random loopback port, uncompressed unless asked. */
export async function serveMini(
  options: Pick<ServeOptions, 'tools' | 'exportKey' | 'compress'> & { requestLog?: Omit<NonNullable<ServeOptions['requestLog']>, 'file'> } = {},
): Promise<ServedMini> {
  const project = await builtMini();
  // A request log, when asked for, lives in the project's state/ as npm start keeps it.
  const requestLog = options.requestLog === undefined ? undefined : { ...options.requestLog, file: join(project.root, 'state', 'requests.db') };
  // Encoding the whole tree with brotli takes seconds of a core; only the tests of content-coding ask for it.
  const server = await startServer({ root: project.root, port: 0, host: '127.0.0.1', checkEveryMs: 0, compress: false, ...options, requestLog });
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
