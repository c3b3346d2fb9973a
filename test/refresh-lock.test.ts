import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { simpleGit } from 'simple-git';
import { EMPTY_LOG } from '../pipeline/changes/types.ts';
import { CommitBlocked, commitRefresh } from '../pipeline/refresh/commit.ts';
import { judgeLock, listGitProcesses, lockAdvice, type GitProcess, type Repository } from '../pipeline/refresh/git-lock.ts';
import { builtMini } from './support/built-mini.ts';
import { initRepo } from './support/git.ts';
import { cliInProcess } from './support/cli.ts';

// A refresh killed during its commit leaves .git/index.lock. The next
// refresh removes it when no git process is working in the repository, and otherwise stops
// with what to check and what to run.

const hasProc = existsSync('/proc/self/cwd');

type Cleanup = { after(fn: () => Promise<void>): void };

/**
 * A real git repository whose one commit holds a file in state/ and one in dist/, with a
 * change in state/ for a refresh to commit. commitRefresh and the lock's judge read only git
 * and /proc, never what the files say, so two files stand for the project here; the command
 * line's test below runs the whole refresh on the built mini fixture.
 */
async function repoWithChange(t: Cleanup) {
  const root = await mkdtemp(join(tmpdir(), 'crawler-index-lock-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'state', 'mirror'), { recursive: true });
  await mkdir(join(root, 'dist'));
  await writeFile(join(root, 'state', 'mirror', 'a-source.json'), '{}\n');
  await writeFile(join(root, 'dist', 'status.json'), '{}\n');
  await initRepo(root);
  await writeFile(join(root, 'state', 'mirror', 'new-source.json'), '{}\n');
  return { root, git: simpleGit(root), lock: join(root, '.git', 'index.lock') };
}

/** A real git process working in `cwd` until its input is closed. */
async function runningGit(cwd: string): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn('git', ['cat-file', '--batch'], { cwd, stdio: ['pipe', 'ignore', 'ignore'] });
  await new Promise<void>((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  assert.ok(child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

test('a leftover index.lock with no git process running is removed and the commit made', { skip: !hasProc && 'needs /proc' }, async (t) => {
  const { root, git, lock } = await repoWithChange(t);
  await writeFile(lock, '');
  const notes: string[] = [];
  const commit = await commitRefresh(root, EMPTY_LOG, (line) => notes.push(line));
  assert.ok(commit, 'the refresh is committed');
  assert.equal(existsSync(lock), false);
  assert.match(notes.join('\n'), /git: removed .*index\.lock, left by a git process that is no longer running/);
  assert.match(await git.raw(['log', '-1', '--name-only', '--format=%s']), /state\/mirror\/new-source\.json/);
});

test('an index.lock while a git process works in the repository is left alone, with what to do', { skip: !hasProc && 'needs /proc' }, async (t) => {
  const { root, git, lock } = await repoWithChange(t);
  const head = (await git.revparse(['HEAD'])).trim();
  await writeFile(lock, '');
  const other = await runningGit(root);
  t.after(() => other.stop());
  await assert.rejects(commitRefresh(root, EMPTY_LOG), (error: Error) => {
    assert.ok(error instanceof CommitBlocked, 'a typed refusal the CLI reports without a stack');
    assert.match(error.message, /index\.lock exists and a git process may be using/);
    assert.ok(error.message.includes(`pid ${other.pid}: git cat-file --batch`), error.message);
    assert.match(error.message, /Wait for it to finish or stop it, then run the refresh again/);
    assert.ok(error.message.includes(`rm '${lock}'`), 'and names the command that removes the lock');
    return true;
  });
  assert.equal(existsSync(lock), true, 'the lock of a running git process is never removed');
  assert.equal((await git.revparse(['HEAD'])).trim(), head);

  // Once that process has finished, the same lock is stale and the refresh goes through.
  await other.stop();
  assert.ok(await commitRefresh(root, EMPTY_LOG));
  assert.equal(existsSync(lock), false);
});

// The refresh command in this process (the command line's one real refresh process is
// test/cli.test.ts's): a CommitBlocked that escaped the command would reject here, where the
// process would print it with its stack and exit 1.
test('the CLI reports a held lock in one line and exits 1, without a stack', { skip: !hasProc && 'needs /proc' }, async (t) => {
  // The mini fixture as built, committed: what the refresh reads, builds and would commit.
  const project = await builtMini();
  t.after(() => project.dispose());
  const root = project.root;
  await initRepo(root);
  await writeFile(join(root, '.git', 'index.lock'), '');
  const other = await runningGit(root);
  t.after(() => other.stop());
  const offline = await mkdtemp(join(tmpdir(), 'no-upstreams-'));
  t.after(() => rm(offline, { recursive: true, force: true }));
  const result = await cliInProcess('--root', root, 'refresh', '--commit', '--upstream-dir', offline);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /refresh: not committed: .*index\.lock exists and a git process may be using/);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
});

test('git processes are found through /proc with their working folder', { skip: !hasProc && 'needs /proc' }, async (t) => {
  const { root } = await repoWithChange(t);
  const other = await runningGit(root);
  t.after(() => other.stop());
  const found = (await listGitProcesses())?.find((p) => p.pid === other.pid);
  assert.deepEqual(found, { pid: other.pid, args: ['git', 'cat-file', '--batch'], cwd: await realpath(root) });
});

test('a lock is judged by the git processes that may work in the repository', () => {
  const repo: Repository = { top: '/srv/index', gitDir: '/srv/index/.git', lock: '/srv/index/.git/index.lock' };
  const git = (cwd: string | null, ...args: string[]): GitProcess => ({ pid: 42, args: ['git', ...args], cwd });
  assert.deepEqual(judgeLock(repo, []), { kind: 'stale' });
  assert.deepEqual(
    judgeLock(repo, [git('/srv/other', 'status'), git('/srv/index-2', 'commit')]),
    { kind: 'stale' },
    'a sibling folder with a longer name is another repository',
  );
  assert.equal(judgeLock(repo, [git('/srv/index/records', 'add', '.')]).kind, 'held', 'working in a subfolder');
  assert.equal(judgeLock(repo, [git('/srv/index/.git', 'gc')]).kind, 'held', 'working in the git folder');
  assert.equal(judgeLock(repo, [git('/', '-C', '/srv/index', 'commit')]).kind, 'held', 'pointed at the repository with -C');
  assert.equal(judgeLock(repo, [git('/srv', '-C', 'index', 'commit')]).kind, 'held', 'with a relative -C');
  assert.equal(judgeLock(repo, [git(null, 'commit')]).kind, 'held', 'a process whose folder cannot be read may be working here');

  const unknown = judgeLock(repo, null);
  assert.ok(unknown.kind === 'unknown', 'without /proc nothing is guessed');
  const advice = lockAdvice(repo, unknown);
  assert.match(advice, /no \/proc/);
  assert.match(advice, /ps aux \| grep git/);
  assert.ok(advice.includes(`rm '${repo.lock}', then run the refresh again`), advice);
});
