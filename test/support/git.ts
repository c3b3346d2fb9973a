import { simpleGit, type SimpleGit } from 'simple-git';

/** Turns a temporary project into a git repository with one commit of everything in it. */
export async function initRepo(root: string): Promise<SimpleGit> {
  const git = simpleGit(root);
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
