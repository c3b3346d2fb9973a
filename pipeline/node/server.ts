import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { createHandler } from '../http/handler.ts';
import type { SiteSettings } from '../records/types.ts';
import { describeErrors, validatorFor } from '../schema/ajv.ts';
import { addressOf, nodeListener } from './adapter.ts';
import { snapshotStore } from './dist-snapshot.ts';

export interface ServeOptions {
  root: string;
  distDir?: string;
  port: number;
  host: string;
  checkEveryMs?: number;
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
  refresh(): Promise<void>;
}

export async function readSite(root: string): Promise<SiteSettings> {
  const file = join(root, 'records', 'site.yaml');
  const data = parse(await readFile(file, 'utf8')) as unknown;
  const validate = validatorFor('records/site.schema.json');
  if (!validate(data)) throw new Error(`${file}: ${describeErrors(validate.errors).map((e) => `${e.path} ${e.message}`).join('; ')}`);
  return data as SiteSettings;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const log = options.log ?? (() => {});
  const site = await readSite(options.root);
  const store = await snapshotStore(options.distDir ?? join(options.root, 'dist'), { checkEveryMs: options.checkEveryMs, onReload: log });
  const handler = createHandler({ store, site, addressOf });
  let origin = 'http://localhost';
  const server = createServer(nodeListener(handler, () => origin));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  return {
    url: origin,
    server,
    refresh: () => store.refresh(),
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    }),
  };
}
