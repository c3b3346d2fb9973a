// A build with nothing to do: npm run build's command on a copy of the repository's records and
// state, whose dist/ that command built a moment before, beside the same command with --force
// (which renders and checks every document before finding nothing to write, as every build did
// before the build fingerprint), taking turns. The README's target is under 2 s.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempProject } from '../test/support/project.ts';
import { spreadOf, type Spread } from './cold-start.ts';

const run = promisify(execFile);

/** `runs` builds of each kind, taking turns, after one build that records the fingerprint. */
export async function noopBuilds(root: string, runs: number): Promise<Spread[]> {
  const project = await tempProject('repo');
  try {
    const build = async (...extra: string[]) => {
      const started = performance.now();
      await run(
        process.execPath,
        ['--import', join(root, 'bin', 'ts-loader.mjs'), join(root, 'pipeline', 'cli.ts'), '--root', project.root, 'build', ...extra],
        {
          cwd: root,
        },
      );
      return performance.now() - started;
    };
    await build();
    const kinds = [
      { label: "npm run build's command with nothing to do (the fingerprint matches)", extra: [] },
      { label: 'baseline: the same with --force (renders and checks every document)', extra: ['--force'] },
    ];
    const times = kinds.map(() => [] as number[]);
    for (let i = 0; i < runs; i++) for (const [k, kind] of kinds.entries()) times[k]?.push(await build(...kind.extra));
    return kinds.map((kind, k) => spreadOf(kind.label, times[k] ?? []));
  } finally {
    await project.dispose();
  }
}
