import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { link, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { build as bundle } from 'esbuild';
import { build, BuildError } from '../pipeline/publish/build.ts';
import { readMirrorState } from '../pipeline/state/mirror.ts';
import { readEventLog, writeEventLog } from '../pipeline/state/events.ts';
import { canonicalJson } from '../pipeline/util/canonical-json.ts';
import { writeFileAtomic } from '../pipeline/util/atomic-file.ts';
import { REPO, tempProject } from './support/project.ts';
import { loopLogs } from './support/state-logs.ts';

// docs/PRINCIPLES.md §4: state/ is written so that a kill never leaves a partial file, and a broken
// state file stops the build with a message naming the file and what to do.

const T0 = '2026-01-01T00:00:00Z';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'crawler-index-state-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The id of a process that has exited, as a killed writer's id is. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['--version']);
  assert.ok(child.pid);
  return child.pid;
}

function assertStateProblem(error: unknown, file: string, reason: RegExp): true {
  assert.ok(error instanceof BuildError, `expected a BuildError, got ${String(error)}`);
  assert.equal(error.problems.length, 1, error.message);
  const [problem] = error.problems;
  assert.equal(problem?.file, file, 'the problem names the file');
  assert.match(problem?.message ?? '', reason);
  assert.match(problem?.message ?? '', /git checkout HEAD -- /, 'and says how to restore it');
  assert.ok(error.message.includes(file), 'the message printed names the file too');
  return true;
}

test('an empty, cut-short or wrong-shaped state/events.json stops the build naming the file', async (t) => {
  const project = await tempProject();
  t.after(() => project.dispose());
  const events = join(project.root, 'state', 'events.json');
  const valid = canonicalJson({ head: 0, oldest: 1, last_base: null, last_batch_start: null, events: [] });
  const cases: [string, string, RegExp][] = [
    ['empty', '', /is empty \(0 bytes\)/],
    ['cut short', valid.slice(0, valid.length / 2), /is not valid JSON/],
    ['garbage', '\u0000\u0000\u0000', /is not valid JSON/],
    ['wrong shape', '[]', /is not an event log/],
  ];
  for (const [name, text, reason] of cases) {
    await writeFile(events, text);
    await assert.rejects(build({ root: project.root, now: T0 }), (error) => assertStateProblem(error, events, reason), name);
    await assert.rejects(readEventLog(events), (error) => assertStateProblem(error, events, reason), name);
  }
});

test('a cut-short state/mirror file stops the build naming that file', async (t) => {
  const project = await tempProject();
  t.after(() => project.dispose());
  const mirror = join(project.root, 'state', 'mirror', 'openai-gptbot.json');
  const text = await readFile(mirror, 'utf8');
  await writeFile(mirror, text.slice(0, 100));
  await assert.rejects(build({ root: project.root, now: T0 }), (error) => assertStateProblem(error, mirror, /is not valid JSON/));
  await assert.rejects(readMirrorState(join(project.root, 'state', 'mirror')), (error) => assertStateProblem(error, mirror, /npm run refresh/));
  await writeFile(mirror, '');
  await assert.rejects(build({ root: project.root, now: T0 }), (error) => assertStateProblem(error, mirror, /is empty/));
});

test('a state write replaces the file by rename: the old file is never opened for writing', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'events.json');
  await writeFile(path, 'old\n');
  // A second name for the old file: an in-place write (truncate, then write) would change it too.
  await link(path, join(dir, 'held'));
  await writeFileAtomic(path, 'new\n');
  assert.equal(await readFile(path, 'utf8'), 'new\n');
  assert.equal(await readFile(join(dir, 'held'), 'utf8'), 'old\n', 'the old bytes were never touched');
  assert.deepEqual((await readdir(dir)).sort(), ['events.json', 'held'], 'no temporary file is left');

  // writeEventLog (every state/events.json write) goes the same way.
  await rm(join(dir, 'held'));
  await writeEventLog(path, { head: 0, oldest: 1, last_base: null, last_batch_start: null, events: [] });
  await link(path, join(dir, 'held'));
  const before = await readFile(path, 'utf8');
  await writeEventLog(path, { head: 1, oldest: 1, last_base: null, last_batch_start: null, events: [] });
  assert.equal(await readFile(join(dir, 'held'), 'utf8'), before);
  assert.match(await readFile(path, 'utf8'), /"head": 1/);
});

test("a temporary file left by a killed writer is removed by the next write; a running writer's is kept", async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'gptbot.json');
  const killed = join(dir, `.gptbot.json.${deadPid()}.tmp`);
  const running = join(dir, `.gptbot.json.${process.ppid}.tmp`);
  const otherTarget = join(dir, `.other.json.${deadPid()}.tmp`);
  for (const file of [killed, running, otherTarget]) await writeFile(file, '{"half": ');
  await writeFileAtomic(path, '{}\n');
  const names = await readdir(dir);
  assert.ok(!names.includes(basename(killed)), "the killed writer's temporary file is gone");
  assert.ok(names.includes(basename(running)), "a live process's temporary file is kept");
  assert.ok(names.includes(basename(otherTarget)), "another target's temporary file is not touched by this write");
});

test('a writer killed with SIGKILL mid-write leaves the whole old or the whole new file, never a mix', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'events.json');
  const [first, second] = loopLogs();
  const texts = [canonicalJson(first), canonicalJson(second)];
  const wanted = new Set(texts);
  const work = await tempDir(t);
  const sources = texts.map((_, i) => join(work, `log-${i}.json`));
  await Promise.all(texts.map((text, i) => writeFile(sources[i]!, text)));
  // The writer (write-loop.ts and the modules it imports) bundled into one plain script, made by
  // esbuild as tsx would compile it, so that each round starts node alone instead of node and a
  // TypeScript loader: the rounds pay for the kills, not for the starts.
  const script = join(work, 'write-loop.mjs');
  await bundle({
    entryPoints: [join(REPO, 'test', 'support', 'write-loop.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile: script,
    logLevel: 'silent',
  });
  // The kill is sent a different while after a completed write each round, so it lands at
  // different points of the next one (8 of 10 rounds left a temporary file when this was
  // written: killed mid-write). The delay only places the kill; every outcome must be one of
  // the two whole files. The same loop with a plain writeFile left a partial file in 3 of 10.
  for (const delayMs of [0, 2, 4, 8, 16, 32]) {
    const child = spawn(process.execPath, [script, path, ...sources], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delayMs));
    assert.equal(await exited, 'SIGKILL', 'the writer was killed, not finished');
    const text = await readFile(path, 'utf8');
    assert.ok(wanted.has(text), `killed ${delayMs} ms after a write, the file holds ${text.length} bytes, neither whole log`);
    assert.equal((await readEventLog(path)).head, first.head, 'and it reads back as an event log');
  }
  // Whatever temporary file the last kill left is cleared by the next write.
  await writeFileAtomic(path, 'x');
  assert.deepEqual(await readdir(dir), ['events.json']);
});
