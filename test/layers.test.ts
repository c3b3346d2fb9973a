import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { REPO } from './support/project.ts';

// The rules between the folders of pipeline/ (README "Layout"), checked on the real imports
// (type-only ones included: a type from another layer is a dependency on it too).

const PIPELINE = join(REPO, 'pipeline');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/g;

interface Rule {
  /** Folders under pipeline/ the rule applies to. */
  layers: string[];
  /** What a file there must not import: a pipeline folder, a top-level repo folder, or a package. */
  forbidden: { kind: 'folder'; path: string } | { kind: 'package'; pattern: RegExp };
  why: string;
}

const RULES: Rule[] = [
  { layers: [''], forbidden: { kind: 'folder', path: 'test' }, why: 'the product never depends on test code' },
  { layers: [''], forbidden: { kind: 'folder', path: 'bench' }, why: 'the product never depends on benchmarks' },
  { layers: ['tools'], forbidden: { kind: 'folder', path: 'pipeline/http' }, why: 'tools know no transport' },
  { layers: ['tools'], forbidden: { kind: 'folder', path: 'pipeline/node' }, why: 'tools know no runtime' },
  { layers: ['http'], forbidden: { kind: 'folder', path: 'pipeline/node' }, why: 'the Web-standard handler runs without Node' },
  {
    layers: ['log'],
    forbidden: { kind: 'folder', path: 'pipeline/node' },
    why: 'the request log interface runs without Node; only its SQLite store is Node code',
  },
  { layers: ['log'], forbidden: { kind: 'package', pattern: /^(node:.*|better-sqlite3)$/ }, why: 'log/ stays edge-safe: stores that need Node live in node/' },
  ...['render', 'changes', 'model', 'tools', 'net'].map(
    (layer): Rule => ({
      layers: [layer],
      forbidden: { kind: 'package', pattern: /^(node:(fs|child_process|net|http|https)(\/.*)?|simple-git|undici)$/ },
      why: `${layer}/ is pure: no file, network or git I/O`,
    }),
  ),
];

function productFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return productFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function offences(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): string[] {
  return files.flatMap((file) => {
    const layer = relative(PIPELINE, file).split(sep)[0]!;
    const code = read(file);
    return [...code.matchAll(IMPORT)].flatMap((match) => {
      const specifier = match[1]!;
      const target = specifier.startsWith('.') ? relative(REPO, resolve(dirname(file), specifier)) : null;
      return RULES.filter((rule) => rule.layers.includes('') || rule.layers.includes(layer))
        .filter((rule) =>
          rule.forbidden.kind === 'folder'
            ? target !== null && (target + '/').startsWith(rule.forbidden.path + '/')
            : target === null && rule.forbidden.pattern.test(specifier),
        )
        .map((rule) => `${relative(REPO, file)} imports ${specifier}: ${rule.why}`);
    });
  });
}

test('every pipeline/ module keeps to the layer rules', () => {
  const files = productFiles(PIPELINE);
  assert.ok(files.length > 80, `read ${files.length} modules`);
  assert.deepEqual(offences(files), []);
});

test('the check finds a forbidden import when there is one', () => {
  const sources = new Map([
    [join(PIPELINE, 'tools', 'fake.ts'), "import { createApp } from '../http/handler.ts';\nimport { readFile } from 'node:fs/promises';"],
    [join(PIPELINE, 'http', 'fake.ts'), "import type { RunningServer } from '../node/server.ts';"],
    [join(PIPELINE, 'upstream', 'fake.ts'), "import { serveMini } from '../../test/support/served.ts';\nimport { readFile } from 'node:fs/promises';"],
  ]);
  assert.deepEqual(
    offences([...sources.keys()], (file) => sources.get(file)!).map((line) => line.split(': ')[1]),
    ['tools know no transport', 'tools/ is pure', 'the Web-standard handler runs without Node', 'the product never depends on test code'],
  );
});
