// The tools' documents read straight from a dist/ folder, for the request log's thread: it builds
// its booking data from them while the server is still loading the whole build, so that neither
// waits for the other at a start (docs/API.md §4.3a). No ledger is checked here. The snapshot is
// named by its documents' ETags, as the server names the one it serves (http/tool-data.ts), and
// the server sends its own when the two names differ: a tree rewritten meanwhile, or a build
// relocated to another base URL.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TOOL_SNAPSHOT_PATHS, type ToolSnapshot } from '../http/tool-data.ts';
import { etagOf } from '../util/sha256.ts';

/** The snapshot of the tools' documents in `distDir`; null when one of them is missing or unreadable. */
export async function toolSnapshotFromFolder(distDir: string): Promise<ToolSnapshot | null> {
  try {
    const bytes = await Promise.all(TOOL_SNAPSHOT_PATHS.map(async (path) => new Uint8Array(await readFile(join(distDir, path)))));
    return { key: bytes.map(etagOf).join(','), bytes };
  } catch {
    return null;
  }
}
