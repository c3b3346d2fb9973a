import { readFile } from 'node:fs/promises';
import { errnoOf } from './errno.ts';

/** A file's text, or null when there is no such file; any other failure (permissions, a folder in its place) is thrown, not taken for absence. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    throw error;
  }
}
