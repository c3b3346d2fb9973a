import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../pipeline/node/sqlite-driver.ts';
import { build } from '../pipeline/publish/build.ts';
import { servingOrigin } from '../bench/server-process.ts';
import { raw } from './support/http.ts';
import { REPO, tempProject } from './support/project.ts';

// kill -9 of `npm start` in the middle of a burst: the database stays intact, and every request
// answered before the last batch was written is in it. Only what was still queued (about 70 ms
// of requests, docs/API.md §4.3a) can be lost.

/** Waits until the log file holds at least `rows` rows, reading it as another process would. */
async function writtenAtLeast(file: string, rows: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      const count = (db.prepare('SELECT COUNT(*) AS n FROM hits').get() as { n: number }).n;
      db.close();
      if (count >= rows) return;
    } catch (error) {
      // Not created yet, or its tables not yet: the thread is still starting. Anything else is a failure.
      const code = (error as { code?: string }).code;
      if (code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_ERROR') throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`the log never held ${rows} rows`);
}

test('kill -9 under load loses at most the unflushed batch and never corrupts the log', { timeout: 60_000 }, async () => {
  const project = await tempProject('mini');
  try {
    await build({ root: project.root, now: '2026-01-01T00:00:00Z' });
    const file = join(project.root, 'state', 'requests.db');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO, 'serve.ts'), '--port', '0', '--host', '127.0.0.1', '--root', project.root, '--log-db', file],
      {
        cwd: REPO,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const origin = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        for (const line of text.split('\n')) {
          const found = servingOrigin(line);
          if (found) resolve(found);
        }
      });
      child.once('exit', (code) => reject(new Error(`serve.ts exited (${code}) before serving:\n${text}`)));
    });

    const settled = 60;
    for (let i = 0; i < settled; i++) assert.equal((await raw(origin, `/data/ua-regex.json?n=${i}`)).status, 200);
    // Until the log has written these (its thread may take seconds to start on a busy machine).
    await writtenAtLeast(file, settled);
    // A burst still in flight when the process dies.
    const burst = Array.from({ length: 300 }, (_, i) => raw(origin, `/data/coverage.json?n=${i}`).catch(() => null));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const answered = (await Promise.all(burst)).filter((r) => r !== null).length;

    const db = new Database(file);
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM hits').get() as { n: number }).n;
    const daily = (db.prepare('SELECT SUM(requests) AS n FROM daily').get() as { n: number }).n;
    db.close();
    assert.ok(rows >= settled, `${rows} rows, but ${settled} requests were answered before the last flush`);
    assert.ok(rows <= settled + answered, `${rows} rows for ${settled + answered} answered requests`);
    // Rows and daily counts are written in one transaction: they never disagree.
    assert.equal(daily, rows);
  } finally {
    await project.dispose();
  }
});
