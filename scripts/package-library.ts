// `npm pack`'s prepack: the library a program imports from the installed package (the functions
// of pipeline/package/index.ts), written to lib/, which git ignores and `files` ships.
//
// - lib/index.js: one ES module made by esbuild. Node strips no types under node_modules, so the
//   .ts entry cannot be the export; the dependencies stay imports, installed beside the package.
// - lib/index.d.ts: one declaration file made by dts-bundle-generator, holding every type the
//   functions answer with, so that a program's editor and compiler need nothing else.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import { build } from 'esbuild';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const ENTRY = join(ROOT, 'pipeline', 'package', 'index.ts');
const LIB = join(ROOT, 'lib');

rmSync(LIB, { recursive: true, force: true });
mkdirSync(LIB);
await build({
  entryPoints: [ENTRY],
  outfile: join(LIB, 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  legalComments: 'none',
  logLevel: 'warning',
});
const [declarations] = generateDtsBundle([{ filePath: ENTRY, output: { noBanner: true, exportReferencedTypes: false } }], {
  preferredConfigPath: join(ROOT, 'tsconfig.json'),
});
if (declarations === undefined) throw new Error('dts-bundle-generator wrote no declarations');
writeFileSync(join(LIB, 'index.d.ts'), `// The types of crawler-index's library, generated from pipeline/package/index.ts at npm pack.\n${declarations}`);
process.stderr.write(`wrote ${LIB}/index.js and index.d.ts\n`);
