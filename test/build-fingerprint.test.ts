import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../pipeline/publish/build.ts';
import { recordBuild, reusableBuild, snapshotInputs } from '../pipeline/publish/build-fingerprint.ts';
import { cliInProcess as cli } from './support/cli.ts';
import { AGENT_DIRECTORY_ID, AGENT_DIRECTORY_URL, projectWithAgent } from './support/agent-project.ts';
import { commitAll, initRepo } from './support/git.ts';
import { changedPaths, readTree, tempProject } from './support/project.ts';

// A build whose inputs, code, options, git HEAD and dist/ are those of the last build, before
// the first moment time alone changes what it renders, writes nothing and renders nothing
// (pipeline/publish/build-fingerprint.ts). Each case here changes one of those and expects the
// build to render again, and to end with exactly what a build from scratch writes.

let project: Awaited<ReturnType<typeof tempProject>>;
const dist = () => join(project.root, 'dist');
const rendered = (stderr: string) => /^model: /m.test(stderr);

before(async () => {
  project = await tempProject('mini');
});
after(() => project.dispose());

test('the second build of the same tree renders nothing, says why, and leaves dist/ as it was', async () => {
  const first = await cli('--root', project.root, 'build');
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /^building: no earlier build recorded$/m);
  assert.ok(rendered(first.stderr));
  const tree = await readTree(dist());

  const second = await cli('--root', project.root, 'build');
  assert.equal(second.code, 0, second.stderr);
  assert.ok(!rendered(second.stderr), second.stderr);
  assert.match(
    second.stderr,
    /^no change: the inputs, the code and .+ are those of the build at \d{4}-\d\d-\d\dT[\d:]+Z; nothing rendered \(--force renders anyway\)$/m,
  );
  assert.deepEqual(changedPaths(tree, await readTree(dist())), []);

  const dry = await cli('--root', project.root, 'build', '--dry-run');
  assert.equal(dry.stdout, '', 'no path would change');
  const forced = await cli('--root', project.root, 'build', '--force');
  assert.ok(rendered(forced.stderr), '--force renders');
  assert.match(forced.stderr, /no change: .+ already holds these \d+ files/);
});

test('an edited record, another base URL or a moved git HEAD renders again', async () => {
  // The check itself is asked where a render would prove nothing more; one build shows the edit rendered.
  const reason = (baseUrl: string | null = null) => {
    const reuse = reusableBuild({ root: project.root, distDir: dist(), baseUrl }, snapshotInputs(project.root), new Date().toISOString());
    return reuse.reusable ? 'reusable' : reuse.reason;
  };
  await cli('--root', project.root, 'build');
  assert.equal(reason(), 'reusable');
  assert.equal(reason('https://mirror.example'), 'built with other options');

  const file = join(project.root, 'records', 'crawlers', 'gptbot.yaml');
  const record = await readFile(file, 'utf8');
  await writeFile(file, record.replace(/^name: .*$/m, 'name: GPTBot renamed'));
  assert.equal(reason(), 'records, state or code changed');
  const edited = await cli('--root', project.root, 'build');
  assert.match(edited.stderr, /^building: records, state or code changed$/m);
  assert.match(await readFile(join(dist(), 'crawler', 'gptbot.json'), 'utf8'), /GPTBot renamed/);

  const git = await initRepo(project.root);
  assert.equal(reason(), 'git HEAD moved');
  assert.match((await cli('--root', project.root, 'build')).stderr, /^building: git HEAD moved$/m);
  assert.equal(reason(), 'reusable', 'the same HEAD again');
  await commitAll(git, 'an empty commit moves HEAD too');
  assert.equal(reason(), 'git HEAD moved');
});

test('a fingerprint that cannot be saved is a warning, not a failed build', async (t) => {
  const blocked = await tempProject('mini');
  t.after(() => blocked.dispose());
  // .cache/ is a file here, so the fingerprint's folder cannot be made.
  await writeFile(join(blocked.root, '.cache'), 'not a folder');
  const built = await cli('--root', blocked.root, 'build');
  assert.equal(built.code, 0, built.stderr);
  assert.match(built.stderr, /^warning: the build's fingerprint could not be saved \(.+\); the next build renders everything again$/m);
  assert.ok((await readTree(join(blocked.root, 'dist'))).has('/documents.json'), 'dist/ is written');
});

test('a dist/ file changed, removed or added by hand is put back by the next build', async () => {
  await cli('--root', project.root, 'build');
  const tree = await readTree(dist());
  for (const damage of [
    () => writeFile(join(dist(), 'crawler', 'gptbot.json'), '{}'),
    () => rm(join(dist(), 'crawler', 'gptbot.json')),
    () => writeFile(join(dist(), 'stray.txt'), 'not built'),
  ]) {
    await damage();
    const repaired = await cli('--root', project.root, 'build');
    assert.match(repaired.stderr, /^building: dist\/ differs from what the last build wrote$/m);
    assert.deepEqual(changedPaths(tree, await readTree(dist())), []);
    assert.ok(!rendered((await cli('--root', project.root, 'build')).stderr), 'and then stays reused');
  }
});

test('the fingerprint holds until the first moment time alone changes the build: security.txt renewal, a key flagged as expiring', async (t) => {
  // The ChatGPT agent's key directory with one key expiring on 2027-03-01: it is flagged a week before.
  const timed = await projectWithAgent();
  t.after(() => timed.dispose());
  const id = AGENT_DIRECTORY_ID;
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }) as Record<string, string>;
  const key = {
    thumbprint: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U',
    kty: 'OKP',
    crv: 'Ed25519',
    kid: null,
    not_before: null,
    expires: '2027-03-01T00:00:00Z',
    jwk,
  };
  await mkdir(join(timed.root, 'state', 'signature-agents'), { recursive: true });
  const entry = {
    id,
    url: AGENT_DIRECTORY_URL,
    state: 'ok',
    keys: [key],
    response: null,
    upstream_sha256: null,
    last_attempt: '2026-11-01T00:00:00Z',
    last_success: '2026-11-01T00:00:00Z',
    last_change: '2026-11-01T00:00:00Z',
    error: null,
    findings: [],
  };
  await writeFile(join(timed.root, 'state', 'signature-agents', `${id}.json`), `${JSON.stringify(entry, null, 2)}\n`);

  const settings = { root: timed.root, distDir: join(timed.root, 'dist'), baseUrl: null };
  const builtAt = '2026-12-01T00:00:00Z';
  const inputs = snapshotInputs(timed.root);
  const first = await build({ root: timed.root, now: builtAt });
  assert.equal(first.rendersSameUntil, '2027-02-22T00:00:00Z', 'a week before the key expires, before security.txt is due (2027-06-01)');
  recordBuild(settings, inputs, first, builtAt);

  const before = await readTree(settings.distDir);
  const justBefore = '2027-02-21T23:59:59Z';
  assert.deepEqual(reusableBuild(settings, snapshotInputs(timed.root), justBefore), { reusable: true, builtAt, until: '2027-02-22T00:00:00Z' });
  assert.deepEqual((await build({ root: timed.root, now: justBefore, dryRun: true })).changed, [], 'a build a second before would write the same bytes');
  assert.deepEqual(reusableBuild(settings, snapshotInputs(timed.root), '2027-02-22T00:00:00Z'), {
    reusable: false,
    reason: 'what the build renders changes with time from 2027-02-22T00:00:00Z',
  });
  const flagged = await build({ root: timed.root, now: '2027-02-22T00:00:00Z' });
  assert.ok(flagged.changed.includes(`/signature-agents/${id}.json`), flagged.changed.join(', '));
  assert.notDeepEqual(changedPaths(before, await readTree(settings.distDir)), []);
  assert.equal(flagged.rendersSameUntil, '2027-06-01T00:00:00Z', 'then only security.txt renews with time');
  recordBuild(settings, snapshotInputs(timed.root), flagged, '2027-02-22T00:00:00Z');

  assert.equal(reusableBuild(settings, snapshotInputs(timed.root), '2027-05-31T23:59:59Z').reusable, true);
  assert.equal(reusableBuild(settings, snapshotInputs(timed.root), '2027-06-01T00:00:00Z').reusable, false);
  assert.ok((await build({ root: timed.root, now: '2027-06-01T00:00:00Z', dryRun: true })).changed.includes('/.well-known/security.txt'));
});
