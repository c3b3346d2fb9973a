import { strict as assert } from 'node:assert';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { App } from '../http/handler.ts';
import { nodeListener } from './adapter.ts';

// The adapter's failure path: whatever an answer's body fails with, the client gets an answer,
// the request is reported once, and the log gets lines, not a crash.

test('an answer whose body fails with something that is not an Error still ends in a 500, one report and no stack', { timeout: 10_000 }, async (t) => {
  const app: App = {
    // A body stream that errors with null, as no Error: reading it rejects with null.
    fetch: async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.error(null);
          },
        }),
      ),
    answerDocument: () => null,
    refuseMethod: () => new Response(null, { status: 405 }),
  };
  const lines: string[] = [];
  const reports: { status: number; bytes: number }[] = [];
  const server = createServer(nodeListener(app, { origin: () => 'http://localhost', log: (line) => lines.push(line), onAnswered: (a) => reports.push(a) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/tools/anything', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 500);
  assert.deepEqual(
    reports.map((r) => r.status),
    [500],
  );
  assert.deepEqual(lines, ['serve: null']);
});
