import { strict as assert } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { probe } from './probe.ts';
import { get, SMALL_DOCUMENT } from './requests.ts';
import { rssFromStatus, servingOrigin, startServerProcess } from './server-process.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));

describe('reading the server process', () => {
  test("servingOrigin takes the URL from serve.ts's start-up line and nothing else", () => {
    assert.equal(servingOrigin('serving /work/main/dist at http://127.0.0.1:43605'), 'http://127.0.0.1:43605');
    assert.equal(servingOrigin('reloaded dist/ at http://127.0.0.1:1'), null);
  });

  test('rssFromStatus reads VmRSS in KiB', () => {
    assert.equal(rssFromStatus('Name:\tnode\nVmHWM:\t  300000 kB\nVmRSS:\t  271232 kB\nRssAnon:\t 1 kB\n'), 271232);
    assert.equal(rssFromStatus('Name:\tnode\n'), null);
  });
});

describe('startServerProcess', () => {
  test("runs npm start's command as its own process on the committed dist/, answers, reports its RSS and stops", async () => {
    const server = await startServerProcess(repo, ['--no-log']);
    let stopped = false;
    try {
      assert.notEqual(server.pid, process.pid);
      assert.equal((await probe(server.origin, get(SMALL_DOCUMENT))).status, 200);
      const rss = server.rssKiB();
      if (process.platform === 'linux') assert.ok(rss !== null && rss > 0, `RSS ${rss}`);
      await server.stop();
      stopped = true;
      assert.throws(() => process.kill(server.pid, 0), { code: 'ESRCH' });
    } finally {
      if (!stopped) await server.stop();
    }
  });
});
