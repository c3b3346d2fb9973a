import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Copies the folder `from` to `to` (which must not exist yet): its folders, then every file at
 * once. Plain files and folders only, as a build writes them; node's fs.cp checks each entry
 * of both sides one by one first, which costs more than the copy on a tree of small files.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const within = (entry: { parentPath: string; name: string }) => relative(from, join(entry.parentPath, entry.name));
  await mkdir(to);
  const folders = entries.filter((e) => e.isDirectory()).map(within);
  // readdir lists a folder before what it holds, so each parent exists before its children.
  for (const folder of folders.sort()) await mkdir(join(to, folder));
  const files = entries.filter((e) => !e.isDirectory());
  for (const entry of files) if (!entry.isFile()) throw new Error(`${join(entry.parentPath, entry.name)} is neither a file nor a folder`);
  await Promise.all(files.map((entry) => copyFile(join(entry.parentPath, entry.name), join(to, within(entry)))));
}
