import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import type { RunningServer } from '../pipeline/node/server.ts';
import { isDynamic, routes } from '../pipeline/routes.ts';
import { MCP_SERVERS, TOOLS } from '../pipeline/tools/registry/index.ts';
import { serveTree } from './support/served.ts';
import { JSON_RPC_HEADERS, raw, type RawResponse } from './support/http.ts';
import { builtMini } from './support/built-mini.ts';

// A self-hosted server keeps its clients on itself (docs/API.md §1.3): every dynamic answer
// and every Link header names the origin the client used, never the one the tree was built
// for. The stored documents keep the build's base URL: their bytes are what the ledger names
// (a server given BASE_URL rewrites them instead: test/stored-base-url.test.ts).

const BUILT_FOR = 'https://index.example';

let project: Awaited<ReturnType<typeof builtMini>>;
let server: RunningServer;
let proxied: RunningServer;

before(async () => {
  // The mini fixture's records publish under BUILT_FOR, so npm test's one build of it is the tree.
  project = await builtMini();
  const site = await readFile(join(project.root, 'records', 'site.yaml'), 'utf8');
  assert.equal((parse(site) as { base_url: string }).base_url, BUILT_FOR, 'the mini fixture is built for BUILT_FOR');
  server = await serveTree(project.root);
  proxied = await serveTree(project.root, { origin: { fixed: null, trustProxy: true } });
});
after(async () => {
  await server.close();
  await proxied.close();
  await project.dispose();
});

interface Asked {
  what: string;
  path: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Whether the body is the server's own words (dynamic) or a stored document's bytes. */
  bodyIsDynamic: boolean;
}

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/** Every kind of answer the server gives: documents (their headers), tools, MCP, A2A, feeds, errors. */
function everyAnswer(): Asked[] {
  const asked: Asked[] = [];
  for (const route of routes()) {
    if (route.parameter !== undefined || route.methods.includes('POST') === false) {
      if (route.parameter === undefined && route.methods.includes('GET')) asked.push({ what: route.key, path: route.path, bodyIsDynamic: isDynamic(route) });
    }
  }
  asked.push(
    { what: 'a crawler page', path: '/crawler/gptbot.html', bodyIsDynamic: false },
    { what: 'the change feed, one page', path: '/changes.json?since=0&limit=1', bodyIsDynamic: true },
    { what: 'a 404', path: '/nope', bodyIsDynamic: true },
    { what: 'a 404 for a parameter', path: '/crawler/nope.json', bodyIsDynamic: true },
    { what: 'a 405', path: '/data/agents.json', method: 'DELETE', bodyIsDynamic: true },
    { what: 'hits without a key', path: '/hits.json', bodyIsDynamic: true },
  );
  for (const tool of TOOLS) {
    if (tool.path !== null) {
      asked.push({ what: `${tool.name} spec`, path: `/tools/${tool.path}?spec=1`, bodyIsDynamic: true });
      for (const example of tool.examples) {
        const query = new URLSearchParams(Object.entries(example.input).flatMap(([k, v]) => [v ?? []].flat().map((item) => [k, item] as [string, string])));
        asked.push({ what: `${tool.name}: ${example.description}`, path: `/tools/${tool.path}?${query}`, bodyIsDynamic: true });
      }
    }
  }
  for (const mcp of MCP_SERVERS) {
    asked.push({ what: `${mcp.path} tools/list`, path: mcp.path, method: 'POST', body: rpc('tools/list', {}), headers: JSON_RPC_HEADERS, bodyIsDynamic: true });
  }
  for (const tool of TOOLS) {
    for (const example of tool.examples) {
      const body = rpc('tools/call', { name: tool.name, arguments: example.input });
      asked.push({ what: `MCP ${tool.name}: ${example.description}`, path: '/mcp', method: 'POST', body, headers: JSON_RPC_HEADERS, bodyIsDynamic: true });
    }
  }
  for (const text of ['What is GPTBot?', 'hello', 'How do I block AI training but keep AI search?']) {
    const message = { role: 'ROLE_USER', messageId: 'm', parts: [{ text }] };
    asked.push({ what: `A2A: ${text}`, path: '/a2a', method: 'POST', body: rpc('SendMessage', { message }), headers: JSON_RPC_HEADERS, bodyIsDynamic: true });
  }
  return asked;
}

async function send(base: string, ask: Asked, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(base, ask.path, { method: ask.method ?? 'GET', headers: { ...ask.headers, ...headers }, ...(ask.body === undefined ? {} : { body: ask.body }) });
}

/** The origins an answer names, outside the bodies of stored documents. */
function named(response: RawResponse, ask: Asked): string {
  return `${response.headers['link'] ?? ''}\n${response.headers['location'] ?? ''}\n${ask.bodyIsDynamic ? response.text : ''}`;
}

describe('a self-hosted server names its own origin (docs/API.md §1.3)', () => {
  test('no dynamic answer and no Link header names the origin the tree was built for', async () => {
    const asked = everyAnswer();
    assert.ok(asked.length > 60, `${asked.length} answers asked`);
    const own = server.url;
    let namingOwn = 0;
    for (const ask of asked) {
      const response = await send(own, ask);
      assert.ok(response.status < 500, `${ask.what}: ${response.status}`);
      const text = named(response, ask);
      assert.ok(!text.includes(BUILT_FOR), `${ask.what} (${ask.path}) names ${BUILT_FOR}:\n${text.slice(0, 600)}`);
      if (text.includes(own)) namingOwn++;
    }
    // Most answers name an address at all (the Link header on all of them); they name this server.
    assert.ok(namingOwn > asked.length * 0.9, `${namingOwn} of ${asked.length} answers name ${own}`);
  });

  test('the origin is the Host the client used; a Host that is no host names the listening address', async () => {
    const card = await raw(server.url, '/.well-known/agent-card.json', { headers: { host: 'crawlers.example:9000' } });
    assert.equal((JSON.parse(card.text) as { url: string }).url, 'http://crawlers.example:9000/a2a');
    const document = await raw(server.url, '/data/agents.json', { headers: { host: 'crawlers.example:9000' } });
    assert.match(document.headers['link'] ?? '', /^<http:\/\/crawlers\.example:9000\/changes\.json\?since=0>; rel="related"/);
    const hostile = await raw(server.url, '/nope', { headers: { host: 'evil.example"><script>' } });
    assert.ok(!hostile.text.includes('evil'), hostile.text);
    assert.ok(hostile.text.includes(server.url), hostile.text);
  });

  test('X-Forwarded-* and Forwarded count only when the server trusts a proxy', async () => {
    const forwarded = { host: 'internal:8080', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'crawlers.example' };
    const direct = await raw(server.url, '/api/v1', { headers: forwarded });
    assert.equal((JSON.parse(direct.text) as { unprefixed_base_url: string }).unprefixed_base_url, 'http://internal:8080');
    const behindProxy = await raw(proxied.url, '/api/v1', { headers: forwarded });
    assert.equal((JSON.parse(behindProxy.text) as { unprefixed_base_url: string }).unprefixed_base_url, 'https://crawlers.example');
    const rfc7239 = await raw(proxied.url, '/api/v1', { headers: { host: 'internal', forwarded: 'for=192.0.2.1;proto=https;host=index.crawlers.example' } });
    assert.equal((JSON.parse(rfc7239.text) as { unprefixed_base_url: string }).unprefixed_base_url, 'https://index.crawlers.example');
  });

  test('stored documents keep the build base URL, byte for byte as the ledger names them', async () => {
    const agents = await raw(server.url, '/data/agents.json', { headers: { host: 'crawlers.example' } });
    assert.ok(agents.text.includes(`${BUILT_FOR}/crawler/`));
    const ledger = JSON.parse((await raw(server.url, '/documents.json')).text) as { documents: { path: string; etag: string | null }[] };
    assert.equal(`"${ledger.documents.find((d) => d.path === '/data/agents.json')?.etag}"`, agents.headers['etag']);
  });
});
