// The two ways people install Crawler Index, each as a fresh machine gets it.
//
// - The README's serving install, `npm ci --omit=dev && npm start`: the files the container holds
//   (the Dockerfile's COPY lines), the production dependencies only, and npm start.
// - The package `npm pack` makes, in an empty project that depends on it: its library imported by
//   name with its types, and its bin run (docs/API.md §11).
//
// npm would fetch from the registry, which no test may reach; the dependencies are made offline
// instead, from this checkout's node_modules linked (not copied) and pruned by npm itself with
// --omit=dev, which removes exactly what `npm ci --omit=dev` would not install. The project that
// depends on the package gets that tree too, and the unpacked tarball beside it, where npm puts them.
import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { openIndex } from '../pipeline/package/index.ts';
import { escapeRegex } from '../pipeline/render/regex.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { REPO } from './support/project.ts';
import { exitOf, servingLine } from './support/serving-line.ts';

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
  root = await mkdtemp(join(REPO, '.cache', 'installs-'));
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

/** How long a server started from the install may take to say it serves (tsx's loader, under a loaded machine). */
const START_TIMEOUT_MS = 120_000;

/** Runs `serve(origin, stderr)` against a server started by `command`, then stops it and everything it started. */
async function withServer(command: string, args: string[], cwd: string, serve: (origin: string, stderr: () => string) => Promise<void>): Promise<void> {
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = exitOf(child);
  try {
    const serving = await servingLine(child, exited, START_TIMEOUT_MS);
    await serve(serving.origin, serving.stderr);
  } finally {
    // The command and the server it started are one process group: both stop.
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

const GPTBOT_UA = 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)';

test('npm start serves documents, a tool and MCP from that install', async () => {
  await withServer('npm', ['start', '--', '--port', '0', '--host', '127.0.0.1', '--no-log'], root, async (origin) => {
    assert.equal((await raw(origin, '/healthz')).status, 200);
    assert.equal((await raw(origin, '/crawler/gptbot.json')).status, 200);
    const tool = await raw(origin, `/tools/classify-ua?ua=${encodeURIComponent(GPTBOT_UA)}`);
    assert.equal(tool.status, 200, tool.text);
    assert.equal((JSON.parse(tool.text) as { crawler: { slug: string } }).crawler.slug, 'gptbot');
    const mcp = await raw(origin, '/mcp', {
      method: 'POST',
      headers: JSON_RPC_HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: 'GPTBot/1.2' } } }),
    });
    assert.equal(mcp.status, 200, mcp.text);
    assert.equal((JSON.parse(mcp.text) as { result: { isError?: boolean } }).result.isError, undefined, mcp.text.slice(0, 300));
  });
  // A Node that cannot run TypeScript itself ran the server's bundle, made with the esbuild this install holds (bin/serve.mjs).
  const stripsTypes = typeof (process.features as { typescript?: unknown }).typescript === 'string';
  assert.equal(existsSync(join(root, '.cache')) && readdirSync(join(root, '.cache')).some((name) => /^server-[0-9a-f]{16}$/.test(name)), !stripsTypes);
});

describe('the package npm pack makes, in a project that depends on it', () => {
  /** The empty project, with the unpacked package and its production dependencies in node_modules/. */
  let project: string;
  /** The linked copy of this checkout that is packed, and the tarball. */
  let source: string;
  let files: string[];
  const bin = () => join(project, 'node_modules', '.bin', 'crawler-index');

  before(async () => {
    // Packed from a linked copy of the checkout, so that prepack's lib/ is written there and not
    // into this checkout while other tests read it. The copy holds what `files` names and what
    // prepack reads; its node_modules is this checkout's, dev tools included, as prepack needs.
    source = await mkdtemp(join(REPO, '.cache', 'pack-'));
    for (const file of ['package.json', 'tsconfig.json', 'README.md', 'LICENSE', 'bin', 'serve.ts', 'pipeline', 'schemas', 'dist', 'scripts'])
      await linkTree(join(REPO, file), join(source, file));
    await mkdir(join(source, 'records'));
    await linkTree(join(REPO, 'records', 'site.yaml'), join(source, 'records', 'site.yaml'));
    await symlink(join(REPO, 'node_modules'), join(source, 'node_modules'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', source], { cwd: source, maxBuffer: 1 << 26 });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    files = packed!.files.map((f) => f.path);

    project = await mkdtemp(join(REPO, '.cache', 'depends-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'depends-on-crawler-index', private: true, type: 'module' }));
    const modules = join(project, 'node_modules');
    await mkdir(join(modules, 'crawler-index'), { recursive: true });
    await run('tar', ['-xzf', join(source, packed!.filename), '-C', join(modules, 'crawler-index'), '--strip-components=1']);
    for (const name of readdirSync(join(root, 'node_modules'))) if (!name.startsWith('.')) await symlink(join(root, 'node_modules', name), join(modules, name));
    // npm links each bin into node_modules/.bin and makes it executable.
    await mkdir(join(modules, '.bin'));
    await symlink(join('..', 'crawler-index', 'bin', 'crawler-index.mjs'), bin());
    chmodSync(join(modules, 'crawler-index', 'bin', 'crawler-index.mjs'), 0o755);
  });

  after(async () => {
    await rm(source, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });

  test('it ships the index, the library with its types and the bin, and no tests or records', () => {
    for (const file of ['lib/index.js', 'lib/index.d.ts', 'bin/crawler-index.mjs', 'dist/documents.json', 'dist/data/agents.json', 'records/site.yaml'])
      assert.ok(files.includes(file), file);
    assert.deepEqual(
      files.filter((f) => /\.test\.ts$|^test\/|^bench\/|^records\/(?!site\.yaml$)|^state\//.test(f)),
      [],
    );
  });

  test('its library answers as the endpoints do, imported by name, offline', async () => {
    // The README's three lines, and a refused input.
    writeFileSync(
      join(project, 'use.mjs'),
      [
        "import { openIndex, ToolInputError } from 'crawler-index';",
        'const index = await openIndex();',
        `const classified = await index.classify(${JSON.stringify(GPTBOT_UA)});`,
        "const verified = await index.verify(['66.249.66.1', '203.0.113.9'], { userAgent: 'Googlebot' });",
        "const allowed = await index.allowed('User-agent: GPTBot\\nDisallow: /private\\n', { userAgent: 'GPTBot', paths: ['/', '/private/a'] });",
        'let refused = null;',
        'try { await index.verify([]); } catch (error) { refused = error instanceof ToolInputError ? { field: error.field, accepted: error.accepted } : String(error); }',
        'process.stdout.write(JSON.stringify({ classified, verified, allowed, refused }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: project, maxBuffer: 1 << 24 });
    const answers = JSON.parse(stdout) as Record<string, unknown>;
    const here = await openIndex({ dist: join(REPO, 'dist') });
    assert.deepEqual(answers['classified'], await here.classify(GPTBOT_UA));
    assert.deepEqual(answers['verified'], await here.verify(['66.249.66.1', '203.0.113.9'], { userAgent: 'Googlebot' }));
    assert.deepEqual(answers['allowed'], await here.allowed('User-agent: GPTBot\nDisallow: /private\n', { userAgent: 'GPTBot', paths: ['/', '/private/a'] }));
    assert.equal((answers['classified'] as { crawler: { slug: string } }).crawler.slug, 'gptbot');
    assert.deepEqual(Object.keys(answers['refused'] as object), ['field', 'accepted']);
    assert.equal((answers['refused'] as { field: string }).field, 'ip');
  });

  test('its types let a typed program through and stop one that misuses an answer', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] }, include: ['*.ts'] }),
    );
    writeFileSync(
      join(project, 'typed.ts'),
      [
        "import { openIndex, type AddressVerdicts, type Classification } from 'crawler-index';",
        'const index = await openIndex();',
        `const classified: Classification = await index.classify(${JSON.stringify(GPTBOT_UA)});`,
        'const slug: string | undefined = classified.matched ? classified.crawler.slug : undefined;',
        "const verified: AddressVerdicts = await index.verify(['66.249.66.1']);",
        'export const seen = [slug, verified.results.length];',
      ].join('\n'),
    );
    const tsc = [join(REPO, 'node_modules', 'typescript-7', 'bin', 'tsc'), '-p', project];
    await run(process.execPath, tsc, { cwd: project });
    writeFileSync(
      join(project, 'misused.ts'),
      "import { openIndex } from 'crawler-index';\nexport const n: number = (await openIndex()).classify('GPTBot/1.2');\n",
    );
    const failed = await run(process.execPath, tsc, { cwd: project }).then(
      () => null,
      (error: { stdout: string }) => error.stdout,
    );
    rmSync(join(project, 'misused.ts'));
    assert.match(failed ?? 'tsc accepted a misused answer', /misused\.ts\(2,\d+\): error TS2322/);
  });

  test('its bin answers from the index it ships, in a folder that holds none', async () => {
    // One tool is enough here: the others are the same command line (test/cli.test.ts).
    const classify = await run(bin(), ['classify', GPTBOT_UA], { cwd: project });
    assert.match(classify.stdout, /^GPTBot by OpenAI/);
  });

  test('its bin serves, keeping the request log in the working folder and out of node_modules', async () => {
    await withServer(bin(), ['serve', '--port', '0', '--host', '127.0.0.1'], project, async (origin) => {
      const tool = await raw(origin, `/tools/classify-ua?ua=${encodeURIComponent(GPTBOT_UA)}`);
      assert.equal(tool.status, 200, tool.text);
      assert.equal((JSON.parse(tool.text) as { crawler: { slug: string } }).crawler.slug, 'gptbot');
    });
    assert.ok(existsSync(join(project, 'state', 'requests.db')));
    assert.equal(existsSync(join(project, 'node_modules', 'crawler-index', 'state')), false);
  });

  test('its bin, given --root before serve, serves the build under that folder and keeps the request log there', async () => {
    const elsewhere = await mkdtemp(join(REPO, '.cache', 'root-'));
    const working = await mkdtemp(join(REPO, '.cache', 'working-'));
    try {
      // Hard links: the server only reads them.
      await linkTree(join(REPO, 'dist'), join(elsewhere, 'dist'));
      // Bounded: a server that started anyway would otherwise keep this test waiting.
      const refused = await run(bin(), ['--root', elsewhere, 'serve', '--port', '0', '--host', '127.0.0.1'], { cwd: working, timeout: 60_000 }).then(
        () => null,
        (error: { code?: number; stderr?: string }) => error,
      );
      assert.equal(refused?.code, 1, 'a folder without records/site.yaml is refused');
      assert.match(refused?.stderr ?? '', /records\/site\.yaml does not exist: .*--root must name a project folder holding records\/site\.yaml and dist\//);
      await mkdir(join(elsewhere, 'records'));
      await linkTree(join(REPO, 'records', 'site.yaml'), join(elsewhere, 'records', 'site.yaml'));
      await withServer(bin(), ['--root', elsewhere, 'serve', '--port', '0', '--host', '127.0.0.1'], working, async (origin, stderr) => {
        assert.equal((await raw(origin, '/crawler/gptbot.json')).status, 200);
        assert.match(stderr(), new RegExp(`^serving ${escapeRegex(join(elsewhere, 'dist'))} at `, 'm'));
        assert.match(stderr(), new RegExp(`^request log: ${escapeRegex(join(elsewhere, 'state', 'requests.db'))}$`, 'm'));
      });
      assert.ok(existsSync(join(elsewhere, 'state', 'requests.db')));
      assert.equal(existsSync(join(working, 'state')), false);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
      await rm(working, { recursive: true, force: true });
    }
  });
});
