#!/usr/bin/env node
// Serves the committed index (dist/) and the dynamic endpoints on one port.
import { Command, InvalidArgumentError } from 'commander';
import { startServer } from './pipeline/node/server.ts';

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
  .parse(process.argv)
  .opts<{ port: number; host: string; root: string }>();

const log = (line: string) => process.stderr.write(`${line}\n`);
const running = await startServer({ ...options, log });
log(`serving ${options.root}/dist at ${running.url.replace('0.0.0.0', 'localhost')}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
