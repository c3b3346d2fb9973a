import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { build } from '../pipeline/publish/build.ts';
import { isCompleteTree, recoverDist } from '../pipeline/publish/recover-dist.ts';
import { leftoverPath } from '../pipeline/publish/write-dist.ts';
import { builtMini, MINI_BUILT_AT } from './support/built-mini.ts';
import { linkTree } from './support/copy-tree.ts';
import { changedPaths, readTree } from './support/project.ts';

// docs/ARCHITECTURE.md §1 (build, steps 6 and 10): a build killed anywhere in writeDist's swap leaves folders that the next
// build (and the server, at start) turn back into one whole dist/, keeping last_modified.
// Each kill point is made by hand from real trees: writeDist writes `.dist-next-<pid>`,
// renames dist/ to `.dist-old-<pid>`, renames the next tree to dist/, removes the old one.

/** When the previous tree was built: the shared mini build's time (test/support/built-mini.ts). */
const T0 = MINI_BUILT_AT;
const T1 = '2026-02-01T00:00:00Z';
const T2 = '2026-03-01T00:00:00Z';

interface Trees {
  root: string;
  dist: string;
  /** dist/ as built at T0 (the previous tree). */
  previous: Map<string, Buffer>;
  /** A complete copy of the tree the interrupted build (at T1, one record edited) was writing. */
  next: string;
  nextTree: Map<string, Buffer>;
  /** The process id the interrupted build had; it is no longer running. */
  pid: number;
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.ok(child.pid);
  return child.pid;
}

/** The two trees, built once per file: every test gets its own copy of the project folder. */
let template: Promise<Trees> | undefined;
let disposeTemplate = async (): Promise<void> => {};
after(() => disposeTemplate());

function builtTrees(): Promise<Trees> {
  template ??= (async () => {
    const project = await builtMini();
    disposeTemplate = project.dispose;
    const dist = join(project.root, 'dist');
    const record = join(project.root, 'records', 'crawlers', 'mj12bot.yaml');
    await writeFile(
      record,
      (await readFile(record, 'utf8')).replace(
        /^cost_of_blocking: >-\n( {2}.*\n)+/m,
        'cost_of_blocking: Majestic backlink data about your pages goes stale.\n',
      ),
    );
    // What the killed build had written: the T1 tree, built from the T0 one as a build does.
    const next = join(project.root, 'built-at-t1');
    await linkTree(dist, next);
    await build({ root: project.root, distDir: next, now: T1 });
    return { root: project.root, dist, previous: await readTree(dist), next, nextTree: await readTree(next), pid: deadPid() };
  })();
  return template;
}

/**
 * The two trees for one test, linked (test/support/copy-tree.ts); `build` links the records and
 * state too, for a test that runs the next build (the recovery itself reads only the trees).
 * A recovery and a build rename, remove and write new files, never into one: a test that damages
 * a file replaces it (`replaceFile`), so the trees every test links stay whole.
 */
async function interruptedBuild(t: { after(fn: () => Promise<void>): void }, build = false): Promise<Trees> {
  const built = await builtTrees();
  const root = await mkdtemp(join(tmpdir(), 'crawler-index-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  for (const folder of build ? ['dist', 'built-at-t1', 'records', 'state'] : ['dist', 'built-at-t1'])
    await linkTree(join(built.root, folder), join(root, folder));
  return { ...built, root, dist: join(root, 'dist'), next: join(root, 'built-at-t1') };
}

/** `path` replaced by a new file holding `bytes`: what a stopped write leaves, its original untouched. */
async function replaceFile(path: string, bytes: string | Buffer): Promise<void> {
  await rm(path);
  await writeFile(path, bytes);
}

async function leftovers(root: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => name.startsWith('.dist-')).sort();
}

async function stamps(dist: string): Promise<Map<string, string>> {
  const ledger = JSON.parse(await readFile(join(dist, 'documents.json'), 'utf8')) as { documents: { path: string; last_modified: string }[] };
  return new Map(ledger.documents.map((d) => [d.path, d.last_modified]));
}

test('killed while writing the new tree: dist/ is kept, the partial tree removed', async (t) => {
  const trees = await interruptedBuild(t);
  const staging = leftoverPath(trees.dist, 'next', trees.pid);
  await rename(trees.next, staging);
  // writeDist writes the ledger last, so a tree cut short has none; and one file is half written.
  await rm(join(staging, 'documents.json'));
  const agents = join(staging, 'data', 'agents.json');
  await replaceFile(agents, (await readFile(agents)).subarray(0, 10));
  const message = await recoverDist(trees.dist);
  assert.match(message ?? '', new RegExp(`removed \\.dist-next-${trees.pid} left by a stopped build`));
  assert.deepEqual(changedPaths(trees.previous, await readTree(trees.dist)), []);
  assert.deepEqual(await leftovers(trees.root), []);
});

test('killed after writing the new tree, before the first rename: dist/ is kept, the unswapped tree removed', async (t) => {
  const trees = await interruptedBuild(t);
  await rename(trees.next, leftoverPath(trees.dist, 'next', trees.pid));
  assert.match((await recoverDist(trees.dist)) ?? '', /removed \.dist-next-/);
  assert.deepEqual(changedPaths(trees.previous, await readTree(trees.dist)), [], 'the build did not finish: the previous tree stays');
  assert.deepEqual(await leftovers(trees.root), []);
});

test('killed between the two renames: the complete new tree is put in place, the old one removed', async (t) => {
  const trees = await interruptedBuild(t);
  await rename(trees.dist, leftoverPath(trees.dist, 'old', trees.pid));
  await rename(trees.next, leftoverPath(trees.dist, 'next', trees.pid));
  const message = await recoverDist(trees.dist);
  assert.match(message ?? '', new RegExp(`restored .*dist from \\.dist-next-${trees.pid}, the new tree left by a build \\(pid ${trees.pid}\\)`));
  assert.match(message ?? '', new RegExp(`removed \\.dist-old-${trees.pid}`));
  assert.deepEqual(changedPaths(trees.nextTree, await readTree(trees.dist)), []);
  assert.deepEqual(await leftovers(trees.root), []);
});

test('between the renames with a new tree that does not match its ledger: the previous tree is put back', async (t) => {
  const trees = await interruptedBuild(t);
  await rename(trees.dist, leftoverPath(trees.dist, 'old', trees.pid));
  const staging = leftoverPath(trees.dist, 'next', trees.pid);
  await rename(trees.next, staging);
  await replaceFile(join(staging, 'crawler', 'gptbot.json'), '{"cut": ');
  assert.equal(await isCompleteTree(staging), false);
  const message = await recoverDist(trees.dist);
  assert.match(message ?? '', /from \.dist-old-\d+, the previous tree/);
  assert.deepEqual(changedPaths(trees.previous, await readTree(trees.dist)), []);
  assert.deepEqual(await leftovers(trees.root), []);
});

test('killed after the second rename, while removing the old tree: the rest of it is removed', async (t) => {
  const trees = await interruptedBuild(t);
  const retired = leftoverPath(trees.dist, 'old', trees.pid);
  await rename(trees.dist, retired);
  await rename(trees.next, trees.dist);
  await rm(join(retired, 'crawler'), { recursive: true });
  assert.match((await recoverDist(trees.dist)) ?? '', /removed \.dist-old-/);
  assert.deepEqual(changedPaths(trees.nextTree, await readTree(trees.dist)), []);
  assert.deepEqual(await leftovers(trees.root), []);
});

test('the first build ever, killed while writing: the partial tree is removed and no dist/ is made up', async (t) => {
  const trees = await interruptedBuild(t);
  await rm(trees.dist, { recursive: true });
  const staging = leftoverPath(trees.dist, 'next', trees.pid);
  await rename(trees.next, staging);
  await rm(join(staging, 'documents.json'));
  assert.match((await recoverDist(trees.dist)) ?? '', /removed \.dist-next-/);
  assert.deepEqual(await leftovers(trees.root), []);
  await assert.rejects(readdir(trees.dist), /ENOENT/);
});

test('the folders of a build that is still running are never touched, and a clean folder needs nothing', async (t) => {
  const trees = await interruptedBuild(t);
  assert.equal(await recoverDist(trees.dist), null);
  // The parent of this test runner is alive: its id stands for a build in progress.
  const running = leftoverPath(trees.dist, 'next', process.ppid);
  await rename(trees.next, running);
  assert.equal(await recoverDist(trees.dist), null);
  assert.deepEqual(await leftovers(trees.root), [`.dist-next-${process.ppid}`]);
  // Even with dist/ gone, a running build's swap is its own to finish.
  await rename(trees.dist, leftoverPath(trees.dist, 'old', process.ppid));
  assert.equal(await recoverDist(trees.dist), null);
  assert.equal((await leftovers(trees.root)).length, 2);
});

test('the next build recovers first, so every document keeps its last_modified', async (t) => {
  const trees = await interruptedBuild(t, true);
  await rename(trees.dist, leftoverPath(trees.dist, 'old', trees.pid));
  await rename(trees.next, leftoverPath(trees.dist, 'next', trees.pid));

  const dry: string[] = [];
  const planned = await build({ root: trees.root, now: T2, dryRun: true, log: (line) => dry.push(line) });
  assert.ok(
    dry.some((l) => /dry run: a build would first recover/.test(l)),
    dry.join('\n'),
  );
  assert.deepEqual(planned.changed, [], 'a dry run compares with the tree a recovery would restore');
  assert.equal((await leftovers(trees.root)).length, 2, 'a dry run changes nothing');

  const lines: string[] = [];
  const result = await build({ root: trees.root, now: T2, log: (line) => lines.push(line) });
  assert.ok(
    lines.some((l) => /^dist: restored .* from \.dist-next-/.test(l)),
    lines.join('\n'),
  );
  assert.equal(result.written, false, 'the restored tree is already what this build makes');
  assert.deepEqual(await leftovers(trees.root), []);
  const dates = await stamps(trees.dist);
  assert.equal(dates.get('/crawler/gptbot.json'), T0, 'an untouched document keeps its date');
  assert.equal(dates.get('/crawler/mj12bot.json'), T1, 'the edited one keeps the date of its edit');
  assert.ok(![...dates.values()].includes(T2), 'no document is dated by the recovering build');
});
