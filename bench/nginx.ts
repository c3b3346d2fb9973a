// nginx as the anchor: the same dist/ folder served as plain files by one nginx worker with
// sendfile, from a generated configuration in a temporary prefix, so that the benchmark depends
// on nothing in /etc/nginx and leaves nothing behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { stopChild } from './child.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface NginxConfigOptions {
  /** The folder served as the document root. */
  root: string;
  port: number;
  /** The temporary prefix holding the pid file, logs and nginx's temp folders. */
  prefix: string;
  /**
   * The worker's user when nginx is started by root, which would otherwise drop to `nobody`
   * and answer 403 for files only the benchmark's user can read; null when not root (nginx
   * then runs as the user who started it and ignores the directive with a warning).
   */
  user: string | null;
}

// The types of the files in dist/, so that nginx labels them as ours does; anything else is
// served as application/octet-stream, which changes no byte counts.
const TYPES: Record<string, string> = {
  'application/json': 'json',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/css': 'css',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/xml': 'xml',
};

/**
 * The whole configuration. One worker, as one Node process is one event loop. The keepalive
 * request limit is raised because nginx closes a connection after 1,000 requests by default and
 * our server does not: a reconnect every 1,000 requests would be a cost only nginx pays.
 */
export function nginxConfig({ root, port, prefix, user }: NginxConfigOptions): string {
  const types = Object.entries(TYPES)
    .map(([type, extension]) => `    ${type} ${extension};`)
    .join('\n');
  return `${user === null ? '' : `user ${user};\n`}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;

events {
  worker_connections 1024;
}

http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65s;
  keepalive_requests 1000000;
  etag on;
  types {
${types}
  }
  default_type application/octet-stream;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;

  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`;
}

export interface RunningNginx {
  origin: string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground on a free loopback port; resolves once it accepts connections. */
export async function startNginx(executable: string, root: string): Promise<RunningNginx> {
  const prefix = await mkdtemp(join(tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const config = join(prefix, 'nginx.conf');
  const user = process.getuid?.() === 0 ? userInfo().username : null;
  await writeFile(config, nginxConfig({ root, port, prefix, user }));
  // -e: the error log before the configuration is read, else nginx opens /var/log/nginx first.
  const child = spawn(executable, ['-p', prefix, '-c', config, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const removePrefix = () => rm(prefix, { recursive: true, force: true });
  try {
    await untilListening(port, child);
  } catch (error) {
    const log = await readFile(join(prefix, 'error.log'), 'utf8').catch(() => '');
    await stopChild(child);
    await removePrefix();
    throw new Error(`nginx did not start: ${error instanceof Error ? error.message : String(error)}\n${stderr}${log}`.trim());
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: async () => {
      await stopChild(child);
      await removePrefix();
    },
  };
}

/** A port the kernel just handed out; nginx binds it a moment later (a race only with other binders). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') return reject(new Error('no TCP port was assigned'));
      probe.close(() => resolve(address.port));
    });
  });
}

async function untilListening(port: number, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
