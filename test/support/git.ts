import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * The environment of the tests' own git processes: a path to git and a home, nothing of the
 * caller's git settings, and glibc's malloc told to keep 256 MB of heap at hand. Without that,
 * `git add` of a project grows and trims its heap once per file, and each round trip costs the
 * kernel so much on some virtual machines that adding the repository's ~1,900 files took 2-4 s
 * of CPU instead of about 1 (measured on the 2-core virtual machine npm test is timed on).
 */
const GIT_ENV = { PATH: process.env['PATH'], HOME: process.env['HOME'], MALLOC_TOP_PAD_: String(2 ** 28) };

/** Turns a temporary project into a git repository with one commit of everything in it. */
export async function initRepo(root: string): Promise<SimpleGit> {
  const git = simpleGit(root).env(GIT_ENV);
  await git.init(['--initial-branch=main']);
  await git.addConfig('user.name', 'Test');
  await git.addConfig('user.email', 'test@example.invalid');
  await git.addConfig('commit.gpgsign', 'false');
  await git.add(['--all', '.']);
  await git.commit('initial');
  return git;
}

export async function commitAll(git: SimpleGit, message: string): Promise<void> {
  await git.add(['--all', '.']);
  await git.commit(message, ['--allow-empty']);
}
