import { strict as assert } from 'node:assert';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findExecutable } from './executables.ts';
import { luaString, parseWrkReport, runWrk, wrkScript, type WrkRequest } from './wrk.ts';

const REPORT =
  'Running 1s test @ http://127.0.0.1:1\n  2 threads and 4 connections\n' +
  'WRK_REPORT {"requests":2000,"duration_us":1000000,"bytes":5000000,"errors":{"connect":0,"read":1,"write":0,"status":3,"timeout":2},"latency_us":{"p50":1500,"p90":2500,"p99":12000,"max":40000}}\n';

describe('parseWrkReport', () => {
  test('reads counts, rates, bytes per response and latencies in milliseconds', () => {
    const report = parseWrkReport(REPORT);
    assert.equal(report.requests, 2000);
    assert.equal(report.requestsPerSecond, 2000);
    assert.equal(report.bytesPerResponse, 2500);
    assert.deepEqual(report.latencyMs, { p50: 1.5, p90: 2.5, p99: 12, max: 40 });
    assert.deepEqual(report.errors, { connect: 0, read: 1, write: 0, status: 3, timeout: 2 });
  });

  test('names the missing line and shows what wrk printed instead', () => {
    assert.throws(() => parseWrkReport('unable to connect to 127.0.0.1:1 Connection refused\n'), /no report line \(WRK_REPORT\).*\n.*Connection refused/s);
  });

  test('refuses a report whose counts are not numbers', () => {
    assert.throws(() => parseWrkReport(REPORT.replace('"requests":2000', '"requests":"many"')), /"requests" is not a count/);
  });
});

describe('wrkScript', () => {
  test('one request is set on wrk itself, so no Lua runs per request', () => {
    const script = wrkScript([{ method: 'GET', path: '/a', headers: { 'if-none-match': '"x"' } }]);
    assert.match(script, /^wrk\.path = "\/a"$/m);
    assert.match(script, /^wrk\.headers\["if-none-match"\] = "\\034x\\034"$/m);
    assert.doesNotMatch(script, /request = function/);
  });

  test('several requests are handed out in turn by a request function', () => {
    const script = wrkScript([
      { method: 'GET', path: '/a', headers: {} },
      { method: 'POST', path: '/b', headers: {}, body: '{}' },
    ]);
    assert.match(script, /request = function/);
  });

  test('refuses an empty plan', () => {
    assert.throws(() => wrkScript([]), /at least one request/);
  });

  test('luaString escapes quotes, backslashes, control bytes and UTF-8 as three-digit decimals', () => {
    assert.equal(luaString('a"b\\c\n1é'), '"a\\034b\\092c\\0101\\195\\169"');
  });
});

const wrk = findExecutable('wrk', '-v');

describe('runWrk against a loopback server', { skip: wrk === null ? 'wrk is not installed' : false }, () => {
  interface Seen {
    method: string;
    url: string;
    header: string | undefined;
    body: string;
  }
  const seen: Seen[] = [];
  const ANSWER = Buffer.alloc(1000, 'x');
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        header: req.headers['x-probe'] === undefined ? undefined : String(req.headers['x-probe']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (req.url === '/fail') res.writeHead(503).end();
      else res.writeHead(200, { 'content-length': ANSWER.length }).end(ANSWER);
    });
  });
  let origin = '';
  let scratchDir = '';
  before(async () => {
    scratchDir = await mkdtemp(join(tmpdir(), 'wrk-test-'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    assert.ok(address !== null && typeof address !== 'string');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(scratchDir, { recursive: true, force: true });
  });

  test('sends every request of a mixed plan byte for byte, in turn, and counts what the server answered', async () => {
    assert.ok(wrk !== null);
    const post: WrkRequest = {
      method: 'POST',
      path: '/rpc?q=a,b',
      headers: { 'x-probe': 'quote " backslash \\ end', 'content-type': 'application/json' },
      body: '{"ua":"é"}',
    };
    const plan = [{ method: 'GET', path: '/ok', headers: {} }, post, { method: 'GET', path: '/fail', headers: {} }];
    const report = await runWrk(wrk.path, { origin, requests: plan, threads: 1, connections: 1, seconds: 1 }, { scratchDir });

    assert.ok(report.requests >= 3, `at least one round of the plan (${report.requests})`);
    // In turn on the one connection (from wherever wrk's first call started); wrk may stop with one request unanswered.
    assert.ok(seen.length === report.requests || seen.length === report.requests + 1, `${seen.length} seen, ${report.requests} counted`);
    const start = plan.findIndex((r) => r.path === seen[0]?.url);
    seen.forEach((s, i) => {
      assert.equal(s.url, plan[(start + i) % plan.length]!.path);
    });
    const posted = seen.find((s) => s.method === 'POST');
    assert.deepEqual(posted, { method: 'POST', url: '/rpc?q=a,b', header: 'quote " backslash \\ end', body: '{"ua":"é"}' });
    const failed = seen.slice(0, report.requests).filter((s) => s.url === '/fail').length;
    assert.equal(report.errors.status, failed);
    assert.ok(report.bytesPerResponse > 0);
  });

  test('an unreachable origin is an error naming wrk and its arguments', async () => {
    assert.ok(wrk !== null);
    await assert.rejects(
      runWrk(
        wrk.path,
        { origin: 'http://127.0.0.1:1', requests: [{ method: 'GET', path: '/', headers: {} }], threads: 1, connections: 1, seconds: 1 },
        { scratchDir },
      ),
      /wrk -t 1 -c 1 -d 1s|no report line/,
    );
  });
});
