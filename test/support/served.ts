import { join } from 'node:path';
import { build } from '../../pipeline/publish/build.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../pipeline/node/server.ts';
import type { ToolData } from '../../pipeline/tools/registry/index.ts';
import { tempProject } from './project.ts';
import { publishedToolData } from './tool-data.ts';

export interface ServedMini {
  root: string;
  server: RunningServer;
  /** The tools' view of the same build, for calling handlers in-process beside the socket tests. */
  data: ToolData;
  dispose(): Promise<void>;
}

/** The mini fixture built at a fixed time and served on a random loopback port. */
export async function serveMini(
  now = '2026-01-01T00:00:00Z',
  options: Pick<ServeOptions, 'tools' | 'exportKey'> & { requestLog?: Omit<NonNullable<ServeOptions['requestLog']>, 'file'> } = {},
): Promise<ServedMini> {
  const project = await tempProject('mini');
  await build({ root: project.root, now });
  // A request log, when asked for, lives in the project's state/ as npm start keeps it.
  const requestLog = options.requestLog === undefined ? undefined : { ...options.requestLog, file: join(project.root, 'state', 'requests.db') };
  const server = await startServer({ root: project.root, port: 0, host: '127.0.0.1', checkEveryMs: 0, ...options, requestLog });
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
