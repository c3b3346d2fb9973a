// The server as a process: judges its arguments, starts serving, and closes on SIGTERM or SIGINT.
// serve.ts (`npm start`) and the command line's `crawler-index serve` both run it.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunningServer } from './server.ts';
import { judgeServeArguments, listenFailure } from './serve-args.ts';
import { threadedLog } from './threaded-log.ts';
import { errnoOf, messageOf } from '../util/errno.ts';

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

/**
 * The log's folder, made as a server makes its state's: the installed package's working folder
 * has no state/, nor is a folder --log-db names always there yet. Where it cannot be made, the
 * log says so as it opens, and requests are answered unrecorded (docs/API.md §4.3a).
 */
function makeFolderOf(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {}
}

/** Serves until a signal closes it; exits the process with 2 on a refused argument, 1 when it cannot start. */
export async function serveProcess(argv: readonly string[]): Promise<void> {
  const judged = judgeServeArguments(argv, process.env, process.cwd());
  if (judged.kind === 'exit') {
    process.stdout.write(judged.stdout);
    process.stderr.write(judged.stderr);
    process.exit(judged.code);
  }
  const { options, settings } = judged;
  const { port, host, retentionDays, maxBytes, origin, compress, accessLog } = settings;
  let running: RunningServer;
  try {
    if (options.log) makeFolderOf(options.logDb);
    // Started before the server's modules load: its thread opens the file and builds its booking
    // data from the build (node/threaded-log.ts) while this thread loads them and the build.
    const started = options.log ? threadedLog({ file: options.logDb, retentionDays, maxBytes, log: say, bookFrom: join(options.root, 'dist') }) : undefined;
    // Loaded after the arguments are judged, so a mistyped one is answered at once.
    const { startServer } = await import('./server.ts');
    running = await startServer({
      port,
      host,
      root: options.root,
      log: say,
      requestLog: { file: options.log ? options.logDb : null, retentionDays, maxBytes, ...(started === undefined ? {} : { started }) },
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
    say(
      `error: ${syscall === 'listen' || syscall === 'getaddrinfo' ? listenFailure(code, host, port, messageOf(error)) : `cannot start: ${messageOf(error)}`}`,
    );
    process.exit(FAILED);
  }
  stopOnSignals(running);
  say(`serving ${options.root}/dist at ${running.url.replace('0.0.0.0', 'localhost')}`);
  say(options.log ? `request log: ${options.logDb}` : 'request log: off (--no-log)');
}
