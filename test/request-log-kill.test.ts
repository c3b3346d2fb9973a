import { strict as assert } from 'node:assert';
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Database } from '../pipeline/node/sqlite-driver.ts';
import { servingOrigin } from '../bench/server-process.ts';
import { builtMini } from './support/built-mini.ts';
import { REPO } from './support/project.ts';

// kill -9 of `npm start` under load: the file stays intact, and every request whose answer
// reached the client more than 100 ms before the kill is in it (docs/API.md §4.3a), from the
// server's first request on. Each request carries its own User-Agent, which the log keeps, so
// each answer is looked up by name.

const BOUND_MS = 100;
/** Connections the test keeps busy, each sending its next request when the last is answered. */
const CONNECTIONS = 16;
/**
 * The load runs this long before the kill (after a warm-up), and stops by itself at REQUEST_LIMIT:
 * about 25 of the log's 20 ms reads, each booking what was answered since the last, so a longer
 * load would only repeat them.
 */
const LOAD_MS = 500;
/** From the server's first line to the kill, with no warm-up: the start of a server's life. */
const START_LOAD_MS = 400;
/** Answers that must be older than the bound at the kill for a run to say anything. */
const MIN_DUE = 20;
const REQUEST_LIMIT = 40_000;
/** Documents answered from memory and tool calls answered by the handler: both ways a request is booked. */
const PATHS = ['/data/coverage.json', '/crawler/gptbot.json', '/tools/classify-ua?ua=GPTBot', '/data/agents.json'];
/** Documents only: at the start the tool threads are still loading, and a tool call waits for them. */
const DOCUMENT_PATHS = PATHS.filter((path) => !path.startsWith('/tools/'));

function startServe(root: string, file: string): { child: ChildProcess; origin: Promise<string> } {
  // --no-compress: no request here asks for a coding, and the background encoding would only
  // take a core from the server for as long as it lives.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(REPO, 'serve.ts'), '--port', '0', '--host', '127.0.0.1', '--root', root, '--log-db', file, '--no-compress'],
    {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const origin = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      for (const line of text.split('\n')) {
        const found = servingOrigin(line);
        if (found) resolve(found);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve.ts exited (${code}) before serving:\n${text}`)));
  });
  return { child, origin };
}

/** One GET; resolves with the time its whole answer had arrived, or null if the connection died first. */
function timedGet(agent: Agent, origin: string, path: string, userAgent: string): Promise<number | null> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const req = request({ agent, host: url.hostname, port: url.port, path, headers: { 'user-agent': userAgent } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode === 200 ? performance.now() : null));
      res.once('error', () => resolve(null));
    });
    req.once('error', () => resolve(null));
    req.end();
  });
}

/** Sends one request of each kind until each is answered (the tool threads take seconds to start on a busy machine). */
async function warmedUp(agent: Agent, origin: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const answers = await Promise.all(PATHS.map((path) => timedGet(agent, origin, path, 'warm-up')));
    if (answers.every((at) => at !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('the server never answered every kind of request');
}

function rowsNamed(file: string): { agents: Set<string>; rows: number; daily: number; integrity: unknown } {
  const db = new Database(file, { readonly: true });
  try {
    const agents = new Set((db.prepare('SELECT user_agent FROM hits').all() as { user_agent: string | null }[]).map((r) => r.user_agent ?? ''));
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM hits').get() as { n: number }).n;
    const daily = (db.prepare('SELECT COALESCE(SUM(requests), 0) AS n FROM daily').get() as { n: number }).n;
    return { agents, rows, daily, integrity: db.pragma('integrity_check', { simple: true }) };
  } finally {
    db.close();
  }
}

interface Outcome {
  /** Requests answered more than BOUND_MS before the kill. */
  due: number;
  /** Those of them missing from the file, and how long before the kill the earliest of them was answered (ms). */
  missing: number;
  oldestMissingMs: number;
  rows: number;
  sent: number;
}

/**
 * Serves a fresh build with `npm start`'s command, keeps CONNECTIONS requests in flight for
 * `loadMs` (after the warm-up, if asked), kills the server with SIGKILL while they run, then
 * reads the file it left.
 */
async function killUnderLoad(loadMs: number, warmUp: boolean, paths: readonly string[]): Promise<Outcome> {
  const root = await mkdtemp(join(tmpdir(), 'crawler-index-kill-'));
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    await cp(built.root, root, { recursive: true });
    const file = join(root, 'state', 'requests.db');
    const { child, origin: started } = startServe(root, file);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const origin = await started;
    if (warmUp) await warmedUp(agent, origin);

    // Answered requests by User-Agent, with the time each answer had fully arrived.
    const answered = new Map<string, number>();
    let sent = 0;
    let stop = false;
    const lane = async (id: number) => {
      while (!stop && sent < REQUEST_LIMIT) {
        const name = `kill-test/${id}-${sent++}`;
        const at = await timedGet(agent, origin, paths[sent % paths.length]!, name);
        if (at !== null) answered.set(name, at);
      }
    };
    const lanes = Array.from({ length: CONNECTIONS }, (_, id) => lane(id));
    await new Promise((resolve) => setTimeout(resolve, loadMs));
    // On a busy machine the first answers can take longer than loadMs to come: the kill waits
    // until enough answers are old enough to count (bounded, so a server that never answers fails).
    const oldEnough = () => [...answered.values()].filter((at) => performance.now() - at > BOUND_MS).length;
    for (const giveUpAt = performance.now() + 20_000; oldEnough() <= MIN_DUE && performance.now() < giveUpAt; ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const killedAt = performance.now();
    child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all(lanes);

    const { agents, rows, daily, integrity } = rowsNamed(file);
    assert.equal(integrity, 'ok');
    // Rows and the daily aggregate are written in one transaction: they never disagree.
    assert.equal(daily, rows);
    const due = [...answered].filter(([, at]) => killedAt - at > BOUND_MS);
    const missing = due.filter(([name]) => !agents.has(name));
    return { due: due.length, missing: missing.length, oldestMissingMs: Math.max(0, ...missing.map(([, at]) => killedAt - at)), rows, sent };
  } finally {
    agent.destroy();
    await rm(root, { recursive: true, force: true });
  }
}

// The mini fixture, built once; each kill serves a fresh copy, with a log of its own.
let built: { root: string; dispose(): Promise<void> };
before(async () => {
  built = await builtMini();
});
after(() => built.dispose());

function assertNoneLost(outcome: Outcome): void {
  assert.ok(outcome.due > MIN_DUE, `only ${outcome.due} requests were answered before the kill: the load did not run`);
  assert.equal(
    outcome.missing,
    0,
    `${outcome.missing} of ${outcome.due} requests answered more than ${BOUND_MS} ms before the kill are not in the log (the earliest ${outcome.oldestMissingMs.toFixed(0)} ms before it)`,
  );
  assert.ok(outcome.rows <= outcome.sent, `${outcome.rows} rows for ${outcome.sent} requests sent`);
}

test(`kill -9 under a steady load loses no request answered more than ${BOUND_MS} ms before it, and never corrupts the log`, { timeout: 120_000 }, async () => {
  assertNoneLost(await killUnderLoad(LOAD_MS, true, PATHS));
});

test(`kill -9 soon after the start loses no request answered more than ${BOUND_MS} ms before it: the server listens once the log is open`, {
  timeout: 120_000,
}, async () => {
  assertNoneLost(await killUnderLoad(START_LOAD_MS, false, DOCUMENT_PATHS));
});
