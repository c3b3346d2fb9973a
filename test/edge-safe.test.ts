import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { REPO } from './support/project.ts';

// docs/PRINCIPLES.md, principle 5: the request handler and everything it imports run on an edge runtime,
// so no module reachable from pipeline/http/handler.ts may use a Node-only API. The check
// follows the real import graph, so a Node import added three files away is still caught.
const NODE_ONLY: [RegExp, string][] = [
  [/from ['"]node:/, 'a node: import'],
  [/\brequire\(/, 'require()'],
  [/\bBuffer\b/, 'Buffer'],
  [/\bprocess\./, 'process'],
  [/from ['"](fs|path|os|crypto|url|net|http|child_process|simple-git|undici|ajv[^'"]*)['"]/, 'a Node-only package'],
];
// Type-only imports are erased before running, so they do not count as edges.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s+['"](\.[^'"]+)['"]/g;

function reachable(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(IMPORT)) queue.push(resolve(dirname(file), match[1]!));
  }
  return [...seen].sort();
}

test('no module reachable from the Web-standard handler or the Worker that runs it uses a Node-only API', () => {
  const files = [...new Set([...reachable(join(REPO, 'pipeline', 'http', 'handler.ts')), ...reachable(join(REPO, 'edge', 'worker.ts'))])].sort();
  assert.ok(files.includes(join(REPO, 'edge', 'asset-store.ts')));
  assert.ok(files.length > 20, `followed ${files.length} modules`);
  const offences = files.flatMap((file) => {
    const code = readFileSync(file, 'utf8')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/\/\*[\s\S]*?\*\//g, '');
    return NODE_ONLY.filter(([pattern]) => pattern.test(code)).map(([, what]) => `${relative(REPO, file)}: ${what}`);
  });
  assert.deepEqual(offences, []);
});

test('the check finds a Node import when there is one', () => {
  assert.ok(NODE_ONLY.some(([pattern]) => pattern.test("import { readFile } from 'node:fs/promises';")));
  assert.ok(NODE_ONLY.some(([pattern]) => pattern.test('const b = Buffer.from(x);')));
});
