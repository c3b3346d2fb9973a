import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultRoot, isBuild, packageRoot } from './package-root.ts';

/** A folder laid out as the installed package: package.json, a built dist/ and the bundled library below. */
function installedPackage(): string {
  const root = mkdtempSync(join(tmpdir(), 'package-root-'));
  writeFileSync(join(root, 'package.json'), '{}');
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'documents.json'), '{}');
  mkdirSync(join(root, 'lib'));
  mkdirSync(join(root, 'pipeline', 'node'), { recursive: true });
  return root;
}

test('the package is found from the bundled library and from the sources alike, and not where there is no build', (t) => {
  const root = installedPackage();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(packageRoot(join(root, 'lib', 'index.js')), root);
  assert.equal(packageRoot(join(root, 'pipeline', 'node', 'package-root.ts')), root);
  // A package.json with no build above it (a checkout not built yet) is not the package.
  rmSync(join(root, 'dist'), { recursive: true });
  assert.equal(packageRoot(join(root, 'lib', 'index.js')), null);
});

test('a working folder holding a build is read; one holding none falls back to this package', (t) => {
  const root = installedPackage();
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(isBuild(join(root, 'dist')), true);
  assert.equal(defaultRoot(root), root);
  // This module's own package is this checkout, whose dist/ is committed.
  const elsewhere = join(root, 'lib');
  assert.equal(defaultRoot(elsewhere), packageRoot());
  assert.notEqual(packageRoot(), null);
});
