// Self-hosting as a user or a container runs it: `npm start` and the Dockerfile's CMD are real
// processes here, stopped by a real signal; bad settings are given the way people give them.
import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packageRoot } from '../pipeline/node/package-root.ts';
import { judgeServeArguments, listenFailure } from '../pipeline/node/serve-args.ts';
import { Database } from '../pipeline/node/sqlite-driver.ts';
import { errnoOf, messageOf } from '../pipeline/util/errno.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { raw } from './support/http.ts';
import { serveMini, type ServedMini, serveTree } from './support/served.ts';
import { REPO } from './support/project.ts';
import { type Exit, exitOf, servingLine } from './support/serving-line.ts';

const START_TIMEOUT_MS = 60_000;
const validateHealth = validatorFor('outputs/health.schema.json');

interface Started {
  child: ChildProcess;
  origin: string;
  stderr: () => string;
  exited: Promise<Exit>;
}

/** Runs argv in the repository and waits for serve.ts's "serving ... at <origin>" line. */
function start(argv: readonly string[], env: Record<string, string>, onStdout?: (text: string) => void): Promise<Started> {
  const [command = '', ...args] = argv;
  const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', onStdout === undefined ? 'ignore' : 'pipe', 'pipe'] });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => onStdout?.(chunk));
  const exited = exitOf(child);
  return servingLine(child, exited, START_TIMEOUT_MS).then(({ origin, stderr }) => ({ child, origin, stderr, exited }));
}

/** Every process below pid, from /proc (Linux): the ones a signal to pid must not leave behind. */
function descendants(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  const children = readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has ended; only its parent has not read its status yet.
  const stat = `/proc/${pid}/stat`;
  return !(existsSync(stat) && /^\d+ \(.*\) Z /.test(readFileSync(stat, 'utf8')));
}

async function refusesConnections(origin: string): Promise<boolean> {
  return raw(origin, '/status.json').then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
  );
}

/** The Dockerfile's CMD, exec form: what `docker run` starts as the container's process. */
function dockerCmd(): string[] {
  const line = readFileSync(join(REPO, 'Dockerfile'), 'utf8')
    .split('\n')
    .find((l) => /^CMD\s/.test(l));
  assert.ok(line, 'the Dockerfile has a CMD');
  const argv = JSON.parse(line.replace(/^CMD\s+/, '')) as unknown;
  assert.ok(Array.isArray(argv) && argv.every((a) => typeof a === 'string'), 'CMD is in exec form (a JSON array), so the signal reaches node');
  return argv.map((a) => (a === 'node' ? process.execPath : a));
}

let scratch: string;
/** The mini fixture served in this process, for what needs no process of its own. */
let served: ServedMini;
before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'crawler-index-self-host-'));
  served = await serveMini({ tools: { threads: 0 } });
});
after(async () => {
  await served.dispose();
  await rm(scratch, { recursive: true, force: true });
});

describe('a signal stops the server and leaves no process behind', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  // Each way to start the server and each signal it stops on, once: serve.ts answers SIGTERM and
  // SIGINT with the same stop, so a third run (the CMD with SIGINT) would prove no other line.
  // SIGINT goes to npm (Ctrl-C while developing), SIGTERM to the CMD's node (`docker stop`).
  const ways = [
    { name: 'npm start, SIGINT to npm', argv: () => ['npm', 'start', '--', '--port', '0', '--host', '127.0.0.1'], signal: 'SIGINT' },
    { name: "the Dockerfile's CMD, SIGTERM", argv: dockerCmd, signal: 'SIGTERM' },
  ] as const;
  for (const [i, way] of ways.entries()) {
    test(way.name, { timeout: 120_000 }, async () => {
      const log = join(scratch, `requests-${i}.db`);
      // COMPRESS=0: the background encoding is not what this proves, and the busy port below
      // shows a server with it stopping (serve.ts's defaults).
      const server = await start(way.argv(), { PORT: '0', HOST: '127.0.0.1', LOG_DB: log, COMPRESS: '0' });
      const pid = server.child.pid ?? 0;
      assert.equal((await raw(server.origin, '/healthz')).status, 200);
      for (let n = 0; n < 5; n++) assert.equal((await raw(server.origin, `/status.json?n=${n}`)).status, 200);
      const tree = [pid, ...descendants(pid)];
      assert.ok(tree.length >= 1);
      server.child.kill(way.signal);
      await server.exited;
      // Give an orphan, if any, the time a clean stop takes before judging (no event tells when a
      // process that is not our child ends, so its state is read until it is gone or time is up).
      for (const until = performance.now() + 500; tree.some(alive) && performance.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const left = tree.filter(alive);
      for (const pid of left) process.kill(pid, 'SIGKILL');
      assert.deepEqual(left, [], `processes left running after ${way.signal} (now killed):\n${server.stderr()}`);
      assert.equal((await server.exited).code, 0, server.stderr());
      assert.match(server.stderr(), new RegExp(`${way.signal}: closing`));
      assert.ok(await refusesConnections(server.origin), 'the port no longer answers');
      // The log was flushed and closed, not cut off: every request answered is in it.
      const db = new Database(log, { readonly: true });
      try {
        const rows = (db.prepare('SELECT route, COUNT(*) AS n FROM hits GROUP BY route').all() as { route: string; n: number }[]).map(
          (r) => `${r.route} ${r.n}`,
        );
        // The health probe is not booked: a HEALTHCHECK every 30 s would be most of the log.
        assert.deepEqual(rows, ['/status.json 5']);
      } finally {
        db.close();
      }
    });
  }
});

/** serve.ts as npm start runs it, without npm (whose own error lines would wrap ours). */
function serveOnce(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', './bin/ts-loader.mjs', 'serve.ts', '--no-log', ...args], {
    cwd: REPO,
    env: { ...process.env, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

function assertOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.match(lines[0] ?? '', pattern);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
}

test('--access-log prints a line per request on standard output in the combined format, escaping what a client sent, and nothing else there', {
  timeout: 120_000,
}, async () => {
  let stdout = '';
  const server = await start(
    ['node', '--import', './bin/ts-loader.mjs', 'serve.ts', '--access-log', '--no-log'],
    { PORT: '0', HOST: '127.0.0.1', COMPRESS: '0' },
    (text) => {
      stdout += text;
    },
  );
  let documentBytes = 0;
  try {
    const document = await raw(server.origin, '/crawler/gptbot.json', { headers: { 'user-agent': 'Bot "quoted" \\ here', referer: 'https://ref.example/' } });
    assert.equal(document.status, 200);
    documentBytes = document.body.length;
    assert.equal((await raw(server.origin, '/no-such-page.json', { method: 'HEAD' })).status, 404);
    // A User-Agent with a byte beyond ASCII and a quote, as a client may send them (obs-text).
    const socket = connect(Number(new URL(server.origin).port), '127.0.0.1');
    socket.end(
      Buffer.concat([
        Buffer.from('GET /healthz HTTP/1.1\r\nHost: a\r\nUser-Agent: x'),
        Buffer.from([0xff, 0x22]),
        Buffer.from('\r\nConnection: close\r\n\r\n'),
      ]),
    );
    for await (const _ of socket);
    server.child.kill('SIGTERM');
    await server.exited;
  } finally {
    server.child.kill('SIGKILL');
  }
  const combined = /^127\.0\.0\.1 - - \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "([^"]*)" (\d{3}) (\d+) "([^"]*)" "([^"]*)" \d+\.\d{3}$/;
  const fields = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => combined.exec(line)?.slice(1) ?? line);
  assert.deepEqual(fields, [
    ['GET /crawler/gptbot.json HTTP/1.1', '200', String(documentBytes), 'https://ref.example/', 'Bot \\x22quoted\\x22 \\x5C here'],
    ['HEAD /no-such-page.json HTTP/1.1', '404', '0', '-', '-'],
    ['GET /healthz HTTP/1.1', '200', (fields[2] as string[] | undefined)?.[2], '-', 'x\\xFF\\x22'],
  ]);
});

describe('a setting in the wrong form: one line naming the accepted form, exit 2', () => {
  const PORT_FORM = /^error: .*is invalid\. expected a whole number from 1 to 65535, or 0 for any free port$/;
  const cases: { given: string; args?: string[]; env?: Record<string, string>; form: RegExp }[] = [
    { given: 'PORT=99999', env: { PORT: '99999' }, form: PORT_FORM },
    { given: 'PORT=abc', env: { PORT: 'abc' }, form: PORT_FORM },
    { given: 'PORT=-1', env: { PORT: '-1' }, form: PORT_FORM },
    { given: 'PORT=8e1', env: { PORT: '8e1' }, form: PORT_FORM },
    { given: '--port -1', args: ['--port', '-1'], form: PORT_FORM },
    { given: '--port 65536', args: ['--port', '65536'], form: PORT_FORM },
    { given: '--port abc', args: ['--port', 'abc'], form: PORT_FORM },
    { given: '--log-retention-days 0', args: ['--log-retention-days', '0'], form: /days from 1 to 3650$/ },
    { given: 'LOG_RETENTION_DAYS=x', env: { LOG_RETENTION_DAYS: 'x' }, form: /^error: environment variable LOG_RETENTION_DAYS "x" is invalid\./ },
    { given: '--log-max-mb 0', args: ['--log-max-mb', '0'], form: /expected a whole number of MiB from 1 to 1048576$/ },
    { given: 'LOG_MAX_MB=1.5', env: { LOG_MAX_MB: '1.5' }, form: /^error: environment variable LOG_MAX_MB "1\.5" is invalid\. expected a whole number of MiB/ },
    {
      given: 'BASE_URL=ftp://x',
      env: { BASE_URL: 'ftp://x' },
      form: /^error: environment variable BASE_URL "ftp:\/\/x" is invalid\. expected an absolute http or https URL/,
    },
    { given: '--base-url crawlers.example', args: ['--base-url', 'crawlers.example'], form: /expected an absolute http or https URL with no query/ },
    { given: '--base-url https://a.example/?q', args: ['--base-url', 'https://a.example/?q'], form: /expected an absolute http or https URL with no query/ },
    { given: 'TRUST_PROXY=yes', env: { TRUST_PROXY: 'yes' }, form: /^error: environment variable TRUST_PROXY "yes" is invalid\. expected 1 or true/ },
    { given: 'ACCESS_LOG=yes', env: { ACCESS_LOG: 'yes' }, form: /^error: environment variable ACCESS_LOG "yes" is invalid\. expected 1 or true/ },
    { given: 'COMPRESS=no', env: { COMPRESS: 'no' }, form: /^error: environment variable COMPRESS "no" is invalid\. expected 0 or false to turn it off/ },
  ];
  // The judging is pure (serve-args.ts), so the table runs in this process; one of its rows also
  // runs as `npm start` does, to prove serve.ts judges its own environment, prints that line and
  // exits with that code. That serve.ts judges its own command line is proven by the busy port
  // below, named by --port and quoted back.
  for (const c of cases) {
    test(c.given, () => {
      const judged = judgeServeArguments(['node', 'serve.ts', '--no-log', ...(c.args ?? [])], { HOST: '127.0.0.1', ...c.env }, REPO);
      assert.equal(judged.kind, 'exit');
      assert.ok(judged.kind === 'exit');
      assert.equal(judged.code, 2, judged.stderr);
      assert.equal(judged.stdout, '');
      assertOneLine(judged.stderr, c.form);
    });
  }
  for (const given of ['PORT=abc']) {
    const c = cases.find((row) => row.given === given);
    assert.ok(c, given);
    test(`${given}, as a real process`, { timeout: 90_000 }, async () => {
      const { code, stderr } = await serveOnce(c.args ?? [], c.env);
      assert.equal(code, 2, stderr);
      assertOneLine(stderr, c.form);
    });
  }
});

test('stored documents are encoded in the background unless --no-compress or COMPRESS=0 turns it off', () => {
  const compress = (args: string[], env: Record<string, string> = {}) => {
    const judged = judgeServeArguments(['node', 'serve.ts', ...args], env, REPO);
    assert.ok(judged.kind === 'run', judged.kind === 'exit' ? judged.stderr : '');
    return judged.settings.compress;
  };
  assert.equal(compress([]), true, 'on by default');
  assert.equal(compress([], { COMPRESS: '' }), true, 'an empty value is the default');
  assert.equal(compress(['--no-compress']), false);
  assert.equal(compress([], { COMPRESS: '0' }), false);
  assert.equal(compress([], { COMPRESS: 'false' }), false);
  assert.equal(compress([], { COMPRESS: 'true' }), true);
  assert.equal(compress(['--no-compress'], { COMPRESS: '1' }), false, 'the command line wins');
});

test("without --root the index is the working folder's, or the package's own where it holds none; the log stays in the working folder", () => {
  const located = (args: string[], cwd: string) => {
    const judged = judgeServeArguments(['node', 'serve.ts', ...args], {}, cwd);
    assert.ok(judged.kind === 'run', judged.kind === 'exit' ? judged.stderr : '');
    return { root: judged.options.root, logDb: judged.options.logDb };
  };
  assert.deepEqual(located([], REPO), { root: REPO, logDb: join(REPO, 'state', 'requests.db') });
  // A folder with no dist/ (as a project that installed the package): this checkout is the package.
  const elsewhere = join(REPO, 'docs');
  assert.deepEqual(located([], elsewhere), { root: packageRoot(), logDb: join(elsewhere, 'state', 'requests.db') });
  assert.deepEqual(located(['--root', '/srv/index'], elsewhere), { root: '/srv/index', logDb: join('/srv/index', 'state', 'requests.db') });
  assert.equal(located(['--log-db', '/var/lib/log.db'], elsewhere).logDb, '/var/lib/log.db');
});

describe('a port or address that cannot be had: one line, exit 1', () => {
  let holder: Server;
  let port: number;
  before(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  test('a busy port names the port and how to choose another', { timeout: 90_000 }, async () => {
    const { code, stderr } = await serveOnce(['--port', String(port)]);
    assert.equal(code, 1, stderr);
    assertOneLine(stderr, new RegExp(`^error: port ${port} is already in use on 127\\.0\\.0\\.1: .*PORT or --port \\(a whole number from 1 to 65535`));
  });

  // serve.ts words every listen failure in the line proven above (one line, exit 1); which
  // failure it was only changes listenFailure's words, so this one runs in this process.
  test('an address this machine does not have', async () => {
    // 192.0.2.0/24 is reserved for documentation (RFC 5737): no machine has it.
    const refused = await serveTree(served.root, { host: '192.0.2.1' }).then(
      () => assert.fail('listened on 192.0.2.1'),
      (error: unknown) => error,
    );
    assert.equal((refused as { syscall?: unknown }).syscall, 'listen');
    assert.match(
      listenFailure(errnoOf(refused), '192.0.2.1', 0, messageOf(refused)),
      /^cannot listen on 192\.0\.2\.1:0: 192\.0\.2\.1 is not an address of this machine; .*HOST or --host/,
    );
  });
});

describe('GET /healthz', () => {
  for (const path of ['/healthz', '/api/v1/healthz']) {
    test(`${path}: 200, JSON by its schema, naming the build served, never cached`, async () => {
      const response = await raw(served.server.url, path);
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers['etag'], undefined, 'no validator: a cached "ok" would hide a dead server');
      const body = JSON.parse(response.text) as unknown;
      assert.ok(validateHealth(body), JSON.stringify(validateHealth.errors));
      assert.deepEqual(body, { status: 'ok', generated_at: '2026-01-01T00:00:00Z' });
    });
  }

  test('HEAD answers without a body; POST is 405 with Allow', async () => {
    const head = await raw(served.server.url, '/healthz', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    const post = await raw(served.server.url, '/healthz', { method: 'POST', body: '' });
    assert.equal(post.status, 405);
    assert.equal(post.headers['allow'], 'GET, HEAD, OPTIONS');
  });
});
