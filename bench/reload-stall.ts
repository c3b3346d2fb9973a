// How long swapping in a new build holds the server's event loop, as its clients feel it: a
// small GET is sent one after another on its own connection while a build whose /status.json
// differs replaces dist/ (as a build or the refresh cron does, by renaming), and the slowest of
// those GETs in the seconds after is the swap's stall. Then the first requests that read the
// new build's tools or names (a tool call, an A2A message in words, a crawler's page with its
// live counters, a change-feed page) are sent on another connection, and after them the
// process's first MCP request: the slowest GET while each group is answered is its stall. The
// same GETs before the swap, in the same run, are the baseline. Target: under 50 ms, as for any
// input. The server runs as npm start runs it, with its request log, on a copy of the build;
// nothing is asserted.
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
  /** The slowest GET while the first reads of the new build were answered, and their statuses. */
  firstReads: { worstMs: number; statuses: number[] };
  /** The slowest GET while the process's first MCP request was answered (it loads the MCP SDK), and its status. */
  firstMcp: { worstMs: number; statuses: number[] };
}

const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The first requests that read a build's tools or names: each of them once built the tools' data on the answering thread. */
const FIRST_READS: readonly { path: string; init?: RequestInit }[] = [
  { path: '/tools/classify-ua?ua=GPTBot%2F1.2' },
  {
    path: '/a2a',
    init: {
      method: 'POST',
      headers: JSON_RPC,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { role: 'user', messageId: 'bench', kind: 'message', parts: [{ kind: 'text', text: 'Is 66.249.66.1 really Googlebot?' }] } },
      }),
    },
  },
  { path: '/crawler/gptbot.html' },
  { path: '/changes.json' },
];

const FIRST_MCP = {
  path: '/mcp',
  init: {
    method: 'POST',
    headers: JSON_RPC,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: 'GPTBot/1.2' } } }),
  },
};

/** Sends the requests one after another (fetch's own connections, not the GETs'), and gives their statuses. */
async function sendInTurn(origin: string, requests: readonly { path: string; init?: RequestInit }[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const { path, init } of requests) {
    const answer = await fetch(origin + path, init);
    await answer.arrayBuffer();
    statuses.push(answer.status);
  }
  return statuses;
}

/** The slowest GET while the requests are answered. */
async function stallOf(
  origin: string,
  agent: Agent,
  requests: readonly { path: string; init?: RequestInit }[],
): Promise<{ worstMs: number; statuses: number[] }> {
  const sent = sendInTurn(origin, requests);
  const worstMs = await probeWhile(origin, agent, sent);
  return { worstMs, statuses: await sent };
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
      const firstReads = await stallOf(server.origin, agent, FIRST_READS);
      const firstMcp = await stallOf(server.origin, agent, [FIRST_MCP]);
      return { baselineMs, worstMs, reloaded: served.headers.get('etag') === `"${etag}"`, firstReads, firstMcp };
    } finally {
      await server.stop();
    }
  } finally {
    agent.destroy();
    rmSync(scratch, { recursive: true, force: true });
  }
}
