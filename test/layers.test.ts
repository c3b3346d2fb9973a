import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { REPO } from './support/project.ts';

// The rules between the folders of pipeline/ (README "Layout"), checked on the real imports
// (type-only ones included: a type from another layer is a dependency on it too).

const PIPELINE = join(REPO, 'pipeline');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^;]*?\sfrom\s)?\s*['"]([^'"]+)['"]/g;

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
    layers: ['render'],
    forbidden: { kind: 'folder', path: 'pipeline/http' },
    why: 'the build renders without the server; what both need (statuses, headers, tool specifications) is in contract/',
  },
  { layers: ['contract'], forbidden: { kind: 'folder', path: 'pipeline/http' }, why: 'the contract is shared by the server and the renderers' },
  { layers: ['contract'], forbidden: { kind: 'folder', path: 'pipeline/render' }, why: 'the contract is shared by the server and the renderers' },
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

/** The modules each module imports (relative imports only; type-only ones included), as absolute paths. */
function importGraph(files: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      [...read(file).matchAll(IMPORT)]
        .map((match) => match[1]!)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolve(dirname(file), specifier)),
    ]),
  );
}

/**
 * The import cycles of a graph: its strongly connected components of more than one module, or
 * of one that imports itself (Tarjan's algorithm), each as a sorted list of paths.
 */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const reach = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string): void => {
    order.set(module, order.size);
    reach.set(module, order.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        reach.set(module, Math.min(reach.get(module)!, reach.get(next)!));
      } else if (onStack.has(next)) reach.set(module, Math.min(reach.get(module)!, order.get(next)!));
    }
    if (reach.get(module) !== order.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)!.includes(module)) found.push(component.map((file) => relative(REPO, file)).sort());
  };
  for (const module of graph.keys()) if (!order.has(module)) visit(module);
  return found;
}

test('no import cycles: every module of pipeline/ and serve.ts can be loaded before what imports it', () => {
  const graph = importGraph([...productFiles(PIPELINE), join(REPO, 'serve.ts')]);
  assert.ok([...graph.values()].flat().length > 500, 'read the imports');
  assert.deepEqual(cycles(graph), []);
});

test('the cycle check finds a cycle, however long, and only the modules in it', () => {
  const file = (name: string) => join(PIPELINE, name);
  const sources = new Map([
    [file('model/a.ts'), "import { b } from '../routes/b.ts';"],
    [file('routes/b.ts'), "import type { C } from '../tools/c.ts';\nimport { d } from '../util/d.ts';"],
    [file('tools/c.ts'), "export { a } from '../model/a.ts';"],
    [file('util/d.ts'), "import './e.ts';"],
    [file('util/e.ts'), ''],
    [file('util/f.ts'), "import { f } from './f.ts';"],
  ]);
  const graph = importGraph([...sources.keys()], (name) => sources.get(name)!);
  assert.deepEqual(cycles(graph).sort(), [['pipeline/model/a.ts', 'pipeline/routes/b.ts', 'pipeline/tools/c.ts'], ['pipeline/util/f.ts']]);
});

test('the paths module imports nothing, so any module may write a URL with href()', () => {
  const code = readFileSync(join(PIPELINE, 'paths.ts'), 'utf8');
  assert.deepEqual(
    [...code.matchAll(IMPORT)].map((match) => match[1]),
    [],
  );
  assert.ok(/export function href\(/.test(code));
});

test('the route table is imported only by the handler (http/), the documentation renderers and the build', () => {
  const table = join(PIPELINE, 'routes.ts');
  const importers = [...importGraph([...productFiles(PIPELINE), join(REPO, 'serve.ts')])]
    .filter(([, imports]) => imports.includes(table))
    .map(([file]) => relative(REPO, file))
    .sort();
  const allowed = [
    /^pipeline\/http\//,
    /^pipeline\/render\/(reference|home|host-rules|openapi|data|discovery|service-terms|index)\.ts$/,
    /^pipeline\/contract\/tool-spec\.ts$/,
    /^pipeline\/publish\/build\.ts$/,
  ];
  assert.deepEqual(
    importers.filter((file) => !allowed.some((pattern) => pattern.test(file))),
    [],
  );
});

test('the handler fits on one screen: it maps each answer.by kind to an answerer and holds none itself', () => {
  const code = readFileSync(join(PIPELINE, 'http', 'handler.ts'), 'utf8');
  const lines = code.split('\n').length;
  assert.ok(lines <= 300, `http/handler.ts has ${lines} lines; an answer belongs in the module that owns it (docs/ARCHITECTURE.md §2)`);
  assert.equal(/\bswitch\s*\(/.test(code), false, 'no switch over answer kinds: the table `answerers` maps them');
});
