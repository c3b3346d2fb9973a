import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { cliInProcess as inProcess, type Ran } from './support/cli.ts';
import { builtMini } from './support/built-mini.ts';
import { REPO, tempProject } from './support/project.ts';

// Each command runs once as a real process, as `npm run check|build|refresh` (node --import ./bin/ts-loader.mjs pipeline/cli.ts)
// and `npx crawler-index` (bin/crawler-index.mjs) start it: that proves the exit code, the two
// streams, standard input and commander's own exit. The other cases run the same commands in this
// process (pipeline/cli-program.ts), which a spawned tsx would only start more slowly; so does the
// refresh with a held lock (test/refresh-lock.test.ts).
const run = promisify(execFile);
const cli = (...args: string[]): Promise<Ran> =>
  run(process.execPath, ['--import', 'tsx', join(REPO, 'pipeline', 'cli.ts'), ...args], { cwd: REPO }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: Ran) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

test('check: a clean tree exits 0 and says so on stderr', async (t) => {
  const project = await tempProject('mini');
  t.after(() => project.dispose());
  const result = await inProcess('--root', project.root, 'check');
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /check: ok \(5 crawlers, 4 operators\)/);
});

test('check: prints every problem as file: path: message and exits 1', async (t) => {
  const project = await tempProject('mini');
  t.after(() => project.dispose());
  await writeFile(join(project.root, 'records', 'crawlers', 'gptbot.yaml'), 'slug: gptbot\nname: GPTBot\ncategory: robots\n');
  await writeFile(join(project.root, 'records', 'operators', 'openai.yaml'), 'slug: [unclosed\n');
  const result = await cli('--root', project.root, 'check');
  assert.equal(result.code, 1);
  const lines = result.stdout.trim().split('\n');
  assert.ok(
    lines.includes(
      'records/crawlers/gptbot.yaml: /category: must be equal to one of the allowed values: ai-training, ai-search, ai-assistant, ai-agent, dataset, search-engine, seo-tool, social-preview, archive, site-monitor, advertising, security-scanner, feed-fetcher, service-agent, web-data, research',
    ),
    result.stdout,
  );
  assert.ok(
    lines.some((l) => l.startsWith("records/crawlers/gptbot.yaml: /: must have required property 'operator'")),
    result.stdout,
  );
  assert.ok(
    lines.some((l) => l.startsWith('records/operators/openai.yaml: : not valid YAML')),
    result.stdout,
  );
  assert.match(result.stderr, /check: \d+ problems/);
});

test('build: --base-url must be an absolute URL, and a failed build says dist/ was left alone', async (t) => {
  const project = await tempProject('mini');
  t.after(() => project.dispose());
  const bad = await cli('--root', project.root, 'build', '--base-url', 'not a url');
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /expected an absolute http\(s\) URL/);
  await writeFile(join(project.root, 'records', 'crawlers', 'gptbot.yaml'), 'slug: gptbot\n');
  const failed = await inProcess('--root', project.root, 'build');
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /build: stopped, \d+ problems; dist\/ left as it was/);
});

test('--help lists both commands', async () => {
  const result = await inProcess('--help');
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /check\s/);
  assert.match(result.stdout, /build\s/);
});

test('refresh --help names its offline and commit options', async () => {
  const result = await cli('refresh', '--help');
  assert.equal(result.code, 0, result.stderr);
  for (const option of ['--upstream-dir <dir>', '--upstream-base <url>', '--only <ids>', '--base-url <url>', '--commit'])
    assert.ok(result.stdout.includes(option), `${option} in:\n${result.stdout}`);
});

// The tools on the command line, through the package's own bin (what `npx crawler-index` runs).
// verify runs on the committed dist/, the default --root; the others on the mini fixture's build
// (test/support/built-mini.ts), a quarter of the committed tree for each process to load.
const bin = (args: readonly string[], input?: string) =>
  new Promise<Ran>((resolve) => {
    const child = execFile(
      process.execPath,
      [join(REPO, 'bin', 'crawler-index.mjs'), ...args],
      { cwd: REPO, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? 1), stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });

test('audit, lint, allowed, classify and verify run the registry offline, as a summary or --json', async (t) => {
  const project = await builtMini();
  t.after(() => project.dispose());
  const file = join(project.root, 'robots.txt');
  await writeFile(file, 'User-agent: GPTBot\nDisalow: /\nDisallow: /\n');
  const mini = ['--root', project.root];
  // One process per command, started together: each loads its dist/ on its own.
  const [audit, lint, allowed, classify, verify] = await Promise.all([
    bin([...mini, 'audit', file]),
    bin([...mini, 'lint', '-'], 'User-agent: *\nDisalow: /x\n'),
    bin([...mini, 'allowed', file, '--ua', 'GPTBot', '--path', '/', '/a']),
    bin([...mini, 'classify', 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)']),
    bin(['verify', '66.249.66.1', '--ua', 'Googlebot']),
  ]);
  assert.equal(audit.code, 0, audit.stderr);
  assert.match(audit.stdout, /^For \/: 1 of \d+ AI crawlers are blocked/);
  assert.match(lint.stdout, /line 2 \("Disalow: \/x"\)/, 'reads standard input and quotes the line');
  assert.match(allowed.stdout, /^\/: disallowed for GPTBot \(line 3: Disallow: \/\)\n\/a: disallowed/);
  assert.match(classify.stdout, /^GPTBot by OpenAI/);
  // A match is evidence however old the committed copy is; what an address outside the lists gets depends on their age (test/verify-verdicts.test.ts).
  assert.match(verify.stdout, /Verdicts: 1 genuine\./);
  // Then one line per address: its verdict and the published range it is in.
  assert.match(verify.stdout, /\n66\.249\.66\.1 {2}genuine {2}Google 66\.249\.\d+\.\d+\/\d+ \(list google-googlebot\)\n$/);

  // robots is allowed's other name, as the package's README uses it.
  assert.equal((await inProcess(...mini, 'robots', file, '--ua', 'GPTBot', '--path', '/', '/a')).stdout, allowed.stdout);

  // --json and the usage preferences, in this process on the same mini build.
  const json = JSON.parse((await inProcess(...mini, 'audit', file, '--json')).stdout) as { blocked: { slug: string }[] };
  assert.deepEqual(
    json.blocked.map((b) => b.slug),
    ['gptbot'],
  );
  const signalled = join(project.root, 'signalled-robots.txt');
  await writeFile(signalled, 'User-agent: *\nContent-Signal: ai-train=no\n');
  const signals = JSON.parse((await inProcess(...mini, 'audit', signalled, '--json', '--content-usage-header', 'train-ai=n')).stdout) as {
    allowed: { slug: string; preferences: { content_usage: { 'train-ai': string }; content_signal: { 'ai-train': string } } }[];
  };
  const gpt = signals.allowed.find((a) => a.slug === 'gptbot')!;
  assert.deepEqual([gpt.preferences.content_usage['train-ai'], gpt.preferences.content_signal['ai-train']], ['disallowed', 'no']);
});

test('a refused input exits 2 naming the field and its accepted form; nothing goes to stdout', async (t) => {
  const project = await builtMini();
  t.after(() => project.dispose());
  const refused = await inProcess('--root', project.root, 'verify', ...Array.from({ length: 501 }, (_, i) => `192.0.2.${i % 256}`));
  assert.equal(refused.code, 2);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, /^ip: ip has 501 items; at most 500 per call\. Accepted: /);
  // An item that is no address is not a refused call: its line says why, so that it can be corrected.
  const stray = await inProcess('--root', project.root, 'verify', '66.249.66.1.', '192.0.2.1');
  assert.equal(stray.code, 0, stray.stderr);
  assert.match(
    stray.stdout,
    /\n66\.249\.66\.1\. {2}invalid \(ipv4-parts\): "66\.249\.66\.1\." has a dot at its start or end, or two dots together; an IPv4 address is four decimal numbers separated by dots \(a\.b\.c\.d\)\.\n/,
  );
  const missing = await inProcess('--root', project.root, 'audit', join(REPO, 'no-such-robots.txt'));
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.match(missing.stderr, /^cannot read .*no-such-robots\.txt \(ENOENT\); give a readable file, or - for standard input\n$/);
  // A --root that holds no build is said as such, with both ways out, and not as a stack trace.
  const unbuilt = await inProcess('--root', join(project.root, 'records'), 'classify', 'GPTBot/1.2');
  assert.equal(unbuilt.code, 1);
  assert.match(
    unbuilt.stderr,
    /records\/dist holds no build \(no documents\.json\): run npm run build in .*, or leave out --root to answer from the index this package ships\.\n$/,
  );
});
