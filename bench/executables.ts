// The external programs the benchmark drives, found once, with the version each reports.
import { spawnSync } from 'node:child_process';

export interface Executable {
  path: string;
  /** What the program says its version is: "nginx/1.22.1", "wrk debian/4.1.0-3+b2 [epoll]". */
  version: string;
}

/**
 * The program by name on PATH, else at one of `fallbacks` (Debian installs nginx in /usr/sbin,
 * which is not on every user's PATH); null when it is nowhere.
 */
export function findExecutable(name: string, versionFlag: string, fallbacks: readonly string[] = []): Executable | null {
  for (const path of [name, ...fallbacks]) {
    // wrk -v exits with 1 after printing its version and usage; only a missing file is fatal.
    const run = spawnSync(path, [versionFlag], { encoding: 'utf8', timeout: 5_000 });
    if (run.error !== undefined) continue;
    const firstLine =
      `${run.stdout}\n${run.stderr}`
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l.length > 0) ?? name;
    return { path, version: versionOf(firstLine) };
  }
  return null;
}

/** The version out of a program's first line, without a "name version:" lead or a copyright. */
export function versionOf(line: string): string {
  return line
    .replace(/^.*\bversion:\s*/i, '')
    .replace(/\s+Copyright\b.*$/i, '')
    .trim();
}
