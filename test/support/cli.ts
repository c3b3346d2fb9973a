import { join } from 'node:path';
import { CommanderError } from 'commander';
import { runCli } from '../../pipeline/cli-program.ts';
import { REPO } from './project.ts';

/** What a command line wrote and the code it ended with. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A command line of pipeline/cli.ts run in this process (pipeline/cli-program.ts), its output
 * and exit code captured: what a spawned `pipeline/cli.ts` would print, without its start.
 */
export async function cliInProcess(...args: string[]): Promise<Ran> {
  const ran: Ran = { code: 0, stdout: '', stderr: '' };
  const io = {
    stdout: (text: string) => {
      ran.stdout += text;
    },
    stderr: (text: string) => {
      ran.stderr += text;
    },
    exitCode: (code: number) => {
      ran.code = code;
    },
    throwOnExit: true,
  };
  try {
    await runCli([process.execPath, join(REPO, 'pipeline', 'cli.ts'), ...args], io);
  } catch (error) {
    // --help and a refused option end in commander, which the process would exit with.
    if (!(error instanceof CommanderError)) throw error;
    ran.code = error.exitCode;
  }
  return ran;
}
