// npm start on a Node that cannot run TypeScript itself (20) runs the server as a bundle
// (bin/server-bundle.mjs): made once, reused while no source changes, made again when one does,
// and serving with both kinds of thread. The bundle is made and run here on any Node, so that
// CI on a newer Node proves it too; in a linked copy of the checkout, whose .cache/ it writes.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startScriptProcess } from '../bench/server-process.ts';
import { raw } from './support/http.ts';
import { REPO } from './support/project.ts';

const run = promisify(execFile);
const { serverBundle, sourceKey } = (await import(pathToFileURL(join(REPO, 'bin', 'server-bundle.mjs')).href)) as {
  serverBundle(root: URL): Promise<URL>;
  sourceKey(root: string): string;
};

let root: string;
before(async () => {
  // Linked, not copied: a file added to the copy's pipeline/ is the copy's alone.
  await mkdir(join(REPO, '.cache'), { recursive: true });
  root = await mkdtemp(join(REPO, '.cache', 'bundle-'));
  for (const file of ['package.json', 'package-lock.json', 'bin', 'serve.ts', 'pipeline', 'schemas', 'dist'])
    await run('cp', ['-al', join(REPO, file), join(root, file)]);
  await mkdir(join(root, 'records'));
  await run('cp', ['-al', join(REPO, 'records', 'site.yaml'), join(root, 'records', 'site.yaml')]);
  await symlink(join(REPO, 'node_modules'), join(root, 'node_modules'));
});
after(() => rm(root, { recursive: true, force: true }));

const bundles = () => readdirSync(join(root, '.cache')).filter((name) => name.startsWith('server-'));

test('a bundle is made once, reused while the sources stand, and made anew when one changes', async () => {
  const made = await serverBundle(pathToFileURL(`${root}/`));
  assert.equal(made.pathname, join(root, '.cache', `server-${sourceKey(root)}`, 'serve.js'));
  for (const entry of ['serve.js', 'tool-worker.js', 'log-worker.js']) assert.ok(existsSync(join(made.pathname, '..', entry)), entry);
  const madeAt = statSync(made.pathname).mtimeMs;
  assert.equal((await serverBundle(pathToFileURL(`${root}/`))).href, made.href);
  assert.equal(statSync(made.pathname).mtimeMs, madeAt, 'reused, not made again');

  writeFileSync(join(root, 'pipeline', 'added-since.ts'), 'export const added = 1;\n');
  const remade = await serverBundle(pathToFileURL(`${root}/`));
  assert.notEqual(remade.href, made.href);
  // A server may still run from the older bundle: it stays until 8 newer ones are made.
  assert.deepEqual(bundles().sort(), [made, remade].map((url) => url.pathname.split('/').at(-2)).sort());
  const cache = join(root, '.cache');
  for (let n = 0; n < 8; n++) await mkdir(join(cache, `server-${'0'.repeat(15)}${n}`));
  await rm(remade.pathname.replace(/serve\.js$/, ''), { recursive: true });
  await serverBundle(pathToFileURL(`${root}/`));
  assert.equal(bundles().length, 8);
  assert.equal(existsSync(made.pathname), false, 'the oldest is removed');
});

test('the bundle serves documents, a tool on its thread and the request log on its own', async () => {
  const bundle = await serverBundle(pathToFileURL(`${root}/`));
  // Started as npm start's command starts it on Node 20: node on the bundle's serve.js, no loader.
  const server = await startScriptProcess(root, relative(root, bundle.pathname), ['--port', '0', '--host', '127.0.0.1']);
  try {
    assert.equal((await raw(server.origin, '/crawler/gptbot.json')).status, 200);
    const tool = await raw(server.origin, '/tools/classify-ua?ua=GPTBot%2F1.2');
    assert.equal(tool.status, 200, tool.text);
    assert.equal((JSON.parse(tool.text) as { crawler: { slug: string } }).crawler.slug, 'gptbot');
    const stats = JSON.parse((await raw(server.origin, '/stats.json')).text) as { log: { state: string } };
    assert.equal(stats.log.state, 'ok', 'the log thread started from the bundle');
  } finally {
    await server.stop();
  }
});
