// The files and standard input the command line's tools read. Apart from the tools
// (tool-commands.ts), so that the CLI can say a file is unreadable without loading them.
import { readFile } from 'node:fs/promises';

/** A file the command line names that cannot be read: said in one line, never a stack trace. */
export class InputUnreadable extends Error {}

/** A file's text, or standard input's for `-`. */
export async function readInput(path: string): Promise<string> {
  if (path !== '-')
    return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new InputUnreadable(`cannot read ${path} (${error.code ?? error.message}); give a readable file, or - for standard input`);
    });
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
