// Our server as its own process (bin/serve.mjs, `npm start`'s command), so that its memory can be
// read from /proc and the load generator never shares its event loop.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from './child.ts';

export interface ServerProcess {
  origin: string;
  pid: number;
  /** Resident set size in KiB; null where /proc is not available. */
  rssKiB(): number | null;
  stop(): Promise<void>;
}

/** The URL in serve.ts's start-up line: "serving <root>/dist at http://127.0.0.1:<port>". */
export function servingOrigin(line: string): string | null {
  return /^serving .* at (http:\/\/\S+)$/.exec(line.trim())?.[1] ?? null;
}

/** VmRSS out of /proc/<pid>/status text, in KiB. */
export function rssFromStatus(status: string): number | null {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match === null ? null : Number(match[1]);
}

/** Lines of the server's stderr kept to explain a failure. */
const KEPT_LINES = 40;

export interface StartOptions {
  /** Resolve only once the server has also printed a line starting with this (default: at the "serving" line). */
  readyLine?: string;
  timeoutMs?: number;
}

/**
 * Starts the server as npm start does (bin/serve.mjs: on Node 20, its bundle) on a kernel-chosen
 * loopback port; the child's pid is the server's own.
 */
export function startServerProcess(root: string, extraArgs: readonly string[] = [], options: StartOptions = {}): Promise<ServerProcess> {
  return startScriptProcess(root, join('bin', 'serve.mjs'), ['--port', '0', '--host', '127.0.0.1', '--root', root, ...extraArgs], options);
}

/**
 * Starts any script of this repository that prints "serving … at <origin>" on stderr (bin/serve.mjs,
 * bench/bare-server.ts): JavaScript as it is, TypeScript through bin/ts-loader.mjs.
 */
export function startScriptProcess(
  root: string,
  script: string,
  args: readonly string[],
  { readyLine, timeoutMs = 60_000 }: StartOptions = {},
): Promise<ServerProcess> {
  const loader = script.endsWith('.ts') ? ['--import', join(root, 'bin', 'ts-loader.mjs')] : [];
  const child = spawn(process.execPath, [...loader, join(root, script), ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const pid = child.pid;
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stopChild(child).then(() => reject(new Error(`${script} ${why}:\n${lines.join('\n')}`)));
    };
    const timer = setTimeout(
      () => fail(`printed no "serving ... at" line${readyLine === undefined ? '' : ` and "${readyLine} …" line`} within ${timeoutMs} ms`),
      timeoutMs,
    );
    let origin: string | null = null;
    let ready = readyLine === undefined;
    let started = false;
    child.once('error', (error) => fail(`could not be started (${error.message})`));
    const exitedEarly = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited (${code ?? signal}) before serving`);
    // 'close', not 'exit': by then stderr has been read to the end, so the failure quotes all of it.
    child.once('close', exitedEarly);
    let pending = '';
    // Read stderr for as long as the server lives: a pipe nobody drains would block its writes.
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const complete = pending.split('\n');
      pending = complete.pop() ?? '';
      for (const line of complete) {
        lines.push(line);
        if (lines.length > KEPT_LINES) lines.shift();
        origin ??= servingOrigin(line);
        if (readyLine !== undefined && line.startsWith(readyLine)) ready = true;
        if (origin === null || !ready || pid === undefined || started) continue;
        started = true;
        clearTimeout(timer);
        child.off('close', exitedEarly);
        const served = origin;
        resolve({
          origin: served,
          pid,
          rssKiB: () => {
            try {
              return rssFromStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
            } catch (error) {
              // No /proc (not Linux): the RSS rows say n/a. Anything else is a real fault.
              if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
              throw error;
            }
          },
          stop: () => stopChild(child),
        });
      }
    });
  });
}
