import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import type { Ledger } from '../../pipeline/ledger/ledger.ts';
import { findRoute, isDynamic } from '../../pipeline/routes.ts';
import { TOOLS } from '../../pipeline/tools/registry/index.ts';
import { JSON_RPC_HEADERS, raw } from '../support/http.ts';
import { REPO, readTree } from '../support/project.ts';

// One HTTP conformance suite, run against every runtime the handler is deployed on (the Node
// server, the Cloudflare Worker in workerd), each serving the committed dist/ with no request
// log: what a client relies on must not depend on where the service runs. Each runtime's test
// file calls httpConformance with a way to start it; the cases know nothing of the runtime.

export interface RunningService {
  url: string;
  close(): Promise<void>;
}

const DIST = join(REPO, 'dist');
const dist = await readTree(DIST);
const ledger = JSON.parse(dist.get('/documents.json')!.toString('utf8')) as Ledger;
const entry = (path: string) => ledger.documents.find((d) => d.path === path)!;
const GPTBOT_UA = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

/** The base URL the committed tree was built for, which its stored documents name. */
const BUILT_FOR = (parse(readFileSync(join(REPO, 'records', 'site.yaml'), 'utf8')) as { base_url: string }).base_url;

/**
 * The bytes a path is answered with: the stored ones, or for a path the server answers itself
 * though dist/ stores it for static hosts (the change feed's first page, the agent card), the
 * same document naming the origin the client used (docs/API.md §1.3).
 */
function servedBytes(path: string, origin: string): Buffer {
  const stored = dist.get(path)!;
  const route = findRoute(path);
  return route !== undefined && isDynamic(route) ? Buffer.from(stored.toString('utf8').replaceAll(BUILT_FOR, origin)) : stored;
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const errorOf = (text: string) => (json(text) as { error: { code: string; field?: string } }).error;

export interface RuntimeTraits {
  /** Stored files the platform keeps from the handler (its own configuration); they answer 404. */
  withheld?: readonly string[];
}

export function httpConformance(runtime: string, start: () => Promise<RunningService>, traits: RuntimeTraits = {}): void {
  describe(`HTTP conformance: ${runtime}`, () => {
    let service: RunningService;
    before(async () => {
      service = await start();
    });
    after(() => service?.close());
    const get = (path: string, headers: Record<string, string> = {}) => raw(service.url, path, { headers });

    test('a document: its bytes, type, strong ETag and Last-Modified from the ledger, open CORS, nosniff, caching', async () => {
      const response = await get('/data/agents.json');
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json');
      assert.equal(response.headers.etag, `"${entry('/data/agents.json').etag}"`);
      assert.equal(response.headers['last-modified'], new Date(entry('/data/agents.json').last_modified).toUTCString());
      assert.equal(response.headers['access-control-allow-origin'], '*');
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.match(response.headers['cache-control'] ?? '', /max-age=\d+/);
      assert.match(response.headers.link ?? '', /rel="api-catalog"/);
      assert.deepEqual(response.body, dist.get('/data/agents.json'));
    });

    test('every document of the ledger is answered with its stored bytes and type, also under /.well-known and with no extension', async () => {
      const withheld = new Set(traits.withheld ?? []);
      const paths = [...dist.keys()];
      const wrong: string[] = [];
      for (let start = 0; start < paths.length; start += 16)
        await Promise.all(
          paths.slice(start, start + 16).map(async (path) => {
            const response = await get(path);
            const expected = withheld.has(path) ? 404 : 200;
            if (response.status !== expected) wrong.push(`${path}: ${response.status}, expected ${expected}`);
            else if (expected === 200 && !response.body.equals(servedBytes(path, service.url))) wrong.push(`${path}: other bytes`);
            else if (expected === 200 && response.headers['content-type'] !== (entry(path)?.type ?? response.headers['content-type']))
              wrong.push(`${path}: ${response.headers['content-type']}`);
          }),
        );
      assert.deepEqual(wrong, []);
      assert.ok(paths.length > 1000, `${paths.length} documents`);
    });

    test('conditional requests: If-None-Match and If-Modified-Since answer 304 with no body; HEAD has the headers and no body', async () => {
      const first = await get('/crawler/gptbot.json');
      const byTag = await get('/crawler/gptbot.json', { 'if-none-match': first.headers.etag! });
      assert.equal(byTag.status, 304);
      assert.equal(byTag.body.length, 0);
      assert.equal(byTag.headers.etag, first.headers.etag);
      const byDate = await get('/crawler/gptbot.json', { 'if-modified-since': first.headers['last-modified']! });
      assert.equal(byDate.status, 304);
      const stale = await get('/crawler/gptbot.json', { 'if-none-match': '"0000"' });
      assert.equal(stale.status, 200);
      const head = await raw(service.url, '/crawler/gptbot.json', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.etag, first.headers.etag);
      assert.equal(head.body.length, 0);
    });

    test('pages are served as stored, with the HTML security headers', async () => {
      const page = await get('/crawler/gptbot.html');
      assert.equal(page.status, 200);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(page.headers['content-security-policy'] ?? '', /default-src 'none'/);
      assert.deepEqual(page.body, dist.get('/crawler/gptbot.html'));
      const home = await get('/');
      assert.deepEqual(home.body, dist.get('/index.html'));
    });

    test('the reference: its other names say where it lives, and a client that prefers JSON gets the JSON form', async () => {
      const html = await get('/reference');
      assert.equal(html.status, 200);
      assert.deepEqual(html.body, dist.get('/reference.html'));
      const alias = await get('/docs');
      assert.equal(alias.status, 200);
      assert.match(alias.headers.link ?? '', /\/reference>; rel="canonical"/);
      const asJson = await get('/reference', { accept: 'application/json' });
      assert.equal(asJson.headers['content-type'], 'application/json');
      assert.deepEqual(asJson.body, dist.get('/reference.json'));
      assert.match(asJson.headers.vary ?? '', /Accept/);
    });

    test('every path is also under /api/v1, and /api/v1 is the API root', async () => {
      const prefixed = await get('/api/v1/data/agents.json');
      assert.equal(prefixed.status, 200);
      assert.deepEqual(prefixed.body, dist.get('/data/agents.json'));
      assert.match(prefixed.headers.link ?? '', /\/data\/agents\.json>; rel="canonical"/);
      const root = await get('/api/v1');
      assert.equal(root.status, 200);
      assert.equal(json(root.text).version, 'v1');
    });

    test('an unknown path or slug is a JSON 404 that names what is valid', async () => {
      const none = await get('/no-such-document');
      assert.equal(none.status, 404);
      assert.equal(errorOf(none.text).code, 'not_found');
      const slug = await get('/crawler/no-such-crawler.json');
      assert.equal(slug.status, 404);
      assert.equal(errorOf(slug.text).field, 'slug');
    });

    test('the change feed pages by cursor and refuses a time without a zone', async () => {
      const page = await get('/changes.json?since=0&limit=1');
      assert.equal(page.status, 200);
      const body = json(page.text) as { changes: unknown[]; cursor: number; has_more: boolean };
      assert.equal(body.changes.length, 1);
      assert.equal(body.has_more, true);
      assert.equal(page.headers['x-cursor'], String(body.cursor));
      const bad = await get('/changes.json?since=2026-11-22T19:25:00');
      assert.equal(bad.status, 400);
      assert.equal(errorOf(bad.text).field, 'since');
    });

    test('tools answer over GET and POST, and refuse bad input with the field', async () => {
      const classified = await get(`/tools/classify-ua?ua=${encodeURIComponent(GPTBOT_UA)}`);
      assert.equal(classified.status, 200);
      assert.equal((json(classified.text) as { crawler: { slug: string } }).crawler.slug, 'gptbot');
      const lint = await raw(service.url, '/tools/robots-lint', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: GPTBot\nDisallow: /\n',
      });
      assert.equal(lint.status, 200);
      assert.ok('counts' in json(lint.text));
      const refused = await get('/tools/verification-methods?crawler=');
      assert.equal(refused.status, 400);
      assert.equal(errorOf(refused.text).field, 'crawler');
    });

    test('MCP lists every tool and calls one; A2A answers a message', async () => {
      const rpc = (path: string, body: unknown) => raw(service.url, path, { method: 'POST', headers: JSON_RPC_HEADERS, body: JSON.stringify(body) });
      const listed = await rpc('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      assert.equal(listed.status, 200);
      const tools = (json(listed.text) as { result: { tools: { name: string }[] } }).result.tools;
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
      const called = await rpc('/mcp', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'classify_user_agent', arguments: { ua: GPTBOT_UA } } });
      const result = (json(called.text) as { result: { isError?: boolean; structuredContent: { crawler: { slug: string } } } }).result;
      assert.notEqual(result.isError, true);
      assert.equal(result.structuredContent.crawler.slug, 'gptbot');
      const a2a = await rpc('/a2a', {
        jsonrpc: '2.0',
        id: 3,
        method: 'message/send',
        params: { message: { role: 'user', messageId: 'm1', kind: 'message', parts: [{ kind: 'text', text: `Which crawler is ${GPTBOT_UA}?` }] } },
      });
      assert.equal(a2a.status, 200);
      assert.ok('result' in json(a2a.text), a2a.text.slice(0, 300));
    });

    test('methods: OPTIONS lists what a path allows, another method is a 405 with Allow', async () => {
      const options = await raw(service.url, '/data/agents.json', { method: 'OPTIONS' });
      assert.equal(options.status, 204);
      assert.equal(options.headers.allow, 'GET, HEAD, OPTIONS');
      const deleted = await raw(service.url, '/data/agents.json', { method: 'DELETE' });
      assert.equal(deleted.status, 405);
      assert.equal(deleted.headers.allow, 'GET, HEAD, OPTIONS');
    });

    test('with no request log, /stats.json says the log is off and /hits.json opens to no key', async () => {
      const stats = await get('/stats.json');
      assert.equal(stats.status, 200);
      assert.equal((json(stats.text) as { log: { state: string } }).log.state, 'off');
      const hits = await get('/hits.json?key=guess');
      assert.equal(hits.status, 401);
    });
  });
}
