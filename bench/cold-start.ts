// Cold start: from spawning the server to its first 200; the README's target is under 1 s.
// npm start's command (bin/serve.mjs, one node process: Node 22.18+ and 24 strip the types
// themselves and keep compiled modules in the compile cache; older Node runs the server's bundle,
// made at the first start after a source changes) as npm start runs it, with its request log (a
// new file each start) and with --no-log, beside the command npm start ran before (the sources
// through bin/ts-loader.mjs, which on Node 20 is tsx's loader) with its log, on the same dist/,
// in the same run, taking turns so that all meet the same machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild } from './child.ts';

interface Command {
  label: string;
  command: string;
  args: string[];
  /** Whether the server keeps its request log (a new file each start), as npm start does by default. */
  log: boolean;
}

/** Timings of one command over several runs. */
export interface Spread {
  label: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export function spreadOf(label: string, times: readonly number[]): Spread {
  const sorted = [...times].sort((a, b) => a - b);
  return { label, medianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, minMs: sorted[0] ?? Number.NaN, maxMs: sorted.at(-1) ?? Number.NaN };
}

const POLL_MS = 5;
const GIVE_UP_MS = 60_000;

/** npm start's command, and the baseline: the command it ran before. */
function coldStartCommands(root: string, node: string): Command[] {
  const serve = [join(root, 'bin', 'serve.mjs')];
  return [
    { label: "npm start's command (node bin/serve.mjs), request log on", command: node, args: serve, log: true },
    { label: "npm start's command, --no-log", command: node, args: serve, log: false },
    {
      label: 'baseline: the command npm start ran before (node --import ./bin/ts-loader.mjs serve.ts), request log on',
      command: node,
      args: ['--import', join(root, 'bin', 'ts-loader.mjs'), join(root, 'serve.ts')],
      log: true,
    },
  ];
}

function answers200(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz' }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function once(root: string, command: Command, port: number, logDb: string): Promise<number> {
  const started = performance.now();
  const log = command.log ? ['--log-db', logDb] : ['--no-log'];
  const child = spawn(command.command, [...command.args, '--port', String(port), '--host', '127.0.0.1', ...log, '--root', root], {
    cwd: root,
    stdio: 'ignore',
  });
  try {
    while (!(await answers200(port))) {
      if (child.exitCode !== null) throw new Error(`${command.label} exited (${child.exitCode}) before answering`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`${command.label} did not answer within ${GIVE_UP_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return performance.now() - started;
  } finally {
    await stopChild(child);
  }
}

/** A loopback port that was free a moment ago (the server is polled on it, so it must be known before it starts). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** `runs` starts of each command on the Node at `node`, taking turns. */
export async function coldStarts(root: string, runs: number, node: string): Promise<Spread[]> {
  const commands = coldStartCommands(root, node);
  const times = commands.map(() => [] as number[]);
  const logs = mkdtempSync(join(tmpdir(), 'cold-start-log-'));
  try {
    let starts = 0;
    for (let run = 0; run < runs; run++) {
      for (const [i, command] of commands.entries()) times[i]?.push(await once(root, command, await freePort(), join(logs, `${starts++}.db`)));
    }
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
  return commands.map((command, i) => spreadOf(command.label, times[i] ?? []));
}
