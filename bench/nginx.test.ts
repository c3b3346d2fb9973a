import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findExecutable } from './executables.ts';
import { nginxConfig, startNginx } from './nginx.ts';
import { probe } from './probe.ts';
import { get, revalidate } from './requests.ts';

describe('nginxConfig', () => {
  const config = nginxConfig({ root: '/srv/dist', port: 8123, prefix: '/tmp/p', user: null });

  test('is the anchor the README describes: one worker, sendfile, no access log, keepalive, in the foreground', () => {
    for (const directive of [
      'worker_processes 1;',
      'daemon off;',
      'sendfile on;',
      'access_log off;',
      'keepalive_timeout 65s;',
      'listen 127.0.0.1:8123;',
      'root /srv/dist;',
    ]) {
      assert.ok(config.includes(directive), directive);
    }
  });

  test('writes nothing outside its prefix (pid, logs, temp folders)', () => {
    const paths = [...config.matchAll(/^\s*(?:pid|error_log|\w+_temp_path) (\S+?)[ ;]/gm)].map((m) => m[1]);
    assert.equal(paths.length, 7);
    for (const path of paths) assert.ok(path?.startsWith('/tmp/p/'), path);
  });

  test('names the worker user only when asked (nginx started by root)', () => {
    assert.doesNotMatch(config, /^user /m);
    assert.match(nginxConfig({ root: '/srv/dist', port: 8123, prefix: '/tmp/p', user: 'bench' }), /^user bench;$/m);
  });
});

const nginx = findExecutable('nginx', '-v', ['/usr/sbin/nginx']);

describe('startNginx', { skip: nginx === null ? 'nginx is not installed' : false }, () => {
  let root = '';
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'nginx-test-root-'));
    await writeFile(join(root, 'small.json'), '{"a":1}\n');
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('serves the folder with a validator of its own, and stops listening when stopped', async () => {
    assert.ok(nginx !== null);
    const running = await startNginx(nginx.path, root);
    let stopped = false;
    try {
      const ok = await probe(running.origin, get('/small.json'));
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['content-type'], 'application/json');
      assert.equal(ok.bodyBytes, 8);
      const etag = ok.headers['etag'];
      assert.ok(etag !== undefined);
      assert.equal((await probe(running.origin, revalidate('/small.json', etag))).status, 304);
      await running.stop();
      stopped = true;
      const port = Number(new URL(running.origin).port);
      const refused = await new Promise<boolean>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(true));
      });
      assert.ok(refused, 'nothing listens after stop()');
    } finally {
      if (!stopped) await running.stop();
    }
  });

  test('a folder nginx cannot serve from is an error that quotes nginx', async () => {
    assert.ok(nginx !== null);
    await assert.rejects(startNginx(nginx.path, 'relative;root'), /nginx did not start: .*\n.*(emerg|invalid|unexpected)/s);
  });
});
