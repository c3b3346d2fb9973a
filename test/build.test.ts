import { strict as assert } from 'node:assert';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build, BuildError } from '../pipeline/publish/build.ts';
import { writeDist } from '../pipeline/publish/write-dist.ts';
import { builtMini, MINI_BUILT_AT } from './support/built-mini.ts';
import { changedPaths, readTree } from './support/project.ts';

// The mini fixture as built at T0 (test/support/built-mini.ts: npm test builds it once per run).
const T0 = MINI_BUILT_AT;
const T1 = '2026-02-01T00:00:00Z';
const T2 = '2026-03-01T00:00:00Z';

// One copy of the built fixture for the file, in test order: the tests that must leave dist/ as
// it was come first (each proves it did), then the edit, then the corrupt ledger.
let project: Awaited<ReturnType<typeof builtMini>>;
before(async () => {
  project = await builtMini();
});
after(() => project.dispose());

test('same inputs give a byte-identical dist/, whatever the build time', async () => {
  // a is the shared build of the mini fixture (made by another process under npm test), b a
  // second build of the same records at the same time.
  await build({ root: project.root, distDir: join(project.root, 'b'), now: T0 });
  const a = await readTree(join(project.root, 'dist'));
  const b = await readTree(join(project.root, 'b'));
  assert.deepEqual(changedPaths(a, b), []);
  assert.ok(a.size > 20, `expected a full tree, got ${a.size} files`);

  const again = await build({ root: project.root, now: T1 });
  assert.equal(again.written, false, 'an unchanged rebuild writes nothing');
  assert.deepEqual(changedPaths(a, await readTree(join(project.root, 'dist'))), []);
  const ledger = JSON.parse(await readFile(join(project.root, 'dist', 'documents.json'), 'utf8')) as { generated_at: string };
  assert.equal(ledger.generated_at, T0, 'generated_at is when content last changed, not the time of the rebuild');
});

test('invalid records stop the build and leave dist/ exactly as it was', async () => {
  const dist = join(project.root, 'dist');
  const before = await readTree(dist);
  const record = join(project.root, 'records', 'crawlers', 'gptbot.yaml');
  const valid = await readFile(record);
  await writeFile(record, 'slug: gptbot\nname: GPTBot\n');
  await assert.rejects(build({ root: project.root, now: T1 }), (error: unknown) => {
    assert.ok(error instanceof BuildError);
    assert.ok(
      error.problems.some((p) => p.file === 'records/crawlers/gptbot.yaml' && /must have required property 'operator'/.test(p.message)),
      error.message,
    );
    return true;
  });
  assert.deepEqual(changedPaths(before, await readTree(dist)), []);
  await writeFile(record, valid);
});

test('a write that fails half-way leaves the old tree whole and no staging folder behind', async () => {
  const dist = join(project.root, 'dist');
  const before = await readTree(dist);
  const bytes = new TextEncoder().encode('x');
  // '/a' as a file and '/a/b' cannot both exist: the folder /a is made first, so writing the file fails after the others were written.
  await assert.rejects(
    writeDist(dist, [
      { path: '/x', bytes },
      { path: '/y/z', bytes },
      { path: '/a', bytes },
      { path: '/a/b', bytes },
    ]),
    /ENOTDIR|EEXIST|EISDIR/,
  );
  assert.deepEqual(changedPaths(before, await readTree(dist)), []);
  assert.deepEqual(
    (await readdir(project.root)).filter((name) => name.startsWith('.dist-')),
    [],
  );
});

test('editing one record changes only the files that show it, and their ledger rows', async () => {
  const dist = join(project.root, 'dist');
  const before = await readTree(dist);

  const file = join(project.root, 'records', 'crawlers', 'mj12bot.yaml');
  await writeFile(
    file,
    (await readFile(file, 'utf8')).replace(/^cost_of_blocking: >-\n( {2}.*\n)+/m, 'cost_of_blocking: Majestic backlink data about your pages goes stale.\n'),
  );
  const result = await build({ root: project.root, now: T1 });
  const after = await readTree(dist);

  assert.deepEqual(changedPaths(before, after), [
    '/category/seo-tool.json',
    '/crawler/mj12bot.html',
    '/crawler/mj12bot.json',
    '/crawler/mj12bot.md',
    '/data/agents.csv',
    '/data/agents.json',
    '/documents.json',
    '/documents.txt',
    '/operator/majestic.json',
  ]);
  assert.deepEqual(result.changed.sort(), [
    '/category/seo-tool.json',
    '/crawler/mj12bot.html',
    '/crawler/mj12bot.json',
    '/crawler/mj12bot.md',
    '/data/agents.csv',
    '/data/agents.json',
    '/operator/majestic.json',
  ]);

  const ledger = JSON.parse(after.get('/documents.json')!.toString()) as { generated_at: string; documents: { path: string; last_modified: string }[] };
  const stamps = new Map(ledger.documents.map((d) => [d.path, d.last_modified]));
  for (const path of result.changed) assert.equal(stamps.get(path), T1, `${path} changed now`);
  assert.equal(stamps.get('/crawler/gptbot.json'), T0, 'an untouched file keeps its date');
  assert.equal(ledger.generated_at, T1);
  const agents = JSON.parse(after.get('/data/agents.json')!.toString()) as { generated_at: string };
  assert.equal(agents.generated_at, T1);
});

test('a corrupt previous ledger is reported, and every document is then dated now', async () => {
  await writeFile(join(project.root, 'dist', 'documents.json'), '{"half": ');
  const lines: string[] = [];
  await build({ root: project.root, now: T2, log: (line) => lines.push(line) });
  assert.ok(
    lines.some((l) => /warning: the previous documents\.json is not valid JSON/.test(l)),
    lines.join('\n'),
  );
  const ledger = JSON.parse(await readFile(join(project.root, 'dist', 'documents.json'), 'utf8')) as { documents: { last_modified: string }[] };
  assert.ok(ledger.documents.every((d) => d.last_modified === T2));
});
