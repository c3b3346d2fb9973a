import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { cleanupOnExit } from './cleanup.ts';

test('stops run once each, newest first, a failing one reported without skipping the rest; signal handlers are removed after', async () => {
  const before = process.listenerCount('SIGINT');
  const reported: string[] = [];
  const ran: string[] = [];
  const cleanup = cleanupOnExit((line) => reported.push(line));
  assert.equal(process.listenerCount('SIGINT'), before + 1);
  cleanup.add(async () => void ran.push('server'));
  cleanup.add(async () => {
    ran.push('nginx');
    throw new Error('already gone');
  });
  cleanup.add(async () => void ran.push('wrk'));
  await Promise.all([cleanup.run(), cleanup.run()]);
  await cleanup.run();
  assert.deepEqual(ran, ['wrk', 'nginx', 'server']);
  assert.deepEqual(reported, ['could not stop a benchmark process: already gone']);
  assert.equal(process.listenerCount('SIGINT'), before);
});
