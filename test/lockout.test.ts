import { strict as assert } from 'node:assert';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../pipeline/node/server.ts';
import { serveTree } from './support/served.ts';
import { raw } from './support/http.ts';
import { builtMini } from './support/built-mini.ts';
import { destroyedWithin, openHalfOpen } from './support/socket.ts';

// No set of addresses can lock another out, and a connection past its deadline is destroyed,
// not merely ended (README "Limits, timeouts and what a hostile client gets"; docs/API.md §8).
// Loopback has the whole of 127.0.0.0/8, so each attacker and the probe have an address of
// their own. Small limits keep the sockets few and the waits short; a wait is only ever
// "closed before the deadline plus a generous grace", never a timing to meet.

let project: Awaited<ReturnType<typeof builtMini>>;

before(async () => {
  project = await builtMini();
});
after(() => project.dispose());

/** Every connection the server holds, as it counts them. */
function heldBy(server: RunningServer): Promise<number> {
  return new Promise((resolve, reject) => server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** Resolves once the server holds no connection; rejects after `limitMs`. */
async function heldNoneWithin(server: RunningServer, limitMs: number): Promise<void> {
  const started = Date.now();
  while ((await heldBy(server)) > 0) {
    if (Date.now() - started > limitMs) throw new Error(`the server still held ${await heldBy(server)} connection(s) after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens `count` half-open connections from `address`, each starting a request head it never finishes. */
async function slowHeads(server: RunningServer, address: string, count: number): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await openHalfOpen(server.url, address);
    socket.write('GET /data/agents.json HTTP/1.1\r\nHost: x\r\n');
    sockets.push(socket);
  }
  return sockets;
}

/** Writes one more header line on every socket every `everyMs` (the slowloris of the issue sent one every 3 s). */
function dribble(sockets: readonly Socket[], everyMs: number): () => void {
  const timer = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write('X-Slow: 1\r\n');
  }, everyMs);
  return () => clearInterval(timer);
}

describe('admission: a client from another address is always served', () => {
  const limits = { maxConnections: 40, maxConnectionsPerAddress: 8, headersTimeoutMs: 60_000, requestTimeoutMs: 120_000, idleTimeoutMs: 60_000 };

  test('6 addresses x 8 dribbling connections fill a cap of 40; every probe from a seventh address gets its answer', async () => {
    const server = await serveTree(project.root, { limits });
    const attackers: Socket[] = [];
    const stop = dribble(attackers, 200);
    try {
      // The deadlines are a minute away: only admission can make room for the probes.
      for (let a = 0; a < 6; a++) attackers.push(...(await slowHeads(server, `127.0.0.${10 + a}`, 8)));
      const statuses: (number | string)[] = [];
      for (let i = 0; i < 20; i++) {
        const answer = await raw(server.url, '/data/agents.json', { localAddress: '127.0.0.2', headers: { connection: 'close' } }).then(
          (response) => response.status,
          (error: Error) => error.message,
        );
        statuses.push(answer);
      }
      assert.deepEqual(statuses, Array<number>(20).fill(200), 'every probe from 127.0.0.2 is answered');
      assert.ok((await heldBy(server)) <= limits.maxConnections, 'the server never holds more than its cap');
    } finally {
      stop();
      for (const socket of attackers) socket.destroy();
      await server.close();
    }
  });
});

describe('a connection is destroyed when its deadline passes', () => {
  // A half-open client learns that the server closed the connection only when it writes: an
  // empty line, which a server ignores before a request line (RFC 9112 section 2.2), is the probe.
  const EMPTY_LINE = '\r\n';
  const limits = { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 500, idleTimeoutMs: 30_000, closeGraceMs: 300 };
  // Deadline, plus node:http's check interval, plus the grace, plus room for a loaded machine.
  const within = (deadlineMs: number) => deadlineMs + 1_000 + limits.closeGraceMs + 8_000;
  let server: RunningServer;
  before(async () => {
    server = await serveTree(project.root, { limits });
  });
  after(() => server.close());

  test('silent connections: destroyed after the header deadline', async () => {
    const sockets = await Promise.all(Array.from({ length: 8 }, () => openHalfOpen(server.url, '127.0.0.20')));
    await Promise.all(sockets.map((socket) => destroyedWithin(socket, within(limits.headersTimeoutMs), EMPTY_LINE)));
  });

  test('a head dribbled one line at a time: destroyed after the header deadline', async () => {
    const sockets = await slowHeads(server, '127.0.0.21', 8);
    const stop = dribble(sockets, 200);
    try {
      await Promise.all(sockets.map((socket) => destroyedWithin(socket, within(limits.headersTimeoutMs), null)));
    } finally {
      stop();
    }
  });

  test('a body that trickles: destroyed after the request deadline', async () => {
    const [socket] = await Promise.all([openHalfOpen(server.url, '127.0.0.22')]);
    socket!.write('POST /tools/robots-lint HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
    const trickle = setInterval(() => socket!.writable && socket!.write('a'), 100);
    try {
      await destroyedWithin(socket!, within(limits.requestTimeoutMs), null);
    } finally {
      clearInterval(trickle);
    }
  });

  test('after an error answer (400 to a malformed head) the client does not close: destroyed after the grace', async () => {
    const socket = await openHalfOpen(server.url, '127.0.0.23');
    socket.write('NOT HTTP AT ALL\r\n\r\n');
    // Counted by the server: any byte this client wrote after the answer would end it anyway.
    await heldNoneWithin(server, within(0));
    socket.destroy();
  });

  test("after CONNECT's 405 the client does not close: destroyed after the grace", async () => {
    const socket = await openHalfOpen(server.url, '127.0.0.25');
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await destroyedWithin(socket, within(0), EMPTY_LINE);
  });

  test('an idle keep-alive connection: destroyed after the keep-alive timeout', async () => {
    const socket = await openHalfOpen(server.url, '127.0.0.24');
    socket.write('GET /data/agents.json HTTP/1.1\r\nHost: x\r\n\r\n');
    await destroyedWithin(socket, within(limits.keepAliveTimeoutMs), EMPTY_LINE);
  });

  test('a client from another address is served meanwhile', async () => {
    assert.equal((await raw(server.url, '/data/agents.json', { localAddress: '127.0.0.2' })).status, 200);
  });
});
