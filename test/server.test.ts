import { strict as assert } from 'node:assert';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { build } from '../pipeline/publish/build.ts';
import type { Ledger } from '../pipeline/ledger/ledger.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { serveTree } from './support/served.ts';
import { raw } from './support/http.ts';
import { builtMini, MINI_BUILT_AT as T0 } from './support/built-mini.ts';

const validateError = validatorFor('outputs/error.schema.json');
let project: Awaited<ReturnType<typeof builtMini>>;
let server: RunningServer;
let ledger: Ledger;
const entry = (path: string) => {
  const found = ledger.documents.find((d) => d.path === path);
  assert.ok(found, `${path} in ledger`);
  return found;
};

before(async () => {
  // The mini fixture as built at MINI_BUILT_AT, copied from npm test's one build of it.
  project = await builtMini();
  ledger = JSON.parse(await readFile(join(project.root, 'dist', 'documents.json'), 'utf8')) as Ledger;
  server = await serveTree(project.root);
});
after(async () => {
  await server.close();
  await project.dispose();
});

function assertJsonError(response: { status: number; headers: Record<string, string>; text: string }, status: number, code: string) {
  assert.equal(response.status, status);
  assert.equal(response.headers['content-type'], 'application/json');
  const body = JSON.parse(response.text) as { error: { code: string; status: number; message: string } };
  assert.ok(validateError(body), JSON.stringify(validateError.errors));
  assert.equal(body.error.code, code);
  assert.equal(body.error.status, status);
  return body.error;
}

describe('documents', () => {
  test("200 with the ledger's strong ETag, Last-Modified, content type, length, CORS and Link", async () => {
    const response = await raw(server.url, '/crawler/gptbot.json');
    assert.equal(response.status, 200);
    assert.equal(response.headers['etag'], `"${entry('/crawler/gptbot.json').etag}"`);
    assert.equal(response.headers['last-modified'], new Date(T0).toUTCString());
    assert.equal(response.headers['content-type'], 'application/json');
    assert.equal(response.headers['content-length'], String(response.body.length));
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.equal(response.text, await readFile(join(project.root, 'dist', 'crawler', 'gptbot.json'), 'utf8'));
    const link = response.headers['link'] ?? '';
    // Named on the origin the client used (docs/API.md §1.3), which is this server.
    assert.ok(link.startsWith(`<${server.url}/changes.json?since=`), link);
    assert.ok(link.includes(`<${server.url}/crawler/gptbot.html>; rel="alternate"; type="text/html; charset=utf-8"`), link);
    assert.ok(link.includes(`<${server.url}/openapi.json>; rel="service-desc"`), link);
  });

  test('content types follow the file kind', async () => {
    const expected: Record<string, string> = {
      '/data/agents.json': 'application/json',
      '/data/agents.csv': 'text/csv; charset=utf-8',
      '/robots/block-all-ai.txt': 'text/plain; charset=utf-8',
      '/documents.txt': 'text/plain; charset=utf-8',
      '/crawler/gptbot.html': 'text/html; charset=utf-8',
      '/crawler/gptbot.md': 'text/markdown; charset=utf-8',
      '/': 'text/html; charset=utf-8',
    };
    for (const [path, type] of Object.entries(expected)) assert.equal((await raw(server.url, path)).headers['content-type'], type, path);
  });

  test('the ledger files carry validators too', async () => {
    const response = await raw(server.url, '/documents.json');
    assert.equal(response.status, 200);
    assert.match(response.headers['etag'] ?? '', /^"[0-9a-f]{32}"$/);
    const again = await raw(server.url, '/documents.json', { headers: { 'if-none-match': response.headers['etag']! } });
    assert.equal(again.status, 304);
  });
});

describe('conditional requests (RFC 9110 section 13)', () => {
  const path = '/data/agents.json';
  const tag = () => `"${entry(path).etag}"`;

  test('If-None-Match with the current ETag → 304, ETag and Link kept, no body', async () => {
    const response = await raw(server.url, path, { headers: { 'if-none-match': tag() } });
    assert.equal(response.status, 304);
    assert.equal(response.headers['etag'], tag());
    assert.equal(response.body.length, 0);
    // Every answer names the change feed and the API description, a 304 too (docs/API.md §5.5).
    const full = await raw(server.url, path);
    assert.match(full.headers['link'] ?? '', /rel="related"/);
    assert.equal(response.headers['link'], full.headers['link']);
    assert.equal(response.headers['access-control-expose-headers'], full.headers['access-control-expose-headers']);
    assert.equal(response.headers['content-type'], undefined, 'the stored type is not repeated');
  });
  test('If-None-Match: a list containing it, a weak form of it, or * → 304', async () => {
    for (const header of [`"nope", ${tag()}`, `W/${tag()}`, '*', `"a" , W/"b",${tag()}`]) {
      assert.equal((await raw(server.url, path, { headers: { 'if-none-match': header } })).status, 304, header);
    }
  });
  test('If-None-Match with other tags → 200 with the body', async () => {
    const response = await raw(server.url, path, { headers: { 'if-none-match': '"0000", W/"1111"' } });
    assert.equal(response.status, 200);
    assert.ok(response.body.length > 0);
  });
  test('If-Modified-Since at or after Last-Modified → 304; before → 200; invalid date → 200', async () => {
    assert.equal((await raw(server.url, path, { headers: { 'if-modified-since': new Date(T0).toUTCString() } })).status, 304);
    assert.equal((await raw(server.url, path, { headers: { 'if-modified-since': 'Sat, 01 Jan 2028 00:00:00 GMT' } })).status, 304);
    assert.equal((await raw(server.url, path, { headers: { 'if-modified-since': 'Wed, 31 Dec 2025 23:59:59 GMT' } })).status, 200);
    assert.equal((await raw(server.url, path, { headers: { 'if-modified-since': 'yesterday' } })).status, 200);
  });
  test('If-None-Match takes precedence over If-Modified-Since (13.2.2)', async () => {
    const response = await raw(server.url, path, { headers: { 'if-none-match': '"other"', 'if-modified-since': 'Sat, 01 Jan 2028 00:00:00 GMT' } });
    assert.equal(response.status, 200);
  });
});

describe('methods', () => {
  test('HEAD answers the GET headers with no body', async () => {
    const get = await raw(server.url, '/data/agents.csv');
    const head = await raw(server.url, '/data/agents.csv', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of ['etag', 'last-modified', 'content-type', 'content-length', 'link']) assert.equal(head.headers[name], get.headers[name], name);
  });
  test('OPTIONS answers 204 with Allow and CORS preflight headers', async () => {
    const response = await raw(server.url, '/data/agents.json', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers['allow'], 'GET, HEAD, OPTIONS');
    assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    assert.equal(response.headers['access-control-allow-origin'], '*');
    assert.match(response.headers['access-control-allow-headers'] ?? '', /If-None-Match/);
  });
  test('any other method → 405 with Allow and a JSON error', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await raw(server.url, '/crawler/gptbot.json', { method, body: 'x' });
      const error = assertJsonError(response, 405, 'method_not_allowed');
      assert.equal(response.headers['allow'], 'GET, HEAD, OPTIONS');
      assert.match(error.message, new RegExp(`${method} is not accepted`));
    }
  });
});

describe('/api/v1', () => {
  test('a prefixed path returns the same bytes, ETag and Last-Modified, plus a canonical Link', async () => {
    for (const path of ['/data/agents.json', '/crawler/gptbot.md', '/robots/block-all-ai.txt']) {
      const plain = await raw(server.url, path);
      const prefixed = await raw(server.url, `/api/v1${path}`);
      assert.equal(prefixed.status, 200);
      assert.ok(prefixed.body.equals(plain.body), path);
      assert.equal(prefixed.headers['etag'], plain.headers['etag']);
      assert.equal(prefixed.headers['last-modified'], plain.headers['last-modified']);
      assert.ok((prefixed.headers['link'] ?? '').startsWith(`<${server.url}${path}>; rel="canonical"`), prefixed.headers['link']);
    }
  });
  test('GET /api/v1 returns the root document', async () => {
    for (const path of ['/api/v1', '/api/v1/']) {
      const response = await raw(server.url, path);
      assert.equal(response.status, 200);
      const root = JSON.parse(response.text) as Record<string, unknown> & {
        endpoints: { path: string; url: string; unprefixed: string }[];
        templates: unknown[];
        access: Record<string, unknown>;
      };
      for (const field of [
        'api',
        'version',
        'status',
        'is_the_only_version',
        'base_url',
        'unprefixed_base_url',
        'same_api_as',
        'openapi_version',
        'summary',
        'access',
        'license',
        'describes',
        'endpoints',
        'templates',
        'endpoint_count',
        'versions',
        'generated_at',
      ])
        assert.ok(field in root, field);
      assert.equal(root['version'], 'v1');
      assert.equal(root['is_the_only_version'], true);
      assert.equal(root['generated_at'], T0);
      assert.equal(root['endpoint_count'], root.endpoints.length + root.templates.length);
      assert.equal(root.access['api_key'], false);
      for (const e of root.endpoints) assert.equal(e.url, `${server.url}/api/v1${e.path}`);
      assert.match(response.headers['etag'] ?? '', /^"[0-9a-f]{32}"$/);
      assert.equal((await raw(server.url, path, { headers: { 'if-none-match': response.headers['etag']! } })).status, 304);
    }
  });
  test('under the prefix, what is 404 unprefixed is 404 too', async () => {
    assertJsonError(await raw(server.url, '/api/v1/crawler/nope.json'), 404, 'not_found');
    assertJsonError(await raw(server.url, '/api/v1/api/v1/data/agents.json'), 404, 'not_found');
  });
});

describe('not found', () => {
  test('unknown crawler, operator, category or policy → 404 naming the parameter and where values are listed', async () => {
    for (const [path, field] of [
      ['/crawler/nope.json', 'slug'],
      ['/crawler/nope.html', 'slug'],
      ['/operator/nope.json', 'slug'],
      ['/category/nope.json', 'slug'],
      ['/policy/nope.json', 'policy'],
      ['/robots/nope.txt', 'policy'],
    ] as const) {
      const error = assertJsonError(await raw(server.url, path), 404, 'not_found') as { field?: string; message: string };
      assert.equal(error.field, field, path);
      assert.match(error.message, /\/data\/agents\.json/);
    }
  });
  test('a 404, and any answer made per request, goes out with its length, not chunked; HEAD gives the same length', async () => {
    for (const [path, headers] of [
      ['/crawler/nope.json', {}],
      ['/nope', { accept: 'text/html' }],
      ['/%2e%2e/package.json', {}],
      ['/tools/classify-ua?ua=GPTBot', {}],
    ] as const) {
      const get = await raw(server.url, path, { headers });
      assert.equal(get.headers['transfer-encoding'], undefined, path);
      assert.equal(get.headers['content-length'], String(get.body.length), path);
      const head = await raw(server.url, path, { method: 'HEAD', headers });
      assert.equal(head.body.length, 0, path);
      if (head.headers['content-length'] !== undefined) assert.equal(head.headers['content-length'], get.headers['content-length'], path);
    }
    const head = await raw(server.url, '/crawler/nope.json', { method: 'HEAD' });
    assert.ok(Number(head.headers['content-length']) > 0, 'a JSON 404 to HEAD names the length GET gets');
  });
  // A literal `/./` is resolved by URL parsing to a path inside the tree, as any client would, so it is not listed.
  test('path traversal never reaches a file outside dist/', async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/crawler/..%2f..%2fpackage.json',
      '/crawler/%2E%2E/%2E%2E/records/site.yaml',
      '/..\\package.json',
      '/%5c..%5cpackage.json',
      '/crawler/gptbot.json%00.html',
      '/data//agents.json',
      '/%E0%A4%A',
    ]) {
      const response = await raw(server.url, path);
      assertJsonError(response, 404, 'not_found');
      assert.doesNotMatch(response.text, /"dependencies"|base_url:/, path);
    }
  });
  test('every response carries CORS and the Link header, errors included', async () => {
    for (const [path, method] of [
      ['/nope', 'GET'],
      ['/%2e%2e/package.json', 'GET'],
      ['/data/agents.json', 'DELETE'],
      ['/data/agents.json', 'OPTIONS'],
    ] as const) {
      const response = await raw(server.url, path, { method });
      assert.equal(response.headers['access-control-allow-origin'], '*', path);
      assert.match(response.headers['link'] ?? '', /rel="related"/, `${method} ${path}`);
    }
  });
});

describe('rebuilds', () => {
  test('a rebuilt dist/ is served without a restart', async () => {
    const file = join(project.root, 'records', 'crawlers', 'gptbot.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: GPTBot', 'name: GPTBot (renamed)'));
    await build({ root: project.root, now: '2026-03-01T00:00:00Z' });
    await server.refresh();
    const response = await raw(server.url, '/crawler/gptbot.json');
    assert.match(response.text, /"name": "GPTBot \(renamed\)"/);
    assert.equal(response.headers['last-modified'], new Date('2026-03-01T00:00:00Z').toUTCString());
  });
  test('a tree whose bytes disagree with its ledger is never served; the previous build stays', async () => {
    const before = await raw(server.url, '/crawler/mj12bot.json');
    const ledgerFile = join(project.root, 'dist', 'documents.json');
    await writeFile(join(project.root, 'dist', 'crawler', 'mj12bot.json'), '{"half": ');
    await writeFile(ledgerFile, (await readFile(ledgerFile, 'utf8')) + ' ');
    await server.refresh();
    const during = await raw(server.url, '/crawler/mj12bot.json');
    assert.equal(during.status, 200);
    assert.ok(during.body.equals(before.body));
  });
});
