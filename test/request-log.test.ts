import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { LIVE_MARKER } from '../pipeline/site/live.ts';
import { after, before, describe, test } from 'node:test';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { connect } from 'node:net';
import { build } from '../pipeline/publish/build.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { raw } from './support/http.ts';
import { hoursAgo, setMirrorTimes } from './support/mirror-times.ts';
import { tempProject } from './support/project.ts';
import { serveTree } from './support/served.ts';
import { builtMini } from './support/built-mini.ts';

// The request log over real sockets: every request is recorded once answered, /stats.json
// aggregates it for anyone, /hits.json hands the rows only to the export key, and whoami sees
// the caller's earlier requests.

const KEY = 'correct horse battery staple';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot';

/** One copy of the mini build, which the describes below serve each with the log it tests. */
let mini: Awaited<ReturnType<typeof builtMini>>;
before(async () => {
  mini = await builtMini();
});
after(() => mini.dispose());

/** A server on the copy; a log, when asked for, in a file of its own in the copy's state/, where npm start keeps it. */
async function serveCopy(
  options: { exportKey?: string; requestLog?: { name: string; flushEveryMs?: number; maxBytes?: number } } = {},
): Promise<{ root: string; server: RunningServer; dispose(): Promise<void> }> {
  const { requestLog, ...rest } = options;
  const logged = requestLog === undefined ? {} : { requestLog: { ...requestLog, file: join(mini.root, 'state', `${requestLog.name}.db`) } };
  const server = await serveTree(mini.root, { ...rest, ...logged });
  return { root: mini.root, server, dispose: () => server.close() };
}

describe('with a request log', () => {
  let served: Awaited<ReturnType<typeof serveCopy>>;
  before(async () => {
    served = await serveCopy({ exportKey: KEY, requestLog: { name: 'with-log', flushEveryMs: 10 } });
  });
  after(() => served.dispose());
  const get = (path: string, headers: Record<string, string> = {}) => raw(served.server.url, path, { headers });
  // Rows reach the file on the log's thread a moment after the answer: read until they are there.
  const settle = async (rows: number) => {
    for (let tries = 0; tries < 100; tries++) {
      const page = JSON.parse((await get('/hits.json?limit=1000', { authorization: `Bearer ${KEY}` })).text) as { hits: unknown[] };
      if (page.hits.length >= rows) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  test('requests are recorded once answered, by route template, never with the query or the address', async () => {
    await get('/data/agents.json');
    await get('/crawler/gptbot.json?secret=1', { 'user-agent': GPTBOT });
    await get('/no/such/path');
    await settle(3);
    const page = JSON.parse((await get('/hits.json?limit=1000', { authorization: `Bearer ${KEY}` })).text) as {
      hits: { route: string; status: number; crawler: string | null; verdict: string | null; address_hash: string; user_agent: string | null }[];
    };
    const rows = page.hits.map((h) => [h.route, h.status, h.crawler, h.verdict]);
    assert.deepEqual(rows.slice(0, 3), [
      ['/data/agents.json', 200, null, null],
      // The fixture's GPTBot list was accepted on 2026-11-01, long over the 48 hours a copy may be old (docs/API.md §6.4).
      ['/crawler/{slug}.json', 200, 'gptbot', 'unverifiable'],
      ['(none)', 404, null, null],
    ]);
    const text = JSON.stringify(page);
    assert.doesNotMatch(text, /127\.0\.0\.1|secret=1/);
    assert.match(page.hits[0]!.address_hash, /^[0-9a-f]{32}$/);
  });

  test('an absolute-form target is booked by its route, whether a document or a tool answers it', async () => {
    const hits = async () =>
      (JSON.parse((await get('/hits.json?limit=1000', { authorization: `Bearer ${KEY}` })).text) as { hits: { id: number; route: string; status: number }[] })
        .hits;
    const before = (await hits()).length;
    const origin = served.server.url;
    // node:http sends the path as given, so this is the request line `GET http://127.0.0.1:<port>/... HTTP/1.1`.
    await raw(origin, `${origin}/operator/openai.json`);
    await raw(origin, `${origin}/tools/classify-ua?ua=GPTBot`);
    await settle(before + 3);
    // Reading /hits.json is booked too; the two requests sent are the last of the others.
    const last = (await hits())
      .filter((h) => h.route !== '/hits.json')
      .sort((a, b) => a.id - b.id)
      .slice(-2);
    assert.deepEqual(
      last.map((h) => [h.route, h.status]),
      [
        ['/operator/{slug}.json', 200],
        ['/tools/classify-ua', 200],
      ],
    );
  });

  test('/stats.json is public, valid, cached with an ETag, and counts what the log holds', async () => {
    const first = await get('/stats.json');
    assert.equal(first.status, 200);
    const stats = JSON.parse(first.text) as { log: { state: string }; totals: { requests: number }; crawler_visits: { claimed: number } };
    const validate = validatorFor('outputs/stats.schema.json');
    assert.ok(validate(stats), JSON.stringify(validate.errors));
    assert.equal(stats.log.state, 'ok');
    assert.ok(stats.totals.requests >= 3);
    assert.ok(stats.crawler_visits.claimed >= 1);
    assert.match(first.headers['etag'] ?? '', /^"[0-9a-f]{32}"$/);
    const again = await get('/stats.json', { 'if-none-match': first.headers['etag']! });
    assert.equal(again.status, 304);
  });

  test('/hits.json: 401 without a key, with a wrong key, and 200 with the key as ?key= or Bearer; bad paging is a 400', async () => {
    const none = await get('/hits.json');
    assert.equal(none.status, 401);
    assert.equal(none.headers['www-authenticate'], 'Bearer realm="hits"');
    assert.equal(none.headers['cache-control'], 'no-store');
    assert.match(JSON.parse(none.text).error.message, /export key/);
    assert.equal((await get('/hits.json', { authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await get('/hits.json?key=wrong')).status, 401);
    const byQuery = await get(`/hits.json?key=${encodeURIComponent(KEY)}&limit=2`);
    assert.equal(byQuery.status, 200);
    assert.equal(byQuery.headers['cache-control'], 'no-store');
    const page = JSON.parse(byQuery.text) as { hits: { id: number }[]; next_cursor: number | null; next: string | null };
    const validate = validatorFor('outputs/hits.schema.json');
    assert.ok(validate(page), JSON.stringify(validate.errors));
    assert.equal(page.hits.length, 2);
    assert.equal(page.next_cursor, page.hits[1]!.id);
    assert.doesNotMatch(page.next ?? '', /key=/);
    const next = JSON.parse((await get(`/hits.json?cursor=${page.next_cursor}&limit=2`, { authorization: `Bearer ${KEY}` })).text) as {
      hits: { id: number }[];
    };
    assert.ok(next.hits.every((h) => h.id > page.next_cursor!));
    for (const query of [
      'cursor=-1',
      'cursor=abc',
      'limit=0',
      'limit=1001',
      'limit=1.5',
      'cursor=99999999999999999999',
      'limit=1&limit=2',
      `key=${encodeURIComponent(KEY)}&key=x`,
    ]) {
      const bad = await get(`/hits.json?${query}`, { authorization: `Bearer ${KEY}` });
      assert.equal(bad.status, 400, query);
    }
  });

  test("whoami: seen before, by today's hash of the address, and how this request books", async () => {
    const answer = JSON.parse((await get('/tools/whoami', { 'user-agent': GPTBOT })).text) as {
      seen_before: { known: boolean; seen: boolean; requests: number };
      booked_as: { crawler: string | null; verdict: string | null };
    };
    assert.equal(answer.seen_before.known, true);
    assert.equal(answer.seen_before.seen, true);
    assert.ok(answer.seen_before.requests >= 3);
    assert.deepEqual([answer.booked_as.crawler, answer.booked_as.verdict], ['gptbot', 'unverifiable']);
  });
});

describe('live counters in pages', () => {
  let served: Awaited<ReturnType<typeof serveCopy>>;
  before(async () => {
    served = await serveCopy({ exportKey: KEY, requestLog: { name: 'live-counters', flushEveryMs: 10 } });
  });
  after(() => served.dispose());
  const get = (path: string, headers: Record<string, string> = {}) => raw(served.server.url, path, { headers });

  test('a crawler page says how often that crawler came and what the server answered; its ETag names the bytes sent', async () => {
    for (let i = 0; i < 3; i++) await get('/crawler/gptbot.json', { 'user-agent': GPTBOT });
    await get('/data/agents.json');
    // Rows reach the file a moment after the answers; the page reads the log once they are there.
    // A log too busy to answer in time says 503 log_busy (on a loaded machine): ask again, as it says.
    for (let tries = 0; tries < 100; tries++) {
      const page = JSON.parse((await get('/hits.json?limit=1000', { authorization: `Bearer ${KEY}` })).text) as { hits?: unknown[] };
      if ((page.hits?.length ?? 0) >= 4) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const page = await get('/crawler/gptbot.html');
    assert.equal(page.status, 200);
    const line = /<p class="live">([^<]*)<\/p>/.exec(page.text)?.[1];
    assert.match(
      line ?? '',
      /^GPTBot called on this index 3 times in the last 30 days \(0 from addresses verified as its own\)\. This server, today \(UTC\): \d+ requests\./,
    );
    assert.equal(page.headers['etag'], `"${createHash('sha256').update(page.text).digest('hex').slice(0, 32)}"`);
    assert.equal((await get('/crawler/gptbot.html', { 'if-none-match': page.headers['etag']! })).status, 304);
    // Within the minute the log is read once: the same bytes again, however many requests came since.
    assert.equal((await get('/crawler/gptbot.html')).text, page.text);
    const home = await get('/');
    assert.match(
      /<p class="live">([^<]*)<\/p>/.exec(home.text)?.[1] ?? '',
      /^This server, today \(UTC\): \d+ requests\. In the last 30 days: \d+ requests, 3 naming a crawler, 0 of them/,
    );
    const gzipped = await get('/', { 'accept-encoding': 'gzip' });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzipped.body).toString('utf8'), home.text, 'the gzip form decodes to the same page');
  });
});

describe('without a request log', () => {
  let served: Awaited<ReturnType<typeof serveCopy>>;
  before(async () => {
    served = await serveCopy();
  });
  after(() => served.dispose());

  test('/stats.json says the log is off, /hits.json is 401 for everyone, whoami cannot say', async () => {
    const stats = JSON.parse((await raw(served.server.url, '/stats.json')).text) as { log: { state: string }; totals: { requests: number } };
    assert.equal(stats.log.state, 'off');
    assert.equal(stats.totals.requests, 0);
    const hits = await raw(served.server.url, '/hits.json?key=anything');
    assert.equal(hits.status, 401);
    assert.match(JSON.parse(hits.text).error.message, /no export key set/);
    const whoami = JSON.parse((await raw(served.server.url, '/tools/whoami')).text) as { seen_before: { known: boolean; reason: string } };
    assert.equal(whoami.seen_before.known, false);
  });

  test("pages are served as stored: the counters' place stays empty and the ETag is the file's (the ledger's file_etag)", async () => {
    const ledger = JSON.parse(await readFile(join(served.root, 'dist', 'documents.json'), 'utf8')) as {
      documents: { path: string; etag: string | null; file_etag: string | null }[];
    };
    const entry = ledger.documents.find((d) => d.path === '/crawler/gptbot.html')!;
    assert.equal(entry.etag, null);
    const page = await raw(served.server.url, '/crawler/gptbot.html');
    assert.ok(page.text.includes(`<p class="live">${LIVE_MARKER}</p>`));
    assert.equal(page.headers['etag'], `"${entry.file_etag}"`);
  });
});

describe('clients that go away', () => {
  const lines: string[] = [];
  let project: Awaited<ReturnType<typeof tempProject>>;
  let server: RunningServer;
  before(async () => {
    project = await tempProject('mini');
    // A list accepted an hour ago is evidence (docs/API.md §6.4): a GPTBot from 127.0.0.1 is then
    // not-genuine only if the booking still had the address.
    await setMirrorTimes(project.root, { '*': { accepted: hoursAgo(1) } });
    await build({ root: project.root, now: '2026-01-01T00:00:00Z' });
    server = await serveTree(project.root, {
      exportKey: KEY,
      requestLog: { file: join(project.root, 'state', 'requests.db') },
      log: (line) => lines.push(line),
    });
  });
  after(async () => {
    await server.close();
    await project.dispose();
  });

  /** Sends `bytes` on a new connection and closes it at once, as a client that gives up does; `reset` sends an RST instead of a FIN. */
  const abandon = (bytes: string, reset: boolean) =>
    new Promise<void>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      const socket = connect(Number(port), hostname, () => {
        socket.write(bytes, () => {
          if (reset) socket.resetAndDestroy();
          else socket.destroy();
        });
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });

  test('every request of a client that left is recorded once: what went out, or 499 when nothing could; its address still books it; no stack in the log', async () => {
    const N = 10;
    // A GPTBot User-Agent from 127.0.0.1: the booking needs the address, which a closed socket no longer has.
    const agent = (kind: string, i: number) => `Mozilla/5.0 (compatible; GPTBot/1.3; abort-${kind}-${i})`;
    const kinds: Record<string, (ua: string) => string> = {
      // Answered from memory as soon as the head is read.
      document: (ua) => `GET /data/agents.json HTTP/1.1\r\nHost: x\r\nUser-Agent: ${ua}\r\n\r\n`,
      // Answered by the handler, a turn or more later.
      tool: (ua) => `GET /tools/classify-ua?ua=GPTBot HTTP/1.1\r\nHost: x\r\nUser-Agent: ${ua}\r\n\r\n`,
      // The body never arrives whole: nothing can be answered.
      'cut-body': (ua) =>
        `POST /tools/robots-lint HTTP/1.1\r\nHost: x\r\nUser-Agent: ${ua}\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n`,
    };
    for (const [kind, request] of Object.entries(kinds)) {
      for (let i = 0; i < N; i++) await abandon(request(agent(kind, i)), i % 2 === 1);
    }
    const expected = Object.keys(kinds).length * N;
    type Row = { status: number; bytes: number; crawler: string | null; verdict: string | null; user_agent: string | null };
    let rows: Row[] = [];
    for (let tries = 0; tries < 200 && rows.length < expected; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const page = JSON.parse((await raw(server.url, '/hits.json?limit=1000', { headers: { authorization: `Bearer ${KEY}` } })).text) as { hits?: Row[] };
      rows = (page.hits ?? []).filter((row) => row.user_agent?.includes('abort-'));
    }
    const of = (kind: string) => rows.filter((row) => row.user_agent?.includes(`abort-${kind}-`));
    for (const kind of Object.keys(kinds)) assert.equal(of(kind).length, N, `${kind}: ${of(kind).length} rows for ${N} requests`);
    assert.equal(new Set(rows.map((row) => row.user_agent)).size, expected, 'each request once');
    for (const row of rows) {
      assert.equal(row.crawler, 'gptbot');
      assert.equal(row.verdict, 'not-genuine', `${row.user_agent} booked without its address`);
      // What went out (the whole answer was handed to the socket), or 499 with no bytes.
      assert.ok(row.status === 499 ? row.bytes === 0 : row.status === 200 && row.bytes > 0, `${row.user_agent}: ${row.status}, ${row.bytes} bytes`);
    }
    assert.ok(
      of('cut-body').every((row) => row.status === 499),
      'a request whose body never arrived is 499',
    );
    const stacks = lines.filter((line) => /\n\s+at |TypeError/.test(line));
    assert.deepEqual(stacks, [], 'no stack in the server log');
  });
});

describe('a log at its size cap', () => {
  const MAX_BYTES = 128 * 1024;
  let served: Awaited<ReturnType<typeof serveCopy>>;
  before(async () => {
    served = await serveCopy({ exportKey: KEY, requestLog: { name: 'size-cap', maxBytes: MAX_BYTES } });
  });
  after(() => served.dispose());
  type Page = {
    log: { written: number; evicted: number; max_bytes: number };
    hits: { id: number; route: string; bytes: number }[];
    next_cursor: number | null;
  };
  const page = async (cursor: number, limit: number) =>
    JSON.parse((await raw(served.server.url, `/hits.json?cursor=${cursor}&limit=${limit}`, { headers: { authorization: `Bearer ${KEY}` } })).text) as Page;
  const allRows = async () => {
    const rows: Page['hits'] = [];
    for (let cursor = 0; ; ) {
      const next = await page(cursor, 1000);
      rows.push(...next.hits);
      if (next.next_cursor === null) return rows;
      cursor = next.next_cursor;
    }
  };

  test('the oldest rows leave first, and /stats.json counts exactly the rows that stay', async () => {
    const ROUTE = '/data/agents.json';
    // Until the cap has been reached and rows removed (several hundred requests of about 250
    // bytes). Removal runs the same statements whatever the cap; a larger one only takes more
    // requests to reach.
    let health = (await page(0, 1)).log;
    assert.equal(health.max_bytes, MAX_BYTES);
    for (let burst = 0; burst < 200 && health.evicted === 0; burst++) {
      await Promise.all(Array.from({ length: 50 }, () => raw(served.server.url, ROUTE)));
      await new Promise((resolve) => setTimeout(resolve, 300));
      health = (await page(0, 1)).log;
    }
    assert.ok(health.evicted > 0, 'the cap was never reached');
    // A removal takes the rows down to 90 % of the cap: the few rows these reads add cannot start another.
    const before = await allRows();
    const stats = JSON.parse((await raw(served.server.url, '/stats.json')).text) as { totals: { requests: number }; by_route: Record<string, number> };
    const rows = await allRows();
    assert.equal(rows[0]!.id, before[0]!.id, 'no removal between the readings');
    assert.ok(rows[0]!.id > 1, 'the oldest rows are gone');
    assert.deepEqual(
      rows.map((row) => row.id),
      Array.from({ length: rows.length }, (_, i) => rows[0]!.id + i),
      'the newest rows stay, without a gap',
    );
    const kept = rows.filter((row) => row.route === ROUTE).length;
    assert.equal(stats.by_route[ROUTE], kept, `/stats.json counts ${stats.by_route[ROUTE]} requests to ${ROUTE}, the log holds ${kept}`);
  });
});
