#!/usr/bin/env node
// Serves the committed index (dist/) and the dynamic endpoints on one port.
//
// Run it as `npm start` or `node --import ./bin/ts-loader.mjs serve.ts` (Node 22.18+ and 24 also
// run `node serve.ts`): one process, so SIGTERM and SIGINT reach the server itself, which then
// closes its socket, its tool threads and the request log before it exits.
import { join } from 'node:path';
import type { RunningServer } from './pipeline/node/server.ts';
import { judgeServeArguments, listenFailure } from './pipeline/node/serve-args.ts';
import { errnoOf, messageOf } from './pipeline/util/errno.ts';

/** Exit code when the server cannot start or stop (a setting in the wrong form is 2, serve-args.ts). */
const FAILED = 1;
/** Longer than any request may take to finish closing, shorter than Docker's 10 s before SIGKILL. */
const STOP_DEADLINE_MS = 8_000;

const say = (line: string) => process.stderr.write(`${line}\n`);

/** The first SIGTERM or SIGINT closes the server; a second (npm and the terminal both pass on Ctrl-C) changes nothing. */
function stopOnSignals(running: RunningServer): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: closing`);
    setTimeout(() => {
      say(`error: not closed ${STOP_DEADLINE_MS / 1000} s after ${signal}; exiting anyway`);
      process.exit(FAILED);
    }, STOP_DEADLINE_MS).unref();
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        say(`error: closing: ${messageOf(error)}`);
        process.exit(FAILED);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const judged = judgeServeArguments(process.argv, process.env, process.cwd());
if (judged.kind === 'exit') {
  process.stdout.write(judged.stdout);
  process.stderr.write(judged.stderr);
  process.exit(judged.code);
}
const { options, settings } = judged;
const { port, host, retentionDays, maxBytes, origin, compress, accessLog } = settings;
let running: RunningServer;
try {
  // Loaded after the arguments are judged, so a mistyped one is answered at once.
  const { startServer } = await import('./pipeline/node/server.ts');
  running = await startServer({
    port,
    host,
    root: options.root,
    log: say,
    requestLog: { file: options.log ? (options.logDb ?? join(options.root, 'state', 'requests.db')) : null, retentionDays, maxBytes },
    // The only secret the service knows: it opens /hits.json, the raw log (docs/API.md §5).
    exportKey: process.env['EXPORT_KEY'] || null,
    origin,
    compress,
    // Standard output is the access log's alone: every other line of the server goes to standard error.
    ...(accessLog ? { accessLog: (text: string) => process.stdout.write(text) } : {}),
  });
} catch (error) {
  const code = errnoOf(error);
  const syscall = (error as { syscall?: unknown }).syscall;
  say(`error: ${syscall === 'listen' || syscall === 'getaddrinfo' ? listenFailure(code, host, port, messageOf(error)) : `cannot start: ${messageOf(error)}`}`);
  process.exit(FAILED);
}
stopOnSignals(running);
say(`serving ${options.root}/dist at ${running.url.replace('0.0.0.0', 'localhost')}`);
