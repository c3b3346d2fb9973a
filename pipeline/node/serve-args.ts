// What `npm start` accepts, and the one line it prints when it cannot start. Pure: serve.ts
// reads the environment and exits; these only judge values and word the answer.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { DEFAULT_MAX_BYTES, DEFAULT_RETENTION_DAYS } from '../log/types.ts';
import { join } from 'node:path';
import { defaultRoot } from './package-root.ts';

/** The accepted form of a port, quoted by every refusal of one. */
const PORT_FORM = 'a whole number from 1 to 65535, or 0 for any free port';
const DAYS_FORM = 'a whole number of days from 1 to 3650';
/** 1 MiB holds about 4,000 requests; 1,048,576 MiB is 1 TiB. */
const MEGABYTES_FORM = 'a whole number of MiB from 1 to 1048576';

/** A value given on the command line or in the environment that has not the accepted form. */
class UsageError extends Error {
  override name = 'UsageError';
}

function wholeNumber(value: string, max: number): number | null {
  // Digits only: Number() would also take '', ' 80', '0x50', '8e1' and '80.0'.
  if (!/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n <= max ? n : null;
}

function parsePort(value: string): number {
  const n = wholeNumber(value, 65_535);
  if (n === null) throw new UsageError(`expected ${PORT_FORM}`);
  return n;
}

const ORIGIN_FORM = 'an absolute http or https URL with no query, fragment or credentials, such as https://crawlers.example.org';

/** BASE_URL / --base-url: the origin every address the server writes names; kept without a trailing slash. */
function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`expected ${ORIGIN_FORM}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new UsageError(`expected ${ORIGIN_FORM}`);
  return url.href.replace(/\/+$/, '');
}

/**
 * An on/off setting from the environment: 1 or true, 0 or false. `unset` is what nothing means,
 * off for TRUST_PROXY and on for COMPRESS; the refusal says so.
 */
const parseSwitch =
  (unset: 'on' | 'off') =>
  (value: string): boolean => {
    if (/^(1|true)$/i.test(value)) return true;
    if (/^(0|false)$/i.test(value)) return false;
    throw new UsageError(
      unset === 'off'
        ? 'expected 1 or true to turn it on, 0 or false (or nothing) to leave it off'
        : 'expected 0 or false to turn it off, 1 or true (or nothing) to leave it on',
    );
  };

function parseDays(value: string): number {
  const n = wholeNumber(value, 3_650);
  if (n === null || n < 1) throw new UsageError(`expected ${DAYS_FORM}`);
  return n;
}

/** --log-max-mb / LOG_MAX_MB: the request log's size cap, in MiB. */
function parseMegabytes(value: string): number {
  const n = wholeNumber(value, 1_048_576);
  if (n === null || n < 1) throw new UsageError(`expected ${MEGABYTES_FORM}`);
  return n;
}

/**
 * A setting from the environment, judged like its command-line option; unset or empty means
 * the default (`PORT= npm start` is how a shell unsets it for one command).
 */
function fromEnvironment<T>(env: Readonly<Record<string, string | undefined>>, name: string, parse: (value: string) => T, fallback: T): T {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  try {
    return parse(value);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`environment variable ${name} ${JSON.stringify(value)} is invalid. ${error.message}`);
    throw error;
  }
}

/** The line printed when the listening socket cannot be opened, by the error's code. */
export function listenFailure(code: string | undefined, host: string, port: number, message: string): string {
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use on ${host}: stop what holds it, or choose another with PORT or --port (${PORT_FORM})`;
    case 'EACCES':
      return `no permission to listen on ${where}: ports below 1024 need privileges; choose another with PORT or --port (${PORT_FORM})`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine; give one with HOST or --host (default 0.0.0.0, every address)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name ${host} does not resolve; give an address with HOST or --host (default 0.0.0.0)`;
    default:
      return `cannot listen on ${where}: ${message}`;
  }
}

const MIB = 1024 * 1024;
/** Exit codes: 2 for a value given in the wrong form (0 for --help). */
const USAGE = 2;

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

interface ServeOptions {
  port?: number;
  host?: string;
  root: string;
  logDb?: string;
  log: boolean;
  logRetentionDays?: number;
  logMaxMb?: number;
  baseUrl?: string;
  trustProxy?: boolean;
  compress: boolean;
  accessLog?: boolean;
}

interface ServeSettings {
  port: number;
  host: string;
  retentionDays: number;
  maxBytes: number;
  origin: { fixed: string | null; trustProxy: boolean };
  /** Stored documents are encoded with brotli and gzip in the background (docs/API.md §5.3). */
  compress: boolean;
  /** A line per answered request on standard output, in the combined format (node/access-log.ts). */
  accessLog: boolean;
}

/** What serve.ts does with its command line and environment: run with these, or print and exit. */
export type ServeArguments =
  | { kind: 'run'; options: ServeOptions & { logDb: string }; settings: ServeSettings }
  | { kind: 'exit'; code: number; stdout: string; stderr: string };

type Env = Readonly<Record<string, string | undefined>>;

function command(env: Env, cwd: string): Command {
  return new Command('serve')
    .description('Serve dist/ and the dynamic endpoints of Crawler Index.')
    .option('--port <n>', 'port to listen on (env PORT; default 8080; 0 for any free port)', option(parsePort))
    .option('--host <address>', 'address to bind (env HOST; default 0.0.0.0)')
    .option('--root <dir>', "project folder holding records/ and dist/ (default: the working folder, or the package's own where that holds no build)", cwd)
    .option('--log-db <path>', 'the request log, a SQLite file (env LOG_DB; default state/requests.db in --root, or in the working folder)', env['LOG_DB'])
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
    .option('--no-compress', 'send stored documents uncompressed and spend no CPU encoding them, for a proxy in front that compresses (env COMPRESS=0)')
    .option(
      '--access-log',
      'print a line per request on standard output in the combined log format, with the response time (env ACCESS_LOG=1); it holds client addresses, which the request log never keeps',
    )
    .exitOverride();
}

function settings(options: ServeOptions, env: Env): ServeSettings {
  return {
    port: options.port ?? fromEnvironment(env, 'PORT', parsePort, 8080),
    host: options.host ?? (env['HOST'] || '0.0.0.0'),
    retentionDays: options.logRetentionDays ?? fromEnvironment(env, 'LOG_RETENTION_DAYS', parseDays, DEFAULT_RETENTION_DAYS),
    maxBytes: (options.logMaxMb ?? fromEnvironment(env, 'LOG_MAX_MB', parseMegabytes, DEFAULT_MAX_BYTES / MIB)) * MIB,
    origin: {
      fixed: options.baseUrl ?? fromEnvironment<string | null>(env, 'BASE_URL', parseBaseUrl, null),
      trustProxy: options.trustProxy === true || fromEnvironment(env, 'TRUST_PROXY', parseSwitch('off'), false),
    },
    compress: options.compress && fromEnvironment(env, 'COMPRESS', parseSwitch('on'), true),
    accessLog: options.accessLog === true || fromEnvironment(env, 'ACCESS_LOG', parseSwitch('off'), false),
  };
}

/**
 * Where the server reads and writes when not told: dist/ from the working folder, or from the
 * installed package where the working folder holds no build (`npx crawler-index serve`); the
 * request log in the working folder's state/ even then, never inside node_modules.
 */
function located(options: ServeOptions, rootGiven: boolean, cwd: string): ServeOptions & { logDb: string } {
  const root = rootGiven ? options.root : defaultRoot(cwd);
  return { ...options, root, logDb: options.logDb ?? join(rootGiven ? root : cwd, 'state', 'requests.db') };
}

/** Judges argv (as process.argv: node, script, arguments) and the environment; prints nothing. */
export function judgeServeArguments(argv: readonly string[], env: Env, cwd: string): ServeArguments {
  let stdout = '';
  let stderr = '';
  const program = command(env, cwd).configureOutput({
    writeOut: (text) => {
      stdout += text;
    },
    writeErr: (text) => {
      stderr += text;
    },
  });
  let options: ServeOptions;
  try {
    options = program.parse([...argv]).opts<ServeOptions>();
  } catch (error) {
    // Commander has worded its one line (or the help); only the exit code is ours.
    if (error instanceof CommanderError) return { kind: 'exit', code: error.exitCode === 0 ? 0 : USAGE, stdout, stderr };
    throw error;
  }
  try {
    return { kind: 'run', options: located(options, program.getOptionValueSource('root') !== 'default', cwd), settings: settings(options, env) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { kind: 'exit', code: USAGE, stdout, stderr: `error: ${error.message}\n` };
  }
}
