// Test support: Debian's nginx, Apache, Caddy and HAProxy run from generated configs in a
// temporary folder on 127.0.0.1, never as system services, and stopped by the pid we started.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The first of the paths that exists, or null (the caller skips with one line naming the package). */
export function findBinary(...paths: string[]): string | null {
  return paths.find((path) => existsSync(path)) ?? null;
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Runs a config check; resolves with its output, rejects with it when the exit code is not 0. */
export async function check(binary: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(binary, [...args], { timeout: 20_000 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${binary} ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts a server in the foreground and waits until it accepts connections on `port`. */
export async function startServer(binary: string, args: readonly string[], port: number): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn(binary, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${binary} exited with ${child.exitCode}: ${stderr}`);
    if (await accepting(port)) return { stop };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await stop();
  throw new Error(`${binary} did not listen on ${port} within 5 s: ${stderr}`);
}
