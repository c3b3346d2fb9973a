import { relative } from 'node:path';
import { simpleGit } from 'simple-git';
import type { PublishedDirectory, PublishedState } from '../changes/diff.ts';
import { href } from '../paths.ts';

export interface Base {
  commit: string;
  state: PublishedState;
}

interface AgentsDocument {
  crawlers: Record<string, unknown>[];
}
interface RangesDocument {
  sources: { id: string; ipv4: string[]; ipv6: string[] }[];
}
interface DirectoriesDocument {
  agents: { id: string; state: string; keys: { thumbprint: string; expires: string | null }[]; expiring: string[] }[];
}
interface DirectoryDocument {
  error: string | null;
}
interface StatusDocument {
  sources: { id: string; state: string; error: string | null }[];
}

/**
 * The facts published by the last commit: HEAD's dist/ as git holds it, not the working
 * tree, so uncommitted rebuilds never hide a change from the feed. Null outside a git
 * repository or before the first commit; documents HEAD does not have yet count as empty.
 */
export async function readBase(root: string, distDir: string): Promise<Base | null> {
  const git = simpleGit(root);
  if (!(await git.checkIsRepo().catch(() => false))) return null;
  const commit = await git.revparse(['--verify', '--quiet', 'HEAD']).then(
    (sha) => sha.trim(),
    () => null,
  );
  if (!commit) return null;
  const prefix = relative(await git.revparse(['--show-toplevel']).then((top) => top.trim()), distDir)
    .split('\\')
    .join('/');
  const show = async <T>(path: string): Promise<T | null> => {
    try {
      return JSON.parse(await git.show([`${commit}:${prefix}${path}`])) as T;
    } catch (error) {
      // Absent from that commit means the document did not exist yet; anything else is a fault.
      if (/does not exist|exists on disk, but not in/.test((error as Error).message)) return null;
      throw error;
    }
  };
  const agents = await show<AgentsDocument>(href('agents'));
  const ranges = await show<RangesDocument>(href('ip_ranges_all'));
  const status = await show<StatusDocument>(href('status'));
  const states = new Map((status?.sources ?? []).map((s) => [s.id, s]));
  const directories = await show<DirectoriesDocument>(href('signature_agents'));
  const directoryStates = new Map<string, PublishedDirectory>();
  for (const agent of directories?.agents ?? []) {
    const one = await show<DirectoryDocument>(href('signature_agent', agent.id));
    const expiresOf = new Map(agent.keys.map((k) => [k.thumbprint, k.expires]));
    directoryStates.set(agent.id, {
      state: agent.state,
      error: one?.error ?? null,
      thumbprints: agent.keys.map((k) => k.thumbprint),
      expiring: agent.expiring.map((thumbprint) => ({ thumbprint, expires: expiresOf.get(thumbprint) ?? null })),
    });
  }
  return {
    commit,
    state: {
      crawlers: new Map((agents?.crawlers ?? []).map((c) => [String(c['slug']), c])),
      sources: new Map(
        (ranges?.sources ?? []).map((s) => [
          s.id,
          { state: states.get(s.id)?.state ?? 'never-fetched', error: states.get(s.id)?.error ?? null, ipv4: s.ipv4, ipv6: s.ipv6 },
        ]),
      ),
      directories: directoryStates,
    },
  };
}
