// The container's promises, checked without a Docker engine (there is none where the tests
// run, and hadolint is neither on npm nor in Debian): the Dockerfile is linted by
// dockerfile-utils (the validator of the Dockerfile language server) and read instruction by
// instruction, its build context is judged through .dockerignore, compose.yaml is parsed, and
// the HEALTHCHECK's script is run against a real server. `docker build` itself is not run here.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { serveMini, type ServedMini } from './support/served.ts';
import { REPO } from './support/project.ts';

interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** Dockerfile instructions: comments dropped, `\` continuations joined, keywords upper-cased. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: Instruction | null = null;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (pending === null && (line === '' || line.startsWith('#'))) continue;
    if (pending !== null && line.startsWith('#')) continue;
    const continued = line.endsWith('\\');
    const body = continued ? line.slice(0, -1).trim() : line;
    if (pending === null) {
      const [keyword = '', ...rest] = body.split(/\s+/);
      pending = { line: index + 1, keyword: keyword.toUpperCase(), args: rest.join(' ') };
    } else {
      pending.args = `${pending.args} ${body}`.trim();
    }
    if (!continued) {
      out.push(pending);
      pending = null;
    }
  }
  assert.equal(pending, null, 'the Dockerfile ends inside a continued line');
  return out;
}

/** Whether .dockerignore keeps `path` out of the build context: the last matching line wins. */
function ignored(rules: readonly string[], path: string): boolean {
  let out = false;
  for (const rule of rules) {
    const negated = rule.startsWith('!');
    const pattern = (negated ? rule.slice(1) : rule).replace(/^\/+|\/+$/g, '');
    const source = pattern
      .split('/')
      .map((part) =>
        part === '**'
          ? '.*'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/')
      .replace(/\.\*\//g, '(?:.*/)?');
    // A pattern that names a folder also covers everything inside it.
    if (new RegExp(`^${source}(?:/.*)?$`).test(path)) out = !negated;
  }
  return out;
}

const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
const steps = instructions(dockerfile);
/** The instructions of each stage, each starting with its FROM. */
const stages: Instruction[][] = [];
for (const step of steps) {
  if (step.keyword === 'FROM') stages.push([step]);
  else stages.at(-1)?.push(step);
}
const runtime = stages.at(-1) ?? [];
const dockerignore = readFileSync(join(REPO, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const nvmrc = readFileSync(join(REPO, '.nvmrc'), 'utf8').trim();

const only = (keyword: string, list: readonly Instruction[] = runtime) => list.filter((s) => s.keyword === keyword);
const envOf = (name: string): string | undefined => {
  for (const step of only('ENV').reverse()) {
    const found = new RegExp(`(?:^|\\s)${name}=(\\S+)`).exec(step.args);
    if (found) return found[1];
  }
  return undefined;
};

describe('Dockerfile', () => {
  const problems = (text: string) => validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);

  test('the Dockerfile linter finds nothing', () => {
    assert.deepEqual(problems(dockerfile), []);
  });

  // Proves the linter is really running, so "finds nothing" above means something.
  test('the linter finds the faults in a broken Dockerfile', () => {
    const found = problems(['FROM node:24', 'RUNN true', 'HEALTHCHECK --intervall=3s CMD true', 'EXPOSE http', ''].join('\n'));
    assert.deepEqual(found, ['line 2: Unknown instruction: RUNN', 'line 3: Unknown flag: intervall', 'line 4: Invalid containerPort: http']);
  });

  test('every stage starts from the Node LTS of .nvmrc, pinned to a full version', () => {
    assert.ok(stages.length >= 1);
    for (const stage of stages) {
      const image = (stage[0]?.args ?? '').split(/\s+/)[0] ?? '';
      assert.match(image, /^node:\d+\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/, `FROM ${image} names a full version, not a moving tag`);
      assert.equal(image.split(':')[1]?.split('.')[0], nvmrc, `FROM ${image} is Node ${nvmrc}, as .nvmrc says`);
    }
  });

  test('installs production dependencies only, with the compiler better-sqlite3 may need, and keeps no apt lists', () => {
    const runs = steps.filter((s) => s.keyword === 'RUN').map((s) => s.args);
    assert.ok(
      runs.some((r) => /\bnpm ci\b.*--omit=dev/.test(r)),
      'npm ci --omit=dev',
    );
    const apt = runs.find((r) => /apt-get install/.test(r)) ?? '';
    for (const tool of ['python3', 'make', 'g++']) assert.match(apt, new RegExp(`\\s${tool.replace('+', '\\+')}(\\s|$)`), tool);
    assert.match(apt, /--no-install-recommends/);
    assert.match(apt, /rm -rf \/var\/lib\/apt\/lists/);
  });

  test('the server runs as a user other than root', () => {
    const users = only('USER');
    assert.ok(users.length > 0, 'the runtime stage sets USER');
    const user = users.at(-1)?.args ?? '';
    assert.doesNotMatch(user, /^(root|0)(:|$)/);
    const cmd = only('CMD').at(-1);
    assert.ok(cmd && (users.at(-1)?.line ?? 0) < cmd.line, 'USER comes before CMD');
  });

  test('EXPOSE is the port the server listens on (ENV PORT)', () => {
    assert.deepEqual(
      only('EXPOSE').map((s) => s.args),
      [envOf('PORT')],
    );
  });

  test('HEALTHCHECK asks /healthz through a script that is in the image', () => {
    const check = only('HEALTHCHECK');
    assert.equal(check.length, 1);
    const command = /CMD\s+(\[.*\])$/.exec(check[0]?.args ?? '')?.[1];
    assert.ok(command, 'HEALTHCHECK ... CMD [exec form]');
    const argv = JSON.parse(command) as string[];
    assert.deepEqual(argv, ['node', 'bin/healthcheck.mjs']);
    assert.match(readFileSync(join(REPO, 'bin', 'healthcheck.mjs'), 'utf8'), /\/healthz/);
  });

  test('CMD is exec form, so node is the process that receives the stop signal', () => {
    const cmd = only('CMD');
    assert.equal(cmd.length, 1);
    const argv = JSON.parse(cmd[0]?.args ?? '') as unknown;
    assert.ok(Array.isArray(argv));
    assert.equal(argv[0], 'node');
    assert.ok(argv.includes('serve.ts'));
  });

  test('every COPY from the build context exists and is in the context .dockerignore admits', () => {
    const copies = steps.filter((s) => s.keyword === 'COPY' && !/--from=/.test(s.args));
    assert.ok(copies.length > 0);
    for (const copy of copies) {
      const words = copy.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      for (const source of words.slice(0, -1)) {
        assert.ok(existsSync(join(REPO, source)), `COPY ${source} (line ${copy.line}) exists`);
        assert.equal(ignored(dockerignore, source.replace(/\/$/, '')), false, `COPY ${source} is not excluded by .dockerignore`);
      }
    }
  });

  test('.dockerignore keeps out node_modules, .git, state/ and the tests', () => {
    for (const path of [
      'node_modules',
      'node_modules/yaml/package.json',
      '.git',
      '.git/HEAD',
      'state/requests.db',
      'test/server.test.ts',
      'pipeline/routes.test.ts',
    ])
      assert.equal(ignored(dockerignore, path), true, `${path} is kept out`);
    for (const path of ['serve.ts', 'pipeline/routes.ts', 'dist/index.html', 'bin/ts-loader.mjs'])
      assert.equal(ignored(dockerignore, path), false, `${path} is sent`);
  });

  test("the ignore reader follows Docker's rules (last match wins, ** spans folders)", () => {
    assert.equal(ignored(['*', '!dist/'], 'dist/a/b.json'), false);
    assert.equal(ignored(['*', '!dist/', 'dist/secret'], 'dist/secret/x'), true);
    assert.equal(ignored(['**/*.test.ts'], 'a/b/c.test.ts'), true);
    assert.equal(ignored(['**/*.test.ts'], 'c.test.ts'), true);
    assert.equal(ignored(['node_modules'], 'node_modules_x'), false);
  });
});

describe('compose.yaml', () => {
  const compose = parse(readFileSync(join(REPO, 'compose.yaml'), 'utf8')) as {
    services: Record<string, { build?: { context?: string; dockerfile?: string }; ports?: string[]; volumes?: string[] }>;
    volumes?: Record<string, unknown>;
  };
  const services = Object.values(compose.services);

  test('builds this Dockerfile and publishes the port it exposes', () => {
    assert.equal(services.length, 1);
    const [service] = services;
    assert.equal(service?.build?.context, '.');
    assert.ok(existsSync(join(REPO, service?.build?.dockerfile ?? '')), 'the Dockerfile it names exists');
    assert.deepEqual(
      service?.ports?.map((p) => p.split(':').at(-1)),
      [envOf('PORT')],
    );
  });

  test('keeps the request log in a named volume mounted where the server writes it', () => {
    const mounts = services[0]?.volumes ?? [];
    const log = mounts.map((m) => m.split(':')).find(([, target]) => target === '/app/state');
    assert.ok(log, 'a volume is mounted at /app/state (state/requests.db, the request log)');
    assert.ok(compose.volumes && log[0] !== undefined && log[0] in compose.volumes, `${log[0]} is a named volume`);
    assert.equal(only('WORKDIR').at(-1)?.args, '/app', 'the server runs in /app, so its log is /app/state/requests.db');
  });
});

describe('HEALTHCHECK script', () => {
  let served: ServedMini;
  before(async () => {
    // /healthz is all the script asks; tool threads would only start and stop.
    served = await serveMini({ tools: { threads: 0 } });
  });
  after(() => served.dispose());

  const check = (port: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(REPO, 'bin', 'healthcheck.mjs')], {
        env: { ...process.env, PORT: port, HOST: '0.0.0.0' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      child.once('close', (code) => resolve({ code, stderr }));
    });

  test('exit 0 while the server answers /healthz', async () => {
    const { code, stderr } = await check(new URL(served.server.url).port);
    assert.equal(code, 0, stderr);
  });

  test('exit 1, with the reason, when nothing answers', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = String((probe.address() as { port: number }).port);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { code, stderr } = await check(port);
    assert.equal(code, 1);
    assert.match(stderr, /^healthcheck: http:\/\/127\.0\.0\.1:\d+\/healthz: /);
  });
});
