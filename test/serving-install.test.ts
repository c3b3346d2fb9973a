// The README's serving install, `npm ci --omit=dev && npm start`, as a fresh machine gets it:
// the files the container holds (the Dockerfile's COPY lines), the production dependencies only,
// and npm start. npm ci would fetch from the registry, which no test may reach; the same tree is
// made offline instead, from this checkout's node_modules linked (not copied) and pruned by npm
// itself with --omit=dev, which removes exactly what `npm ci --omit=dev` would not install.
import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { servingOrigin } from '../bench/server-process.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { REPO } from './support/project.ts';

const run = promisify(execFile);

/** The README's budget for the serving install's dependencies. */
const MAX_DEPENDENCIES_MIB = 150;

/** What the image's last stage copies from the build context (the Dockerfile's COPY lines without --from). */
function servedFiles(): string[] {
  const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return [...runtime.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/));
}

/** `from` (a file or a folder) at `to` by hard links (GNU cp -al): a tree of hundreds of MB is there in a moment. */
const linkTree = (from: string, to: string) => run('cp', ['-al', from, to]);

/** Bytes of the files under `dir`, each inode once (what du counts). */
function bytesUnder(dir: string): number {
  const seen = new Set<number>();
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const info = lstatSync(join(dir, name));
    if (!info.isFile() || seen.has(info.ino)) continue;
    seen.add(info.ino);
    total += info.size;
  }
  return total;
}

let root: string;

before(async () => {
  // Inside the checkout's own .cache/ (git ignores it), not the temporary folder: hard links
  // need one filesystem, and npm test puts TMPDIR in memory (/dev/shm).
  await mkdir(join(REPO, '.cache'), { recursive: true });
  root = await mkdtemp(join(REPO, '.cache', 'serving-install-'));
  // The server only reads these, so links to this checkout's files are safe.
  for (const file of ['package-lock.json', ...servedFiles()]) await linkTree(join(REPO, file), join(root, file));
  // npm prune unlinks what it removes, which leaves this checkout's files alone. The one file it
  // rewrites in place, its hidden lockfile, is a copy instead of a link.
  await linkTree(join(REPO, 'node_modules'), join(root, 'node_modules'));
  rmSync(join(root, 'node_modules', '.package-lock.json'));
  copyFileSync(join(REPO, 'node_modules', '.package-lock.json'), join(root, 'node_modules', '.package-lock.json'));
  await run('npm', ['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], { cwd: root, maxBuffer: 1 << 24 });
});
after(() => rm(root, { recursive: true, force: true }));

test(`the production dependencies fit in ${MAX_DEPENDENCIES_MIB} MiB and hold no dev tool`, () => {
  const mib = bytesUnder(join(root, 'node_modules')) / 2 ** 20;
  assert.ok(mib <= MAX_DEPENDENCIES_MIB, `${mib.toFixed(1)} MiB`);
  // (npm prune leaves a scope's folder behind empty: a package is gone when its package.json is.)
  for (const dev of ['@biomejs/biome', 'typescript', '@redocly/cli', 'puppeteer-core', 'knip'])
    assert.equal(existsSync(join(root, 'node_modules', dev, 'package.json')), false, dev);
});

test('npm start serves documents, a tool and MCP from that install', async () => {
  const child = spawn('npm', ['start', '--', '--port', '0', '--host', '127.0.0.1', '--no-log'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let stderr = '';
    const origin = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const found = stderr
          .split('\n')
          .map(servingOrigin)
          .find((o) => o !== null);
        if (found) resolve(found);
      });
      void exited.then((code) => reject(new Error(`npm start exited (${code}) before serving:\n${stderr}`)));
    });
    assert.equal((await raw(origin, '/healthz')).status, 200);
    assert.equal((await raw(origin, '/crawler/gptbot.json')).status, 200);
    const tool = await raw(origin, `/tools/classify-ua?ua=${encodeURIComponent('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')}`);
    assert.equal(tool.status, 200, tool.text);
    assert.equal((JSON.parse(tool.text) as { crawler: { slug: string } }).crawler.slug, 'gptbot');
    const mcp = await raw(origin, '/mcp', {
      method: 'POST',
      headers: JSON_RPC_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: 'GPTBot/1.2' } } }),
    });
    assert.equal(mcp.status, 200, mcp.text);
    assert.equal((JSON.parse(mcp.text) as { result: { isError?: boolean } }).result.isError, undefined, mcp.text.slice(0, 300));
  } finally {
    // npm and the server it started are one process group: both stop.
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
});
