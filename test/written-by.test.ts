import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { LEDGER_JSON, LEDGER_TXT } from '../pipeline/ledger/ledger.ts';
import { build } from '../pipeline/publish/build.ts';
import { renderByModule } from '../pipeline/render/index.ts';
import { findRoute, routes } from '../pipeline/routes.ts';
import { REPO } from './support/project.ts';

// A stored document's route names the module that writes it (`writtenBy`), so a reader goes
// from a URL to its code in one step. Checked here against what the build of the committed
// records renders, so the table cannot go stale.

const NOW = '2026-11-28T00:00:00Z';

test('every stored document names the module whose renderer writes it, as the build renders it', async () => {
  const { model, files } = await build({ root: REPO, dryRun: true, now: NOW });
  const writers = new Map<string, string>();
  for (const { module, render, files: made } of renderByModule(model, NOW)) {
    // The module named is the one that exports the renderer.
    const exports = (await import(pathToFileURL(join(REPO, 'pipeline', module)).href)) as Record<string, unknown>;
    assert.ok(Object.values(exports).includes(render), `${module} exports the renderer the build runs as it`);
    for (const file of made) writers.set(file.path, module);
  }
  // The ledger describes the other files, so publish/build.ts writes it last, from ledger/ledger.ts.
  writers.set(LEDGER_JSON, 'ledger/ledger.ts');
  writers.set(LEDGER_TXT, 'ledger/ledger.ts');

  const wrong: string[] = [];
  for (const { path } of files) {
    const route = findRoute(path);
    if (route !== undefined && route.writtenBy !== writers.get(path))
      wrong.push(`${path}: route ${route.key} says ${route.writtenBy}, written by ${writers.get(path)}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(files.length > 1000, `the build made ${files.length} files`);
});

test('every route of a stored document names its writer; a computed answer names none unless its path is stored too', () => {
  for (const route of routes()) {
    if (route.answer.by === 'document' || route.answer.by === 'agent-card') assert.ok(route.writtenBy, `${route.key} names the module that writes it`);
    else if (route.key !== 'changes') assert.equal(route.writtenBy, undefined, route.key);
  }
});
