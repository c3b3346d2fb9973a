import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { answeredLogEntry as entry } from '../../test/support/log-entry.ts';
import { TOOL_SNAPSHOT_PATHS } from '../http/tool-data.ts';
import { threadedLog } from './threaded-log.ts';
import { toolSnapshotFromFolder } from './tool-snapshot-folder.ts';

const dir = mkdtempSync(join(tmpdir(), 'threaded-log-'));
const DIST = join(import.meta.dirname, '..', '..', 'dist');
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)';
/** The first address of the first prefix GPTBot's published list holds in the committed build. */
function gptbotAddress(): string {
  const list = JSON.parse(readFileSync(join(DIST, 'ip-ranges', 'openai-gptbot.json'), 'utf8')) as { ipv4: string[] };
  const [network] = list.ipv4[0]!.split('/');
  return network!.replace(/\.(\d+)$/, (_, last: string) => `.${Number(last) + 1}`);
}
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
  log.record(entry({ user_agent: GPTBOT }));
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

/**
 * A folder of the tools' documents as the committed build has them, but for GPTBot's published
 * list, which holds a documentation range instead: booking with it tells which build was read.
 */
function alteredBuild(): string {
  const folder = join(dir, 'altered');
  for (const path of TOOL_SNAPSHOT_PATHS) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    let text = readFileSync(join(DIST, path), 'utf8');
    if (path === '/ip-ranges/all.json') {
      const all = JSON.parse(text) as { sources: { id: string; ipv4: string[] }[] };
      for (const source of all.sources) if (source.id === 'openai-gptbot') source.ipv4 = ['198.51.100.0/24'];
      text = JSON.stringify(all);
    }
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

test('requests are booked on the thread with the build prepared: the one its folder held at the start, or the one it is sent', async (t) => {
  const altered = alteredBuild();
  const bookings = async (file: string, prepared: string) => {
    const log = threadedLog({ file: join(dir, file), flushEveryMs: 10, bookFrom: altered });
    t.after(() => log.close());
    const snapshot = await toolSnapshotFromFolder(prepared);
    assert.ok(snapshot !== null, 'the folder holds every document the tools read');
    await log.prepare(snapshot);
    for (const address of [gptbotAddress(), '198.51.100.7']) log.record(entry({ at: Date.now(), user_agent: GPTBOT, address }));
    log.record(entry({ at: Date.now(), user_agent: 'curl/8.5.0' }));
    await until(async () => (await log.hits(0, 10)).hits.length === 3);
    return (await log.hits(0, 10)).hits;
  };
  // The folder read as the thread started holds the build prepared: nothing more is sent.
  const [moved, documentation, nobody] = await bookings('c.db', altered);
  // Outside the list the build holds: not genuine (not-genuine or unverifiable, as the list's copy is current or too old).
  assert.deepEqual([moved?.verdict === 'genuine', documentation?.verdict], [false, 'genuine']);
  assert.deepEqual([documentation?.crawler, documentation?.category], ['gptbot', 'ai-training']);
  assert.deepEqual([nobody?.crawler, nobody?.verdict], [null, null]);
  assert.equal(documentation?.user_agent, GPTBOT, 'the User-Agent is kept; the address is not, only its hash');
  assert.equal(documentation?.address_hash, 'cafe');
  // Another build is prepared than the folder held: the thread is sent it and books with it.
  const [published, elsewhere] = await bookings('d.db', DIST);
  assert.deepEqual([published?.verdict, elsewhere?.verdict === 'genuine'], ['genuine', false]);
});

test('a thread told no folder books with the build it is sent, and with none before', async (t) => {
  const log = threadedLog({ file: join(dir, 'e.db'), flushEveryMs: 10 });
  t.after(() => log.close());
  await log.prepare(null);
  log.record(entry({ user_agent: GPTBOT, address: gptbotAddress() }));
  await until(async () => (await log.hits(0, 10)).hits.length === 1);
  await log.prepare(await toolSnapshotFromFolder(DIST));
  log.record(entry({ user_agent: GPTBOT, address: gptbotAddress() }));
  await until(async () => (await log.hits(0, 10)).hits.length === 2);
  assert.deepEqual(
    (await log.hits(0, 10)).hits.map((hit) => [hit.crawler, hit.verdict]),
    [
      [null, null],
      ['gptbot', 'genuine'],
    ],
  );
});
