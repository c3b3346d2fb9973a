// The server as one bundle, for a Node that cannot run TypeScript itself (bin/serve.mjs): serve.ts
// and the entries of its two kinds of thread, bundled by esbuild into .cache/server-<key>/, where
// <key> digests every file the bundle is made from (path, size and modification time), so that
// an edited, pulled or checked-out source makes a new bundle at the next start.
//
// The folder is two levels below the project, as the bundled modules are (pipeline/<folder>/), so
// the paths they find from their own place (the schemas, the package's own folder) hold in it; the
// threads' entries sit beside the code that starts them (node/worker-source.ts workerEntry).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the bundle is made from, besides the TypeScript under pipeline/: its entry and the dependencies' versions. */
const ALSO = ['serve.ts', 'package.json', 'package-lock.json'];
const ENTRIES = ['serve.ts', 'pipeline/node/tool-worker.ts', 'pipeline/node/log-worker.ts'];
const BUNDLE_FOLDER = /^server-[0-9a-f]{16}$/;
/**
 * Bundles kept, the newest first. A server loads its lazy chunks and restarts its threads from
 * its bundle while it runs, so a bundle is not removed as soon as a newer one is made: a server
 * started from older sources keeps working until this many newer ones have been made.
 */
const KEPT_BUNDLES = 8;

/** A digest of the path, size and modification time of every file the bundle is made from. */
export function sourceKey(root) {
  const files = readdirSync(join(root, 'pipeline'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(root, 'pipeline', name));
  const hash = createHash('sha256');
  for (const file of [...files.sort(), ...ALSO.map((name) => join(root, name))]) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** Removes all but the KEPT_BUNDLES newest bundles (folders still being made are left to their start). */
function removeOldBundles(cache) {
  const bundles = readdirSync(cache)
    .filter((name) => BUNDLE_FOLDER.test(name))
    .map((name) => ({ name, madeAt: statSync(join(cache, name)).mtimeMs }))
    .sort((a, b) => b.madeAt - a.madeAt);
  for (const { name } of bundles.slice(KEPT_BUNDLES)) rmSync(join(cache, name), { recursive: true, force: true });
}

/** The bundle's serve.js for the sources as they are now, made first when there is none. */
export async function serverBundle(rootUrl) {
  const root = fileURLToPath(rootUrl);
  const cache = join(root, '.cache');
  const name = `server-${sourceKey(root)}`;
  const entry = join(cache, name, 'serve.js');
  if (existsSync(entry)) return pathToFileURL(entry);
  const { build } = await import('esbuild');
  mkdirSync(cache, { recursive: true });
  const made = mkdtempSync(join(cache, `${name}.tmp-`));
  try {
    await build({
      entryPoints: ENTRIES.map((file) => join(root, file)),
      outdir: made,
      entryNames: '[name]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      legalComments: 'none',
      logLevel: 'silent',
    });
    try {
      renameSync(made, join(cache, name));
    } catch (error) {
      // Another start made the same bundle meanwhile: either copy serves.
      if (!existsSync(entry)) throw error;
    }
  } finally {
    rmSync(made, { recursive: true, force: true });
  }
  removeOldBundles(cache);
  return pathToFileURL(entry);
}
