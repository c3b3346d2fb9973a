import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import type { RunningServer } from '../pipeline/node/server.ts';
import { serveTree } from './support/served.ts';
import { raw } from './support/http.ts';
import { builtMini } from './support/built-mini.ts';
import { closedWithin, exchange, headersOf, openSocket } from './support/socket.ts';

// docs/API.md §8, §7.2: a hostile client. Every request line here once ended the process or
// held a connection for minutes; each must now get an HTTP answer, and the server must go on.

let project: Awaited<ReturnType<typeof builtMini>>;
let server: RunningServer;
const logged: string[] = [];

before(async () => {
  project = await builtMini();
  // No tool threads: what is hostile here is the request itself, which the HTTP layer answers;
  // the few calls that reach a tool run in place.
  server = await serveTree(project.root, { log: (line) => logged.push(line) });
});
after(async () => {
  await server.close();
  await project.dispose();
});

async function assertAlive(context: string) {
  const response = await raw(server.url, '/data/agents.json');
  assert.equal(response.status, 200, `the server answers after ${context}`);
}

const request = (line: string, headers = 'Host: x\r\nConnection: close\r\n') => `${line}\r\n${headers}\r\n`;

describe('every method token gets an HTTP answer', () => {
  const cases: [method: string, statuses: number[]][] = [
    ['GET', [200]],
    ['HEAD', [200]],
    ['OPTIONS', [204]],
    ['POST', [405]],
    ['PUT', [405]],
    ['DELETE', [405]],
    ['PATCH', [405]],
    ['TRACE', [405]],
    ['TRACK', [400, 405]],
    ['CONNECT', [405]],
    ['PROPFIND', [405]],
    ['PROPPATCH', [405]],
    ['MKCOL', [405]],
    ['COPY', [405]],
    ['MOVE', [405]],
    ['LOCK', [405]],
    ['UNLOCK', [405]],
    ['SEARCH', [405]],
    ['PURGE', [405]],
    ['REPORT', [405]],
    ['QUERY', [400, 405]],
    ['LINK', [405]],
    ['get', [400]],
    ['Get', [400]],
    ['FOO', [400]],
    ['BREW', [400]],
    ['M-SEARCH', [405]],
    ['SOURCE', [405]],
    ['PRI', [400, 405]],
  ];
  for (const [method, statuses] of cases) {
    test(`${method} /`, async () => {
      const target = method === 'CONNECT' ? 'index.example:443' : '/';
      const answer = await exchange(server.url, request(`${method} ${target} HTTP/1.1`));
      assert.ok(answer.status !== null && statuses.includes(answer.status), `${method}: got ${answer.status}: ${answer.text.slice(0, 200)}`);
      if (answer.status === 405) {
        assert.match(headersOf(answer.text)['allow'] ?? '', /^GET, HEAD, OPTIONS/, `${method} answer names the allowed methods`);
        assert.match(answer.text, /"code": "method_not_allowed"/);
      }
      await assertAlive(method);
    });
  }
});

describe('every request-target form gets an HTTP answer', () => {
  const targets: [target: string, statuses: number[], method?: string][] = [
    ['//', [404]],
    ['///', [404]],
    ['/\\', [404]],
    ['//@', [404]],
    ['//:0', [404]],
    ['//evil.example/data/agents.json', [404]],
    ['http://a:99999/', [400]],
    ['http://[/', [400]],
    ['http://index.example/data/agents.json', [200]],
    ['https://x/', [200]],
    ['ftp://x/', [400]],
    ['javascript:alert(1)', [400]],
    ['*', [400]],
    ['*', [204], 'OPTIONS'],
    ['abc', [400]],
    ['?', [400]],
    ['/%', [404]],
    ['/%00', [404]],
    ['/%zz', [404]],
    ['/..%2f..%2fetc/passwd', [404]],
    ['/a/../../etc/passwd', [404]],
    ['/data/agents.json?' + 'a=1&'.repeat(2000), [200]],
    ['/' + 'a'.repeat(15_000), [404]],
    ['/' + 'a'.repeat(20_000), [431]],
    ['/crawler/%E0%A4%A.json', [404]],
    ['/\u00ff', [400]],
    ['/tools/verify-crawler?ip=%', [200, 400]],
    ['/api/v1//', [404]],
    ['/api/v1/../data/agents.json', [404]],
  ];
  for (const [target, statuses, method = 'GET'] of targets) {
    test(`${method} ${target.length > 40 ? target.slice(0, 40) + '…' : target}`, async () => {
      const answer = await exchange(server.url, Buffer.from(request(`${method} ${target} HTTP/1.1`), 'latin1'));
      assert.ok(answer.status !== null && statuses.includes(answer.status), `${target.slice(0, 60)}: got ${answer.status}: ${answer.text.slice(0, 300)}`);
      if (answer.status !== null && answer.status >= 400) assert.match(answer.text, /"code": "[a-z_]+"/, 'a JSON error naming the problem');
      if (answer.status === 404) assert.ok(answer.text.length < 2_000, `a 404 quotes at most a short part of the target (${answer.text.length} bytes)`);
      await assertAlive(target.slice(0, 40));
    });
  }
});

describe('malformed heads get 4xx and the server goes on', () => {
  const heads: [name: string, bytes: string, statuses: number[]][] = [
    ['no Host header', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', [400]],
    ['HTTP/2.0 request line', 'GET / HTTP/2.0\r\nHost: x\r\nConnection: close\r\n\r\n', [200, 400, 505]],
    ['garbage', '\u0000\u0001\u0002 nonsense\r\n\r\n', [400]],
    ['header without colon', 'GET / HTTP/1.1\r\nHost: x\r\nnonsense\r\n\r\n', [400]],
    ['two Content-Lengths', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', [400]],
    ['Content-Length and chunked', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', [400]],
    ['bad chunk size', 'POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n', [400]],
    ['header of 20 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, [431]],
    ['20,000 headers', `GET / HTTP/1.1\r\nHost: x\r\n${'A: b\r\n'.repeat(20_000)}\r\n`, [431]],
    ['Upgrade: websocket', 'GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n', [200]],
    [
      'Expect: 100-continue',
      'POST /tools/robots-lint HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      [100, 200],
    ],
    ['obs-text in a header', 'GET /data/agents.json HTTP/1.1\r\nHost: x\r\nX-A: \u00ff\u00fe\r\nConnection: close\r\n\r\n', [200]],
    ['If-None-Match of 10,000 tags', `GET /data/agents.json HTTP/1.1\r\nHost: x\r\nIf-None-Match: ${'"a",'.repeat(3_000)}\r\nConnection: close\r\n\r\n`, [200]],
    [
      'absurd Accept-Encoding',
      `GET /data/agents.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${'br;q=0.5;q=;;,'.repeat(1_000)}\r\nConnection: close\r\n\r\n`,
      [200],
    ],
  ];
  for (const [name, bytes, statuses] of heads) {
    test(name, async () => {
      const answer = await exchange(server.url, Buffer.from(bytes, 'latin1'));
      assert.ok(answer.status !== null && statuses.includes(answer.status), `${name}: got ${answer.status}: ${answer.text.slice(0, 300)}`);
      await assertAlive(name);
    });
  }

  test('a random corpus of request lines never ends the process', async () => {
    // Deterministic: a fixed linear congruential sequence over hostile fragments.
    const pieces = [
      'GET',
      'POST',
      'TRACE',
      'CONNECT',
      'get',
      ' ',
      '/',
      '//',
      '\\',
      '%',
      '%00',
      '?',
      '#',
      '*',
      '@',
      ':',
      '[',
      ']',
      'http://',
      'a:99999',
      '..',
      '\t',
      'HTTP/1.1',
      'HTTP/1.0',
      'HTTP/9',
      '\u00ff',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 150; i++) {
      const line = Array.from({ length: 1 + (next() % 8) }, () => pieces[next() % pieces.length]).join('');
      const answer = await exchange(server.url, Buffer.from(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1'), 3_000);
      assert.ok(answer.status === null || (answer.status >= 100 && answer.status < 500), `${JSON.stringify(line)} → ${answer.status}`);
    }
    await assertAlive('the corpus');
    assert.deepEqual(
      logged.filter((line) => /\n\s+at /.test(line)),
      [],
      'no stack traces were logged',
    );
  });
});

describe('Host and Expect: answered in JSON naming the accepted form', () => {
  const errorOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };

  test('HTTP/1.1 without Host, or any request with two, → 400 bad_request naming the form (RFC 9112 3.2)', async () => {
    const cases: [string, RegExp][] = [
      ['GET /data/agents.json HTTP/1.1\r\nConnection: close\r\n\r\n', /must carry a Host header.*Host: crawlers\.example\.org/],
      ['GET /data/agents.json HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n', /2 Host headers.*one Host header/],
      ['GET /data/agents.json HTTP/1.0\r\nHost: a\r\nhost: a\r\n\r\n', /2 Host headers/],
    ];
    for (const [bytes, message] of cases) {
      const answer = await exchange(server.url, bytes);
      assert.equal(answer.status, 400, answer.text.slice(0, 300));
      const { error } = errorOf(answer.text);
      assert.equal(error.code, 'bad_request');
      assert.match(error.message, message);
    }
    // HTTP/1.0 has no Host requirement.
    assert.equal((await exchange(server.url, 'GET /data/agents.json HTTP/1.0\r\n\r\n')).status, 200);
    await assertAlive('Host mistakes');
  });

  test('an Expect other than 100-continue → 417 expectation_failed naming 100-continue, and the connection is closed', async () => {
    const answer = await exchange(
      server.url,
      'POST /tools/robots-lint HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: text/plain\r\nContent-Length: 14\r\n\r\n',
    );
    assert.equal(answer.status, 417, answer.text.slice(0, 300));
    assert.equal(answer.ended, 'closed');
    const { error } = errorOf(answer.text);
    assert.equal(error.code, 'expectation_failed');
    assert.match(error.message, /"200-ok".*Expect: 100-continue/);
    await assertAlive('an unknown expectation');
  });
});

describe('security headers', () => {
  test('nosniff and Referrer-Policy on every kind of answer; CSP and frame-ancestors on HTML', async () => {
    const answers = {
      json: await raw(server.url, '/data/agents.json'),
      notModified: await raw(server.url, '/data/agents.json', { headers: { 'if-none-match': '*' } }),
      notFound: await raw(server.url, '/nope'),
      refused: await raw(server.url, '/data/agents.json', { method: 'DELETE' }),
      tool: await raw(server.url, '/tools/classify-ua?ua=GPTBot'),
      toolError: await raw(server.url, '/tools/classify-ua?ua='),
      mcp: await raw(server.url, '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      }),
      html: await raw(server.url, '/'),
      badTarget: await raw(server.url, '/%'),
    };
    for (const [name, response] of Object.entries(answers)) {
      assert.equal(response.headers['x-content-type-options'], 'nosniff', name);
      assert.equal(response.headers['referrer-policy'], 'no-referrer', name);
    }
    assert.match(answers.html.headers['content-security-policy'] ?? '', /default-src 'none'.*frame-ancestors 'none'/);
    assert.equal(answers.json.headers['content-security-policy'], undefined, 'CSP is for documents a browser renders');
  });
});

describe('slow and greedy clients', () => {
  let strict: RunningServer;
  before(async () => {
    strict = await serveTree(project.root, {
      limits: { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 300, idleTimeoutMs: 1_000, maxConnectionsPerAddress: 20 },
    });
  });
  after(() => strict.close());

  test('a request head that never ends is cut off after headersTimeout, and others are served meanwhile', async () => {
    const sockets = await Promise.all(Array.from({ length: 15 }, () => openSocket(strict.url)));
    for (const socket of sockets) socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const served = await raw(strict.url, '/data/agents.json');
    assert.equal(served.status, 200);
    // Generous bound: node:http checks timeouts on an interval.
    await Promise.all(sockets.map((socket) => closedWithin(socket, 5_000)));
  });

  test('a body that trickles is cut off after requestTimeout', async () => {
    const socket = await openSocket(strict.url);
    socket.write('POST /tools/robots-lint HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('a'), 100);
    try {
      await closedWithin(socket, 6_000);
    } finally {
      clearInterval(trickle);
    }
    assert.equal((await raw(strict.url, '/data/agents.json')).status, 200);
  });

  test('one address cannot hold more than maxConnectionsPerAddress connections', async () => {
    const capped = await serveTree(project.root, { limits: { maxConnectionsPerAddress: 20 } });
    try {
      const sockets = await Promise.all(Array.from({ length: 30 }, () => openSocket(capped.url)));
      const closed = await Promise.all(
        sockets.map((socket) =>
          closedWithin(socket, 300).then(
            () => true,
            () => false,
          ),
        ),
      );
      assert.equal(closed.filter(Boolean).length, 10, 'each of the 10 over the cap of 20 made room by closing an idle one of its address, at once');
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal((await raw(capped.url, '/data/agents.json', { headers: { connection: 'close' } })).status, 200);
    } finally {
      await capped.close();
    }
  });

  test('an aborted upload is one short log line, not a stack', async () => {
    const lines: string[] = [];
    const quiet = await serveTree(project.root, { log: (line) => lines.push(line) });
    try {
      const socket = await openSocket(quiet.url);
      socket.write(
        'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":',
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal((await raw(quiet.url, '/data/agents.json')).status, 200);
      assert.ok(lines.length <= 1, lines.join('\n'));
      for (const line of lines) assert.doesNotMatch(line, /\n/, 'one line');
    } finally {
      await quiet.close();
    }
  });
});
