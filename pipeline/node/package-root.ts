// Where the index a command reads lives when the command is not told: in a checkout, the working
// folder's dist/; in the installed package (`npx crawler-index`, `import 'crawler-index'`), the
// dist/ the package ships, so that it answers offline from wherever it is run.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when `dist` is a published build: it holds the ledger, /documents.json (docs/API.md §2.5). */
export function isBuild(dist: string): boolean {
  return existsSync(join(dist, 'documents.json'));
}

const holdsBuild = (root: string) => isBuild(join(root, 'dist'));

/**
 * The package's own folder: the nearest folder above this module holding a package.json and a
 * build. Found by walking up, so that the same code finds it from pipeline/node/ in a checkout and
 * from lib/ in the bundled library. Null when there is none (a checkout not built yet).
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string | null {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && holdsBuild(dir)) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The folder to read dist/ from when none was given: `cwd` when it holds a build, otherwise the package's own. */
export function defaultRoot(cwd: string): string {
  return holdsBuild(cwd) ? cwd : (packageRoot() ?? cwd);
}
