// A server started as its own process is ready when it prints "serving … at <origin>" on
// standard error (serve.ts). Waiting for that line, for the tests that start one.
import type { ChildProcess } from 'node:child_process';
import { servingOrigin } from '../../bench/server-process.ts';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How the child ended; from 'exit', not 'close': a server left behind would hold the stderr pipe open, and 'close' never come. */
export function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * The origin in the child's serving line, and all its standard error so far; rejects, with that
 * text, if the child exits first or prints no such line within `timeoutMs`.
 */
export function servingLine(child: ChildProcess, exited: Promise<Exit>, timeoutMs: number): Promise<{ origin: string; stderr: () => string }> {
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "serving" line within ${timeoutMs} ms:\n${text}`)), timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const origin = text
        .split('\n')
        .map(servingOrigin)
        .find((found) => found !== null);
      if (origin) {
        clearTimeout(timer);
        resolve({ origin, stderr: () => text });
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before serving:\n${text}`));
    });
  });
}
