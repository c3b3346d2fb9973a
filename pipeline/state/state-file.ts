import { readFile } from 'node:fs/promises';
import { messageOf } from '../util/errno.ts';
import { BuildError } from '../records/build-error.ts';

export interface StateShape<T> {
  /** What the file must hold, for the message when it does not ("an event log object"). */
  expected: string;
  is: (value: unknown) => value is T;
  /** What to do when the file is unreadable: a command a maintainer can run. */
  remedy: string;
}

/**
 * Reads one JSON file of state/. Null when it does not exist. An empty, cut-short or
 * malformed file stops the build with a problem naming the file and what to do, instead of
 * a bare SyntaxError that names nothing.
 */
export async function readStateJson<T>(path: string, shape: StateShape<T>): Promise<T | null> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (text === null) return null;
  const fail = (reason: string) => new BuildError([{ file: path, path: '/', message: `${reason}; ${shape.remedy}` }]);
  if (text.trim() === '') throw fail(`is empty (${text.length} bytes), as a write cut short leaves it`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail(`is not valid JSON (${messageOf(error)})`);
  }
  if (!shape.is(value)) throw fail(`is not ${shape.expected}`);
  return value;
}

/** The remedy for a committed state file: git holds the last good copy. */
export function restoreFromGit(path: string, alternative?: string): string {
  return `restore the committed copy with: git checkout HEAD -- '${path}'${alternative ? `, or ${alternative}` : ''}`;
}
