import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parse } from 'yaml';
import type { RunningServer } from '../pipeline/node/server.ts';
import { ERROR_CODES } from '../pipeline/contract/error-catalog.ts';
import { DEFAULT_RETENTION_DAYS, USER_AGENT_LIMIT } from '../pipeline/log/types.ts';
import { routes } from '../pipeline/routes.ts';
import { TOOLS } from '../pipeline/tools/registry/index.ts';
import { raw } from './support/http.ts';
import { serveTree } from './support/served.ts';
import { REPO } from './support/project.ts';

// docs/API.md §4.3 over a real socket, against the committed dist/: each discovery document answers
// with its media type, parses with a real parser, and every address it names answers 200.

let server: RunningServer;
const SITE = parse(readFileSync(join(REPO, 'records', 'site.yaml'), 'utf8')) as { base_url: string };
const LEDGER = JSON.parse(readFileSync(join(REPO, 'dist', 'documents.json'), 'utf8')) as { documents: { path: string; last_modified: string }[] };

before(async () => {
  server = await serveTree(REPO);
});
after(() => server.close());

/** A published address, asked of the server under test. */
const local = (address: string) => {
  assert.ok(address.startsWith(SITE.base_url), `${address} is on the published base URL`);
  return server.url + address.slice(SITE.base_url.length);
};
const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });
const json = async (path: string) => (await (await get(path)).json()) as Record<string, unknown>;

/**
 * Asks for every address (a few at a time) and returns those that did not answer 200. Through
 * node:http (raw) rather than fetch(): the sitemap alone is 500 requests, and undici's fetch
 * spends several times the CPU of a plain request on each.
 */
async function notOk(addresses: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  const queue = [...new Set(addresses)];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let address = queue.shift(); address !== undefined; address = queue.shift()) {
        const url = new URL(local(address));
        const response = await raw(server.url, url.pathname + url.search);
        if (response.status !== 200) failed.push(`${address} → ${response.status}`);
      }
    }),
  );
  return failed;
}

const SPEC_4_3: Record<string, RegExp> = {
  '/reference': /^text\/html/,
  '/docs': /^text\/html/,
  '/documentation': /^text\/html/,
  '/api': /^text\/html/,
  '/api/docs': /^text\/html/,
  '/reference.json': /^application\/json$/,
  '/openapi.json': /^application\/json$/,
  '/openapi.yaml': /^application\/yaml$/,
  '/swagger.json': /^application\/json$/,
  '/llms.txt': /^text\/plain/,
  '/llms-full.txt': /^text\/plain/,
  '/apis.json': /^application\/json$/,
  '/apis.yml': /^application\/yaml$/,
  '/apis.yaml': /^application\/yaml$/,
  '/.well-known/apis.yaml': /^application\/yaml$/,
  '/sitemap.xml': /^application\/xml$/,
  '/index.json': /^application\/json$/,
  '/.well-known/api-catalog': /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"$/,
  '/.well-known/host-meta': /^application\/xrd\+xml/,
  '/.well-known/host-meta.json': /^application\/json$/,
  '/.well-known/api-onboarding': /^application\/json$/,
  '/.well-known/security.txt': /^text\/plain; charset=utf-8$/,
  '/.well-known/agent-card.json': /^application\/json$/,
  '/security.json': /^application\/json$/,
  '/terms.json': /^application\/json$/,
  '/privacy.json': /^application\/json$/,
  '/register': /^application\/json$/,
  '/api.json': /^application\/json$/,
  '/api.html': /^text\/html/,
  '/api.md': /^text\/markdown/,
  '/api/versions': /^application\/json$/,
};

test('every documentation and discovery path of docs/API.md §4.3 answers GET and HEAD with its media type, also under /api/v1', async () => {
  for (const [path, type] of Object.entries(SPEC_4_3)) {
    for (const prefix of ['', '/api/v1']) {
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(server.url + prefix + path, { method });
        const body = await response.text();
        assert.equal(response.status, 200, `${method} ${prefix}${path}`);
        assert.match(response.headers.get('content-type') ?? '', type, `${prefix}${path}`);
        assert.match(response.headers.get('etag') ?? '', /^"[0-9a-f]{32}(-br|-gzip)?"$/, `${prefix}${path} has a strong ETag`);
        assert.equal(body.length === 0, method === 'HEAD');
      }
    }
  }
});

test('the reference: its aliases name /reference as canonical; Accept: application/json gets its JSON form', async () => {
  // Link headers name the origin the client used (docs/API.md §1.3): this server's own.
  const canonical = `<${server.url}/reference>; rel="canonical"`;
  assert.ok(!((await get('/reference')).headers.get('link') ?? '').includes('rel="canonical"'), '/reference is the canonical address');
  for (const alias of ['/docs', '/documentation', '/api', '/api/docs', '/api.html', '/reference.html', '/api/v1/reference']) {
    const response = await get(alias);
    await response.arrayBuffer();
    assert.ok(response.headers.get('link')?.startsWith(canonical), `${alias}: ${response.headers.get('link')}`);
    assert.equal(response.headers.get('vary'), 'Accept, Accept-Encoding');
  }
  const page = await (await get('/reference.json')).text();
  for (const path of ['/reference', '/docs', '/api/docs']) {
    const asked = await get(path, { accept: 'application/json' });
    assert.match(asked.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(asked.headers.get('content-location'), '/reference.json');
    assert.equal(await asked.text(), page, `${path} with Accept: application/json is /reference.json`);
  }
  // A browser's Accept (JSON only through */*) and no preference at all keep the page.
  const browser = await get('/docs', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' });
  assert.match(browser.headers.get('content-type') ?? '', /^text\/html/);
  assert.match((await get('/docs', { accept: '*/*' })).headers.get('content-type') ?? '', /^text\/html/);
  assert.match((await get('/docs', { accept: 'text/html;q=0.1, application/json;q=0.5' })).headers.get('content-type') ?? '', /^application\/json/);
  const api = await get('/api.json');
  assert.ok(api.headers.get('link')?.startsWith(`<${server.url}/reference.json>; rel="canonical"`));
});

test('the reference lists every route once, every tool, and every error code the service writes', async () => {
  const reference = (await json('/reference.json')) as {
    groups: { endpoints: { key: string }[] }[];
    tools: { name: string }[];
    error_codes: { code: string }[];
    endpoint_count: number;
  };
  const keys = reference.groups.flatMap((g) => g.endpoints.map((e) => e.key));
  assert.deepEqual(
    [...keys].sort(),
    routes()
      .map((r) => r.key)
      .sort(),
  );
  assert.equal(reference.endpoint_count, routes().length);
  assert.deepEqual(reference.tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
  // The codes written in the source: `code: 'x'` in an error detail, sendError(res, status, 'x'), the 503 reasons.
  const written = new Set<string>();
  for (const folder of ['http', 'node']) {
    for (const file of readdirSync(join(REPO, 'pipeline', folder)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const source = readFileSync(join(REPO, 'pipeline', folder, file), 'utf8');
      for (const m of source.matchAll(/\bcode: '([a-z][a-z0-9_]*)'/g)) written.add(m[1]!);
      for (const m of source.matchAll(/sendError\(res, \d{3}, '([a-z_]+)'/g)) written.add(m[1]!);
      for (const m of source.matchAll(/^\s+[a-z-']+: '([a-z_]+)',$/gm)) if (file === 'unavailable.ts') written.add(m[1]!);
    }
  }
  assert.ok(written.size >= 10, `found ${written.size} codes`);
  const catalogued = new Set(ERROR_CODES.map((e) => e.code));
  assert.deepEqual(
    [...written].filter((code) => !catalogued.has(code)),
    [],
    'every code the service writes is in pipeline/contract/error-catalog.ts',
  );
  const html = await (await get('/reference')).text();
  const shown = html.replaceAll('<wbr>', '');
  for (const route of routes()) assert.ok(shown.includes(`<code>${route.path}</code>`), `the page lists ${route.path}`);
  const markdown = await (await get('/api.md')).text();
  for (const route of routes()) assert.ok(markdown.includes(`\`${route.path}\``), `the Markdown lists ${route.path}`);
});

test('/api/v1 counts its endpoints from the same route table', async () => {
  const root = (await json('/api/v1')) as { endpoints: unknown[]; templates: unknown[]; endpoint_count: number };
  assert.equal(root.endpoint_count, root.endpoints.length + root.templates.length);
  assert.equal(root.templates.length, routes().filter((r) => r.parameter).length);
  assert.equal(root.endpoints.length, routes().filter((r) => !r.parameter).length - 1, 'every concrete path but the root itself');
});

test('sitemap.xml is valid sitemaps.org XML, lists no closed path, and every address in it answers 200', async () => {
  const text = await (await get('/sitemap.xml')).text();
  assert.equal(XMLValidator.validate(text), true);
  const sitemap = new XMLParser({ ignoreAttributes: false }).parse(text) as { urlset: { '@_xmlns': string; url: { loc: string }[] } };
  assert.equal(sitemap.urlset['@_xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9');
  const addresses = sitemap.urlset.url.map((u) => u.loc);
  assert.ok(addresses.length > 300, `${addresses.length} addresses`);
  assert.ok(addresses.length <= 50_000, 'within one sitemap file');
  assert.equal(new Set(addresses).size, addresses.length, 'no address twice');
  assert.ok(!addresses.some((a) => a.endsWith('/hits.json')), '/hits.json is never listed');
  assert.ok(addresses.includes(`${SITE.base_url}/reference`) && addresses.includes(`${SITE.base_url}/crawler/gptbot.html`));
  assert.deepEqual(await notOk(addresses), []);
});

test('the API catalogue (RFC 9727) is a linkset whose every address answers 200, and every answer links to it', async () => {
  const catalog = (await json('/.well-known/api-catalog')) as { linkset: Record<string, string | { href: string; type: string }[]>[] };
  assert.ok(catalog.linkset.length >= 1);
  const addresses: string[] = [];
  for (const entry of catalog.linkset) {
    addresses.push(entry['anchor'] as string);
    for (const [relation, links] of Object.entries(entry)) {
      if (relation === 'anchor') continue;
      assert.ok(Array.isArray(links) && links.length > 0, relation);
      for (const link of links) addresses.push(link.href);
    }
    assert.ok(Array.isArray(entry['service-desc']), 'service-desc names the OpenAPI description');
  }
  assert.deepEqual(await notOk(addresses), []);
  const head = await fetch(server.url + '/.well-known/api-catalog', { method: 'HEAD' });
  assert.ok(
    (head.headers.get('link') ?? '').includes(`<${server.url}/.well-known/api-catalog>; rel="api-catalog"`),
    'every answer links to the catalogue on this server',
  );
});

test('host-meta: the XRD parses as XML in the XRD namespace and carries the same links as host-meta.json', async () => {
  const text = await (await get('/.well-known/host-meta')).text();
  assert.equal(XMLValidator.validate(text), true);
  const xrd = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'Link' }).parse(text) as {
    XRD: { '@_xmlns': string; Subject: string; Link: { '@_rel': string; '@_type': string; '@_href': string }[] };
  };
  assert.equal(xrd.XRD['@_xmlns'], 'http://docs.oasis-open.org/ns/xri/xrd-1.0');
  const jrd = (await json('/.well-known/host-meta.json')) as { subject: string; links: { rel: string; type: string; href: string }[] };
  assert.equal(xrd.XRD.Subject, jrd.subject);
  assert.deepEqual(
    xrd.XRD.Link.map((l) => ({ rel: l['@_rel'], type: l['@_type'], href: l['@_href'] })),
    jrd.links,
  );
  assert.deepEqual(await notOk(jrd.links.map((l) => l.href)), []);
});

test('security.txt follows RFC 9116: Contact, one Expires less than a year after the file changed, its own Canonical', async () => {
  const text = await (await get('/.well-known/security.txt')).text();
  const fields = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([A-Za-z-]+): (.+)$/.exec(line);
      assert.ok(match, `a field line: ${line}`);
      return { name: match[1]!.toLowerCase(), value: match[2]! };
    });
  const values = (name: string) => fields.filter((f) => f.name === name).map((f) => f.value);
  const known = new Set(['contact', 'expires', 'encryption', 'acknowledgments', 'preferred-languages', 'canonical', 'policy', 'hiring', 'csaf']);
  assert.deepEqual(
    fields.filter((f) => !known.has(f.name)),
    [],
  );
  assert.ok(values('contact').length >= 1);
  for (const contact of values('contact')) assert.match(contact, /^(https:|mailto:|tel:)/);
  assert.equal(values('expires').length, 1);
  assert.equal(values('preferred-languages').length <= 1, true);
  const expires = Date.parse(values('expires')[0]!);
  assert.match(values('expires')[0]!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'an RFC 3339 time');
  const changed = Date.parse(LEDGER.documents.find((d) => d.path === '/.well-known/security.txt')!.last_modified);
  assert.ok(expires > changed + 150 * 86_400_000, 'more than five months after the file changed');
  assert.ok(expires < changed + 365 * 86_400_000, 'less than a year after the file changed');
  assert.deepEqual(values('canonical'), [`${SITE.base_url}/.well-known/security.txt`]);
  assert.deepEqual(await notOk([...values('policy'), ...values('canonical')]), []);
});

test('llms.txt: a title, a summary and sections of links, every link answering 200; llms-full.txt adds the reference', async () => {
  const text = await (await get('/llms.txt')).text();
  const lines = text.split('\n');
  assert.match(lines[0]!, /^# \S/);
  assert.ok(lines.some((l) => l.startsWith('> ')));
  assert.ok(lines.filter((l) => l.startsWith('## ')).length >= 5);
  const links = [...text.matchAll(/\]\((https?:[^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length > 40);
  assert.ok(!links.some((l) => l.includes('{')), 'templates are named, not linked');
  // /hits.json is listed so that a model knows it exists; it answers 401 without the key.
  assert.deepEqual(await notOk(links.filter((l) => !l.endsWith('/hits.json'))), []);
  const full = await (await get('/llms-full.txt')).text();
  assert.ok(full.startsWith(text));
  assert.equal(full.slice(text.length), `\n---\n\n${await (await get('/api.md')).text()}`);
});

test('APIs.json and its YAML twins are one object; index.json, onboarding and the catalogues name only addresses that answer', async () => {
  const apis = await json('/apis.json');
  for (const path of ['/apis.yml', '/apis.yaml', '/.well-known/apis.yaml']) assert.deepEqual(parse(await (await get(path)).text()), apis, path);
  assert.equal(apis['specificationVersion'], '0.19');
  const api = (apis['apis'] as { humanURL: string; baseURL: string; properties: { url: string }[] }[])[0]!;
  const index = (await json('/index.json')) as { documents: { url: string }[]; policies: { robots_txt: string; json: string }[] };
  const onboarding = (await json('/.well-known/api-onboarding')) as { steps: { urls: string[] }[] };
  assert.deepEqual(
    await notOk([
      api.humanURL,
      api.baseURL,
      ...api.properties.map((p) => p.url),
      ...index.documents.map((d) => d.url),
      ...index.policies.flatMap((p) => [p.robots_txt, p.json]),
      ...onboarding.steps.flatMap((s) => s.urls).filter((u) => !u.endsWith('/mcp')),
    ]),
    [],
  );
});

test('terms, privacy, security, register and versions say what users need, from the code’s own constants', async () => {
  const privacy = (await json('/privacy.json')) as { request_log: { retention_days_default: number; kept_per_request: string[] }; cookies: boolean };
  assert.equal(privacy.request_log.retention_days_default, DEFAULT_RETENTION_DAYS);
  assert.ok(privacy.request_log.kept_per_request.some((line) => line.includes(String(USER_AGENT_LIMIT))));
  assert.equal(privacy.cookies, false);
  const register = await json('/register');
  assert.equal(register['registration_required'], false);
  assert.match(String(register['message']), /nothing to register/);
  const terms = (await json('/terms.json')) as { license: { id: string }; access: { api_key: boolean } };
  assert.equal(terms.license.id, 'CC0-1.0');
  assert.equal(terms.access.api_key, false);
  const versions = (await json('/api/versions')) as { current: string; versions: { version: string; status: string }[] };
  assert.deepEqual(
    versions.versions.map((v) => [v.version, v.status]),
    [['v1', 'current']],
  );
  const security = (await json('/security.json')) as { report_to: string };
  assert.ok((await (await get('/.well-known/security.txt')).text()).includes(`Contact: ${security.report_to}`));
});
