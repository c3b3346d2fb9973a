import { parse } from 'yaml';
import { type App, createApp } from '../pipeline/http/handler.ts';
import type { Visits } from '../pipeline/http/request-log.ts';
import { NO_LOG } from '../pipeline/log/types.ts';
import type { SiteSettings } from '../pipeline/records/types.ts';
import site from '../records/site.yaml';
import { AssetStore, type AssetsBinding } from './asset-store.ts';

// The service on Cloudflare Workers: the same Web-standard handler as serve.ts, over dist/ as
// the Worker's static assets (wrangler.toml) instead of Node's in-memory snapshot. What needs
// the machine is left out: there is no request log (/stats.json says the log is off, /hits.json
// has nothing to export) and tool calls run in the request, not on threads.

export interface Env {
  ASSETS: AssetsBinding;
}

// The request log needs a database the Worker does not have; /stats.json says so in these words.
const NO_VISITS: Visits = {
  log: { ...NO_LOG, health: () => ({ ...NO_LOG.health(), reason: 'This deployment (Cloudflare Workers) keeps no request log.' }) },
  hashAddress: () => '',
  exportKey: null,
};

// One app per isolate: the tools' data and the fetched documents are kept between requests.
let app: App | null = null;

function appFor(env: Env): App {
  app ??= createApp({
    store: new AssetStore(env.ASSETS),
    // records/site.yaml, bundled as text; the build validated it before writing dist/.
    site: parse(site) as SiteSettings,
    // Set by Cloudflare's edge from the connection, and replaced there if a client sends one.
    addressOf: (request) => request.headers.get('cf-connecting-ip'),
    visits: NO_VISITS,
    onError: (error, request) =>
      console.error(`worker: ${new URL(request.url).pathname}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  return app;
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    return appFor(env).fetch(request);
  },
};
