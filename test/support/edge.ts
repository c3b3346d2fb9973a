import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { parse } from 'smol-toml';
import { REPO } from './project.ts';

// The Worker of edge/worker.ts inside workerd, through Miniflare, configured from wrangler.toml
// (entry, compatibility date and flags, the assets folder and binding) so the test runs what a
// deployment runs. Bundled the way wrangler bundles: one ES module, Workers' package
// conditions, YAML as text.

interface WranglerConfig {
  main: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  assets: { directory: string; binding: string; run_worker_first?: boolean; html_handling?: 'none'; not_found_handling?: 'none' };
}

export interface RunningEdge {
  url: string;
  close(): Promise<void>;
}

async function wranglerConfig(): Promise<WranglerConfig> {
  return parse(await readFile(join(REPO, 'wrangler.toml'), 'utf8')) as unknown as WranglerConfig;
}

/** The bundle of each entry, made once per process: every Worker a test file starts runs the same code. */
const bundles = new Map<string, Promise<string>>();

function bundleWorker(config: WranglerConfig): Promise<string> {
  let bundle = bundles.get(config.main);
  if (bundle === undefined) {
    bundle = bundleOnce(config);
    bundles.set(config.main, bundle);
  }
  return bundle;
}

async function bundleOnce(config: WranglerConfig): Promise<string> {
  const result = await build({
    entryPoints: [join(REPO, config.main)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    loader: { '.yaml': 'text' },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * The Worker over `distDir` (default: the committed dist/) on a random loopback port. With
 * `assetsFirst`, Cloudflare's asset server answers every path that names a file, as it does for
 * a deployment without run_worker_first (or Cloudflare Pages): it applies dist/_headers and
 * dist/_redirects and serves /x from x.html, and only the rest reaches the Worker.
 */
export async function startEdge(options: { distDir?: string; assetsFirst?: boolean } = {}): Promise<RunningEdge> {
  const config = await wranglerConfig();
  const script = await bundleWorker(config);
  const assetsFirst = options.assetsFirst ?? false;
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: 'worker.js', contents: script }],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    // The request's `cf` object would be fetched from Cloudflare at start; the tests run offline.
    cf: false,
    host: '127.0.0.1',
    port: 0,
    assets: {
      directory: options.distDir ?? join(REPO, 'dist'),
      binding: config.assets.binding,
      routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: assetsFirst ? false : (config.assets.run_worker_first ?? false) },
      assetConfig: assetsFirst
        ? { html_handling: 'auto-trailing-slash', not_found_handling: 'none' }
        : { html_handling: config.assets.html_handling ?? 'auto-trailing-slash', not_found_handling: config.assets.not_found_handling ?? 'none' },
    },
  });
  const url = await mf.ready;
  return { url: url.origin, close: () => mf.dispose() };
}
