// How long swapping in a new build holds the server's event loop, as its clients feel it: a
// small GET is sent one after another on its own connection while a build whose /status.json
// differs replaces dist/ (as a build or the refresh cron does, by renaming), and the slowest of
// those GETs in the seconds after is the swap's stall. The same GETs before the swap, in the
// same run, are the baseline. Target: under 50 ms, as for any input. The server runs as npm start
// runs it, with its request log, on a copy of the build; nothing is asserted.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEDGER_JSON, type Ledger } from '../pipeline/ledger/ledger.ts';
import { etagOf } from '../pipeline/util/sha256.ts';
import { probeWhile } from './stall.ts';
import { startScriptProcess } from './server-process.ts';

/** How long the GETs run before the swap (the baseline), and after it. */
const BEFORE_MS = 2_000;
const AFTER_MS = 4_000;

export interface ReloadStall {
  baselineMs: number;
  /** The slowest GET in the AFTER_MS after the swap. */
  worstMs: number;
  /** Whether the server served the new /status.json once the GETs were done. */
  reloaded: boolean;
}

/** A copy of `dist` whose /status.json says it was made now, with its ledger entry to match. */
function nextBuild(dist: string, into: string): string {
  cpSync(dist, into, { recursive: true });
  const status = JSON.parse(readFileSync(join(into, 'status.json'), 'utf8')) as { generated_at: string };
  status.generated_at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const bytes = Buffer.from(`${JSON.stringify(status, null, 2)}\n`);
  writeFileSync(join(into, 'status.json'), bytes);
  const ledger = JSON.parse(readFileSync(join(into, LEDGER_JSON), 'utf8')) as Ledger;
  const entry = ledger.documents.find((document) => document.path === '/status.json');
  if (entry === undefined) throw new Error('the build has no /status.json in its ledger');
  const etag = etagOf(bytes);
  entry.etag = etag;
  entry.file_etag = null;
  entry.bytes = bytes.length;
  writeFileSync(join(into, LEDGER_JSON), `${JSON.stringify(ledger, null, 2)}\n`);
  return etag;
}

export async function reloadStall(root: string): Promise<ReloadStall> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-reload-'));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    mkdirSync(join(scratch, 'records'));
    cpSync(join(root, 'records', 'site.yaml'), join(scratch, 'records', 'site.yaml'));
    cpSync(join(root, 'dist'), join(scratch, 'dist'), { recursive: true });
    // npm start's command from this repository, serving the copy.
    const server = await startScriptProcess(root, join('bin', 'serve.mjs'), [
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--root',
      scratch,
      '--log-db',
      join(scratch, 'requests.db'),
    ]);
    try {
      const etag = nextBuild(join(scratch, 'dist'), join(scratch, 'dist.next'));
      // Warm the path the GETs take, then measure them alone.
      await probeWhile(server.origin, agent, new Promise((resolve) => setTimeout(resolve, BEFORE_MS)));
      const baselineMs = await probeWhile(server.origin, agent, new Promise((resolve) => setTimeout(resolve, BEFORE_MS)));
      renameSync(join(scratch, 'dist'), join(scratch, 'dist.old'));
      renameSync(join(scratch, 'dist.next'), join(scratch, 'dist'));
      const worstMs = await probeWhile(server.origin, agent, new Promise((resolve) => setTimeout(resolve, AFTER_MS)));
      const served = await fetch(`${server.origin}/status.json`);
      await served.arrayBuffer();
      return { baselineMs, worstMs, reloaded: served.headers.get('etag') === `"${etag}"` };
    } finally {
      await server.stop();
    }
  } finally {
    agent.destroy();
    rmSync(scratch, { recursive: true, force: true });
  }
}
