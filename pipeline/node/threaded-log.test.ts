import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { logEntry as entry } from '../../test/support/log-entry.ts';
import { threadedLog } from './threaded-log.ts';

const dir = mkdtempSync(join(tmpdir(), 'threaded-log-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail('the log thread never caught up');
}

test('entries go to the log thread and come back through it; a queued one already counts for its visitor', async (t) => {
  const log = threadedLog({ file: join(dir, 'a.db'), flushEveryMs: 10 });
  // A failed assertion must not leave the thread running: it would keep this file, and the suite, from ending.
  t.after(() => log.close());
  // Today's: the thread counts a visitor under the day it is asked on.
  log.record(entry({ at: Date.now() }));
  const lookup = await log.visitor('cafe');
  assert.equal(lookup.counted && lookup.visitor?.requests, 1, 'handed over before the question, and counted');
  log.record(entry({ crawler: 'gptbot', verdict: 'genuine' }));
  await until(async () => (await log.hits(0, 10)).hits.length === 2);
  assert.deepEqual(
    (await log.daily('2000-01-01')).map((r) => r.requests),
    [1, 1],
  );
  await until(async () => log.health().written === 2);
});

test('a file the thread cannot open turns the log unavailable, with the reason, and reads answer empty', async (t) => {
  const lines: string[] = [];
  const log = threadedLog({ file: join(dir, 'missing', 'folder', 'b.db'), log: (line) => lines.push(line) });
  t.after(() => log.close());
  await until(async () => log.health().state === 'unavailable');
  assert.match(log.health().reason ?? '', /cannot open/);
  assert.deepEqual(await log.hits(0, 10), { hits: [], next_cursor: null });
  await until(async () => lines.length === 1);
  assert.match(lines[0]!, /requests are answered but not recorded/);
});
