#!/usr/bin/env node
// Serves the committed index (dist/) and the dynamic endpoints on one port.
//
// Run it as `npm start` or `node --import ./bin/ts-loader.mjs serve.ts` (Node 22.18+ and 24 also
// run `node serve.ts`): one process, so SIGTERM and SIGINT reach the server itself, which then
// closes its socket, its tool threads and the request log before it exits.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { join } from 'node:path';
import type { RunningServer } from './pipeline/node/server.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_RETENTION_DAYS } from './pipeline/log/types.ts';
import { fromEnvironment, listenFailure, parseBaseUrl, parseDays, parseMegabytes, parsePort, parseSwitch, UsageError } from './pipeline/node/serve-args.ts';
import { errnoOf, messageOf } from './pipeline/util/errno.ts';

/** Exit codes: 2 for a value given in the wrong form, 1 when the server cannot start or stop. */
const USAGE = 2;
const FAILED = 1;
/** Longer than any request may take to finish closing, shorter than Docker's 10 s before SIGKILL. */
const STOP_DEADLINE_MS = 8_000;
const MIB = 1024 * 1024;

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Commander prints an option's refusal as one line naming the option and the accepted form. */
const option =
  <T>(parse: (value: string) => T) =>
  (value: string): T => {
    try {
      return parse(value);
    } catch (error) {
      if (error instanceof UsageError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };

interface Options {
  port?: number;
  host?: string;
  root: string;
  logDb?: string;
  log: boolean;
  logRetentionDays?: number;
  logMaxMb?: number;
  baseUrl?: string;
  trustProxy?: boolean;
}

function readOptions(): Options {
  const command = new Command('serve')
    .description('Serve dist/ and the dynamic endpoints of Crawler Index.')
    .option('--port <n>', 'port to listen on (env PORT; default 8080; 0 for any free port)', option(parsePort))
    .option('--host <address>', 'address to bind (env HOST; default 0.0.0.0)')
    .option('--root <dir>', 'project folder holding records/ and dist/', process.cwd())
    .option('--log-db <path>', 'the request log, a SQLite file (env LOG_DB; default <root>/state/requests.db)', process.env['LOG_DB'])
    .option('--no-log', 'keep no request log (/stats.json then says so, /hits.json has nothing)')
    .option('--log-retention-days <n>', `days of requests the log keeps (env LOG_RETENTION_DAYS; default ${DEFAULT_RETENTION_DAYS})`, option(parseDays))
    .option(
      '--log-max-mb <n>',
      `size cap of the log in MiB; past it the oldest rows go first (env LOG_MAX_MB; default ${DEFAULT_MAX_BYTES / MIB})`,
      option(parseMegabytes),
    )
    .option(
      '--base-url <url>',
      'the origin every address the server writes names, for a server behind a proxy (env BASE_URL; default: the Host each request used)',
      option(parseBaseUrl),
    )
    .option('--trust-proxy', 'read Forwarded, X-Forwarded-Proto and X-Forwarded-Host, set by a proxy in front (env TRUST_PROXY=1)')
    .exitOverride();
  try {
    return command.parse(process.argv).opts<Options>();
  } catch (error) {
    // Commander has printed its one line (or the help); only the exit code is ours.
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : USAGE);
    throw error;
  }
}

function settings(options: Options) {
  try {
    return {
      port: options.port ?? fromEnvironment(process.env, 'PORT', parsePort, 8080),
      host: options.host ?? (process.env['HOST'] || '0.0.0.0'),
      retentionDays: options.logRetentionDays ?? fromEnvironment(process.env, 'LOG_RETENTION_DAYS', parseDays, DEFAULT_RETENTION_DAYS),
      maxBytes: (options.logMaxMb ?? fromEnvironment(process.env, 'LOG_MAX_MB', parseMegabytes, DEFAULT_MAX_BYTES / MIB)) * MIB,
      origin: {
        fixed: options.baseUrl ?? fromEnvironment<string | null>(process.env, 'BASE_URL', parseBaseUrl, null),
        trustProxy: options.trustProxy === true || fromEnvironment(process.env, 'TRUST_PROXY', parseSwitch, false),
      },
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`error: ${error.message}`);
    process.exit(USAGE);
  }
}

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

const options = readOptions();
const { port, host, retentionDays, maxBytes, origin } = settings(options);
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
  });
} catch (error) {
  const code = errnoOf(error);
  const syscall = (error as { syscall?: unknown }).syscall;
  say(`error: ${syscall === 'listen' || syscall === 'getaddrinfo' ? listenFailure(code, host, port, messageOf(error)) : `cannot start: ${messageOf(error)}`}`);
  process.exit(FAILED);
}
stopOnSignals(running);
say(`serving ${options.root}/dist at ${running.url.replace('0.0.0.0', 'localhost')}`);
