import { strict as assert } from 'node:assert';
import { findRoute, isDynamic } from '../pipeline/routes.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { build } from '../pipeline/publish/build.ts';
import { createApp, type App } from '../pipeline/http/handler.ts';
import type { DocumentStore } from '../pipeline/http/store.ts';
import { snapshotStore, type SnapshotStore } from '../pipeline/node/dist-snapshot.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { readSite } from '../pipeline/node/site-settings.ts';
import { serveTree } from './support/served.ts';
import { raw } from './support/http.ts';
import { builtMini } from './support/built-mini.ts';

// The Node adapter answers stored documents without building a Request. The
// Web-standard fetch() stays the one definition of behaviour, so both must give the same
// status, headers and bytes for every document and every conditional/encoding combination.

let project: Awaited<ReturnType<typeof builtMini>>;
let store: SnapshotStore;
let app: App;

before(async () => {
  project = await builtMini();
  store = await snapshotStore(join(project.root, 'dist'), { checkEveryMs: 60_000 });
  await store.encoded();
  app = createApp({ store, site: await readSite(project.root) });
});
after(() => project.dispose());

const ORIGIN = 'http://127.0.0.1:1';

async function viaFetch(path: string, headers: Record<string, string>, method = 'GET') {
  const response = await app.fetch(new Request(ORIGIN + path, { method, headers }));
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
}

function viaDirect(path: string, headers: Record<string, string>, method = 'GET') {
  const answer = app.answerDocument(path, {
    method,
    ifNoneMatch: headers['if-none-match'] ?? null,
    ifModifiedSince: headers['if-modified-since'] ?? null,
    acceptEncoding: headers['accept-encoding'] ?? null,
    accept: headers['accept'] ?? null,
    origin: { host: null, forwarded: null, forwardedProto: null, forwardedHost: null },
    fallbackOrigin: ORIGIN,
  });
  assert.ok(answer, `${path} is answered directly`);
  return { status: answer.status, headers: { ...answer.headers }, body: Buffer.from(answer.body ?? new Uint8Array()) };
}

/** A plain GET with no validators, codings or origin headers. */
const none = {
  method: 'GET',
  ifNoneMatch: null,
  ifModifiedSince: null,
  acceptEncoding: null,
  accept: null,
  origin: { host: null, forwarded: null, forwardedProto: null, forwardedHost: null },
  fallbackOrigin: 'http://localhost',
};

describe('the direct document answer equals fetch()', () => {
  test('for every document, method, validator and coding', async () => {
    const ledger = JSON.parse(await readFile(join(project.root, 'dist', 'documents.json'), 'utf8')) as { documents: { path: string; etag: string }[] };
    // The paths the server answers by code though dist/ stores them for static hosts are left out.
    const byCode = (path: string) => {
      const route = findRoute(path);
      return route !== undefined && isDynamic(route);
    };
    const paths = ['/', '/tools/', '/api/v1/data/agents.json', ...ledger.documents.map((d) => d.path).filter((p) => !byCode(p))];
    assert.ok(byCode('/changes.json') && byCode('/.well-known/agent-card.json'), 'the stored documents the server answers itself are left out');
    let compared = 0;
    for (const path of paths) {
      const identity = (await viaFetch(path, {})).headers['etag']!;
      const variants: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'br, gzip' },
        { 'accept-encoding': 'gzip' },
        { 'accept-encoding': 'br;q=0, gzip;q=0' },
        { 'if-none-match': identity },
        { 'if-none-match': identity, 'accept-encoding': 'br' },
        { 'if-none-match': '"other"' },
        { 'if-modified-since': 'Fri, 01 Jan 2027 00:00:00 GMT' },
        { 'if-modified-since': 'nonsense' },
        { accept: 'application/json' },
        { accept: 'text/html, application/json;q=0.9', 'accept-encoding': 'gzip' },
      ];
      for (const headers of variants) {
        for (const method of ['GET', 'HEAD']) {
          assert.deepEqual(viaDirect(path, headers, method), await viaFetch(path, headers, method), `${method} ${path} ${JSON.stringify(headers)}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 500, `${compared} answers compared`);
  });

  test('for paths with no document: the same 404, JSON for programs and the not-found page for browsers', async () => {
    const misses = ['/nope', '/crawler/no-such-bot.json', '/crawler/no-such-bot.html', '/api/v1/nope.json', '/data/nope.json', '/tools/nope'];
    const variants: Record<string, string>[] = [
      {},
      { accept: 'text/html' },
      { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-encoding': 'gzip, br' },
      { accept: 'application/json' },
      { 'if-none-match': '"x"' },
    ];
    for (const path of misses) {
      for (const headers of variants) {
        for (const method of ['GET', 'HEAD']) {
          const direct = viaDirect(path, headers, method);
          assert.equal(direct.status, 404, `${method} ${path}`);
          assert.deepEqual(direct, await viaFetch(path, headers, method), `${method} ${path} ${JSON.stringify(headers)}`);
        }
      }
    }
    // A repeated miss is remembered, but per origin: each client is sent to its own address.
    const askedAt = (host: string) =>
      app.answerDocument('/nope', { ...none, origin: { host, forwarded: null, forwardedProto: null, forwardedHost: null } })?.headers['link'] ?? '';
    assert.match(askedAt('one.example:8080'), /<http:\/\/one\.example:8080\/changes\.json/);
    assert.match(askedAt('two.example:8080'), /<http:\/\/two\.example:8080\/changes\.json/);
    assert.match(askedAt('one.example:8080'), /<http:\/\/one\.example:8080\/changes\.json/);
    // So is a document's answer, asked by two names in turn.
    const documentAt = (host: string) =>
      app.answerDocument('/crawler/gptbot.json', { ...none, origin: { host, forwarded: null, forwardedProto: null, forwardedHost: null } })?.headers['link'] ??
      '';
    for (const host of ['one.example:8080', 'one.example:8080', 'two.example:8080', 'one.example:8080']) {
      assert.match(documentAt(host), new RegExp(`<http://${host.replace('.', '\\.')}/changes\\.json`), host);
    }
    const json = JSON.parse(viaDirect('/crawler/no-such-bot.json', {}).body.toString('utf8'));
    assert.equal(json.error.field, 'slug');
    assert.match(viaDirect('/nope', { accept: 'text/html' }).headers['content-type']!, /^text\/html/);
  });

  test('paths the direct answer leaves to fetch(): dynamic, encoded, refused, unresolvable', () => {
    for (const path of [
      '/changes.json',
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
      '/api/v1',
      '/tools/classify-ua?ua=x',
      '/crawler/gpt%62ot.json',
      '//',
      '/a/../data/agents.json',
    ]) {
      // Asked twice: how a path is read is remembered, and so must be that fetch() answers it.
      assert.equal(app.answerDocument(path, none), null, path);
      assert.equal(app.answerDocument(path, none), null, `${path}, asked again`);
    }
    assert.equal(app.answerDocument('/data/agents.json', { ...none, method: 'POST' }), null);
  });
});

describe('what the direct answer keeps', () => {
  test('20,000 distinct unknown paths of 4 KB leave nothing behind (a hostile client chooses every path)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Each path is a flat string of its own, as one read from a socket is.
    const path = (n: number) => {
      const bytes = Buffer.alloc(4_096, 'a');
      bytes.write(`/flood/${n}/`, 0, 'latin1');
      return bytes.toString('latin1');
    };
    for (let n = 0; n < 1_000; n++) app.answerDocument(path(n), none);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 1_000; n < 21_000; n++) assert.equal(app.answerDocument(path(n), none)?.status, 404);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    // Keeping the paths would hold 80 MB; a few MB of noise is allowed.
    assert.ok(grown < 16 * 1024 * 1024, `the heap grew by ${Math.round(grown / 1024 / 1024)} MB`);
  });
});

describe('content-coding', () => {
  let server: RunningServer;
  before(async () => {
    server = await serveTree(project.root, { compress: true });
    // The cases below need /data/agents.json encoded, not the whole tree: brotli at its best
    // quality over every document is seconds of CPU, and the store above has just spent them.
    // Documents are encoded in the ledger's order, both codings of one at once, and the rest
    // is stopped when the server closes. Should it never be encoded, the cases say so.
    let encodedAll = false;
    void server.encoded().then(() => {
      encodedAll = true;
    });
    const agentsInBrotli = async () =>
      (await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'] === 'br';
    while (!encodedAll && !(await agentsInBrotli())) await new Promise((resolve) => setTimeout(resolve, 20));
  });
  after(() => server.close());

  test('br and gzip decode to the identity bytes; each coding has its own strong ETag; Vary is sent', async () => {
    const plain = await raw(server.url, '/data/agents.json');
    const br = await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const gz = await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(brotliDecompressSync(br.body).equals(plain.body));
    assert.ok(gunzipSync(gz.body).equals(plain.body));
    assert.ok(br.body.length < plain.body.length / 5, `brotli: ${br.body.length} of ${plain.body.length} bytes`);
    assert.equal(br.headers['etag'], plain.headers['etag']!.replace(/"$/, '-br"'));
    assert.equal(gz.headers['etag'], plain.headers['etag']!.replace(/"$/, '-gzip"'));
    for (const response of [plain, br, gz]) assert.equal(response.headers['vary'], 'Accept-Encoding');
    assert.equal(br.headers['content-length'], String(br.body.length));
  });

  test('a q=0 coding is never sent; identity when nothing else is acceptable', async () => {
    assert.equal((await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'br;q=0, gzip' } })).headers['content-encoding'], 'gzip');
    assert.equal((await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } })).headers['content-encoding'], undefined);
    assert.equal((await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': '*;q=0.5' } })).headers['content-encoding'], 'br');
    assert.equal((await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'identity' } })).headers['content-encoding'], undefined);
  });

  test("304 confirms whichever coding the client holds, with that coding's tag", async () => {
    const br = await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'br' } });
    const plain = await raw(server.url, '/data/agents.json');
    const sameCoding = await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'br', 'if-none-match': br.headers['etag']! } });
    assert.equal(sameCoding.status, 304);
    assert.equal(sameCoding.headers['etag'], br.headers['etag']);
    const heldIdentity = await raw(server.url, '/data/agents.json', { headers: { 'accept-encoding': 'br', 'if-none-match': plain.headers['etag']! } });
    assert.equal(heldIdentity.status, 304);
    assert.equal(heldIdentity.headers['etag'], plain.headers['etag']);
    // RFC 9110 15.4.5: what a cache updates, not the stored body's type, length, coding or date;
    // and the Link header every answer carries (docs/API.md §5.5).
    assert.equal(heldIdentity.headers['vary'], 'Accept-Encoding');
    assert.equal(heldIdentity.headers['cache-control'], plain.headers['cache-control']);
    assert.equal(heldIdentity.headers['link'], plain.headers['link']);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'last-modified']) assert.equal(heldIdentity.headers[name], undefined, name);
  });

  test('small documents and tool answers stay identity', async () => {
    const small = await raw(server.url, '/robots/allow-all.txt', { headers: { 'accept-encoding': 'br' } });
    assert.ok(small.body.length < 1024);
    assert.equal(small.headers['content-encoding'], undefined);
    const tool = await raw(server.url, '/tools/robots-lint?robots_txt=' + encodeURIComponent('User-agent: *\nDisallow: /private\n'.repeat(200)), {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    assert.equal(tool.status, 200);
    assert.ok(tool.body.length > 1024, 'large enough that a document of this size would be compressed');
    assert.equal(tool.headers['content-encoding'], undefined);
    assert.doesNotThrow(() => JSON.parse(tool.text));
  });
});

describe('failures and reloads', () => {
  test('a throwing store gives a JSON 500, reported once, and the next request is answered', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const flaky: DocumentStore = {
      get: async (path) => {
        if (fail && path === '/data/agents.json') throw new Error('disk on fire');
        return store.get(path);
      },
      generatedAt: () => store.generatedAt(),
    };
    const fragile = createApp({ store: flaky, site: await readSite(project.root), onError: (error) => errors.push(error) });
    const response = await fragile.fetch(new Request(`${ORIGIN}/data/agents.json`));
    assert.equal(response.status, 500);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await response.text(), /"code": "internal_error"/);
    assert.equal(errors.length, 1);
    fail = false;
    assert.equal((await fragile.fetch(new Request(`${ORIGIN}/data/agents.json`))).status, 200);
  });

  test('while a new build loads, requests are answered at once from the old one; then it is swapped in whole', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let loads = 0;
    const gated = await snapshotStore(join(project.root, 'dist'), {
      checkEveryMs: 0,
      compress: false,
      prepare: async () => {
        if (loads++ > 0) await gate;
      },
    });
    const before = await gated.get('/crawler/gptbot.json');
    const file = join(project.root, 'records', 'crawlers', 'gptbot.yaml');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: GPTBot', 'name: GPTBot (renamed)'));
    await build({ root: project.root, now: '2026-03-01T00:00:00Z' });
    const reloading = gated.refresh();
    // The reload is held at the gate: a request neither waits for it nor sees half of it.
    const during = await Promise.race([gated.get('/crawler/gptbot.json'), new Promise((resolve) => setTimeout(() => resolve('waited'), 1_000))]);
    assert.equal(during, before);
    assert.equal(gated.peek('/crawler/gptbot.json'), before);
    release();
    await reloading;
    const after = await gated.get('/crawler/gptbot.json');
    assert.match(new TextDecoder().decode(after!.bytes), /GPTBot \(renamed\)/);
  });
});
