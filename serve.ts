#!/usr/bin/env node
// Serves the committed index (dist/) and the dynamic endpoints on one port.
import { Command, InvalidArgumentError, Option } from 'commander';
import { join } from 'node:path';
import { startServer } from './pipeline/node/server.ts';
import { DEFAULT_RETENTION_DAYS } from './pipeline/log/types.ts';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a whole number from 0 to 65535');
  return n;
}

const options = new Command('serve')
  .description('Serve dist/ and the dynamic endpoints of Crawler Index.')
  .option('--port <n>', 'port to listen on (env PORT)', port, port(process.env['PORT'] ?? '8080'))
  .option('--host <address>', 'address to bind (env HOST)', process.env['HOST'] ?? '0.0.0.0')
  .option('--root <dir>', 'project folder holding records/ and dist/', process.cwd())
  .option('--log-db <path>', 'the request log, a SQLite file (env LOG_DB; default <root>/state/requests.db)', process.env['LOG_DB'])
  .option('--no-log', 'keep no request log (/stats.json then says so, /hits.json has nothing)')
  .option('--log-retention-days <n>', 'days of requests the log keeps', days, days(process.env['LOG_RETENTION_DAYS'] ?? String(DEFAULT_RETENTION_DAYS)))
  // Option.env runs the same parser on the variable, so a bad BASE_URL is one line, as a bad flag is.
  .addOption(
    new Option('--base-url <url>', 'the public origin dynamic answers name, for a server behind a proxy (default: the Host each request used)')
      .env('BASE_URL')
      .argParser(baseUrl),
  )
  .addOption(new Option('--trust-proxy', 'read Forwarded, X-Forwarded-Proto and X-Forwarded-Host, set by a proxy in front').env('TRUST_PROXY'))
  .parse(process.argv)
  .opts<{ port: number; host: string; root: string; logDb?: string; log: boolean; logRetentionDays: number; baseUrl?: string; trustProxy?: boolean }>();

/** BASE_URL / --base-url: an absolute http(s) URL, kept without a trailing slash. */
function baseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an absolute http or https URL, such as https://crawlers.example.org');
  }
  if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new InvalidArgumentError('expected an http or https URL with no query, fragment or credentials, such as https://crawlers.example.org');
  return url.href.replace(/\/+$/, '');
}

function days(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3650) throw new InvalidArgumentError('expected a whole number of days from 1 to 3650');
  return n;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const running = await startServer({
  port: options.port,
  host: options.host,
  root: options.root,
  log,
  requestLog: { file: options.log ? (options.logDb ?? join(options.root, 'state', 'requests.db')) : null, retentionDays: options.logRetentionDays },
  // The only secret the service knows: it opens /hits.json, the raw log (docs/API.md §5).
  exportKey: process.env['EXPORT_KEY'] || null,
  origin: { fixed: options.baseUrl ?? null, trustProxy: options.trustProxy === true },
});
log(`serving ${options.root}/dist at ${running.url.replace('0.0.0.0', 'localhost')}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
