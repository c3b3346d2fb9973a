import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { build } from '../pipeline/publish/build.ts';
import { NEEDS_SERVER } from '../pipeline/render/tools.ts';
import { contentTypeOf, HEADERS_PATH, REDIRECTS_PATH } from '../pipeline/paths.ts';
import { findRoute, isDynamic, routes } from '../pipeline/routes.ts';
import { raw } from './support/http.ts';
import { linkAttributeCount, pageLinks } from './support/links.ts';
import { REPO, readTree, tempProject } from './support/project.ts';
import { headerRuleMatches, parseHeaders, parseRedirects, type StaticHost, startStaticHost } from './support/static-host.ts';

// docs/API.md §10: the committed dist/ on any static host. Every link of every page works on
// the plainest host (no clean URLs, no rewrites, no _headers); a link the server alone can
// answer (a tool's form) is on a page that says so. A host that reads _headers and _redirects
// answers every document with the type the server gives it, open to any origin, and every
// other name of a document leads to it.

const DIST = join(REPO, 'dist');
const dist = await readTree(DIST);
const decoder = new TextDecoder();
const text = (path: string) => decoder.decode(dist.get(path));
const headerRules = parseHeaders(text(HEADERS_PATH));
const redirects = parseRedirects(text(REDIRECTS_PATH));
/** Where the build says the site lives: its own absolute links point there, and the test serves it here. */
const BASE = (JSON.parse(text('/index.json')) as { home: string }).home.replace(/\/$/, '');

let plain: StaticHost;
let rules: StaticHost;
before(async () => {
  plain = await startStaticHost(DIST);
  rules = await startStaticHost(DIST, { headers: headerRules, redirects });
});
after(async () => {
  await plain?.close();
  await rules?.close();
});

/**
 * What a host answers a GET of an address with: status and headers, asked once per file. The
 * crawl, the canonical addresses and the header rules ask the same hosts for many of the same
 * addresses, and a static host's answer to a path of an unchanging dist/ does not change.
 */
const answers = new Map<string, Promise<{ status: number; headers: Record<string, string> }>>();
function answer(host: StaticHost, address: string): Promise<{ status: number; headers: Record<string, string> }> {
  const key = `${host.url}${address}`;
  let answered = answers.get(key);
  if (answered === undefined) {
    answered = raw(host.url, address).then(({ status, headers }) => ({ status, headers }));
    answers.set(key, answered);
  }
  return answered;
}

const essence = (type: string | null) => (type ?? '').split(';')[0]!.trim().toLowerCase();

/** Runs `work` over `items`, a few at a time: the crawl shares two cores with the rest of the suite. */
async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>, width = 16): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width) results.push(...(await Promise.all(items.slice(start, start + width).map(work))));
  return results;
}

interface Target {
  /** Path and query on the host, no fragment. */
  address: string;
  method: string;
  from: string[];
}

/**
 * Every same-site link of every page in dist/, each target once, with the pages that link it.
 * The pages come from dist/, not from what the crawl fetches, so it ends by itself: one request
 * per distinct target, about 1,300 for 12,000 links.
 * `rel=canonical` names the address a page is published at rather than a link to follow; those
 * are checked on their own, since one of them (/reference) needs a host with clean URLs.
 */
function siteLinks(
  tree: ReadonlyMap<string, Buffer>,
  base: string,
  which: 'links' | 'canonical' = 'links',
): { targets: Target[]; links: number; pages: number } {
  const targets = new Map<string, Target>();
  let links = 0;
  let pages = 0;
  for (const path of [...tree.keys()].filter((p) => p.endsWith('.html')).sort()) {
    pages += 1;
    const html = decoder.decode(tree.get(path));
    const found = pageLinks(html);
    assert.equal(found.filter((l) => l.attribute !== 'srcset').length, linkAttributeCount(html), `${path}: the link scanner read every href, src and action`);
    for (const link of found) {
      if ((link.rel === 'canonical') !== (which === 'canonical')) continue;
      links += 1;
      const resolved = new URL(link.value, `${base}${path}`);
      if (resolved.origin !== new URL(base).origin) continue;
      const method = link.attribute === 'action' ? (link.method ?? 'get').toUpperCase() : 'GET';
      const address = `${resolved.pathname}${resolved.search}`;
      const key = `${method} ${address}`;
      const target = targets.get(key) ?? { address, method, from: [] };
      target.from.push(path);
      targets.set(key, target);
    }
  }
  return { targets: [...targets.values()], links, pages };
}

test('every link of every page works on a plain static host; tool forms, which need the server, say so', async () => {
  const started = performance.now();
  const { targets, links, pages } = siteLinks(dist, BASE);
  assert.ok(pages > 400, `${pages} pages`);
  const needsServer = targets.filter((t) => {
    const path = new URL(t.address, BASE).pathname;
    const route = findRoute(path);
    return route !== undefined && isDynamic(route) && !dist.has(path);
  });
  const documents = targets.filter((t) => !needsServer.includes(t));

  const broken = (
    await inBatches(documents, async (target) => {
      const response = await answer(plain, target.address);
      return response.status === 200 ? [] : [`${target.address} answered ${response.status}, linked from ${target.from.slice(0, 3).join(', ')}`];
    })
  ).flat();
  assert.deepEqual(broken, []);

  // What a static host cannot answer is a tool's endpoint, and only from its own form page, which says so;
  // the agent card is also answered by the server (naming its own origin) but is stored, so a static host serves it.
  assert.ok(needsServer.length > 0, 'the tool forms are found');
  for (const target of needsServer) {
    const route = findRoute(new URL(target.address, BASE).pathname)!;
    assert.equal(route.answer.by, 'tool', `${target.address}: only a tool's form links a path the server alone answers`);
    for (const page of target.from) assert.ok(text(page).includes(NEEDS_SERVER.text), `${page} says its form needs the server`);
    const response = await raw(plain.url, target.address, { method: target.method });
    assert.equal(response.status, 404, `a static host has no ${target.address}, as the page says`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`crawled ${links} links on ${pages} pages: ${documents.length} documents, ${needsServer.length} tool endpoints, in ${seconds} s`);
});

test('published under a path, as a fork on GitHub Pages is (https://<user>.github.io/<repo>/), every link stays under it and works', async () => {
  const project = await tempProject('mini');
  const mount = '/mirror';
  try {
    const base = `https://example.org${mount}`;
    await build({ root: project.root, baseUrl: base, now: '2026-01-01T00:00:00Z' });
    const tree = await readTree(join(project.root, 'dist'));
    const host = await startStaticHost(join(project.root, 'dist'), undefined, mount);
    try {
      const { targets } = siteLinks(tree, base);
      assert.ok(targets.length > 50, `${targets.length} targets`);
      assert.deepEqual(
        targets.filter((t) => !t.address.startsWith(`${mount}/`)).map((t) => `${t.address}, linked from ${t.from[0]}`),
        [],
      );
      const documents = targets.filter((t) => {
        const route = findRoute(new URL(t.address, base).pathname.slice(mount.length));
        return route === undefined || !isDynamic(route);
      });
      const broken = (
        await inBatches(documents, async (target) => {
          const response = await raw(host.url, target.address);
          return response.status === 200 ? [] : [`${target.address} answered ${response.status}, linked from ${target.from[0]}`];
        })
      ).flat();
      assert.deepEqual(broken, []);
    } finally {
      await host.close();
    }
  } finally {
    await project.dispose();
  }
});

test('every page names a canonical address that answers on a host with clean URLs; a plain host lacks only the clean ones', async () => {
  const { targets } = siteLinks(dist, BASE, 'canonical');
  assert.ok(targets.length > 400, `${targets.length} canonical addresses`);
  const missingOnPlain = (
    await inBatches(targets, async (target) => {
      // Answered where it is published, not through a redirect: a canonical address is the one that answers.
      const ruled = await answer(rules, target.address);
      assert.equal(ruled.status, 200, `${target.address}, canonical of ${target.from[0]}`);
      const bare = await answer(plain, target.address);
      return bare.status === 200 ? [] : [target.address];
    })
  ).flat();
  // The route table's published addresses with no file of their own: the README names them.
  const clean = routes().flatMap((route) => (route.canonical !== undefined && !isDynamic(route) && !dist.has(route.canonical) ? [route.canonical] : []));
  assert.deepEqual(
    missingOnPlain,
    clean.filter((address) => targets.some((t) => t.address === address)),
  );
  assert.deepEqual(clean, ['/reference']);
});

test('a host that reads _headers answers every document with the type the server gives it, open to every origin', async () => {
  const ruled = new Set(headerRules.filter((r) => r.headers.some(([name]) => name === 'Content-Type')).map((r) => r.path));
  const served = [...dist.keys()].filter((path) => path !== HEADERS_PATH && path !== REDIRECTS_PATH);
  const wrong = (
    await inBatches(served, async (path) => {
      const response = await answer(rules, path);
      const type = response.headers['content-type'] ?? null;
      const expected = contentTypeOf(path);
      // A path with a rule gets exactly the server's type; the others what their extension says.
      const right = response.status === 200 && (ruled.has(path) ? type === expected : essence(type) === essence(expected));
      const open = response.headers['access-control-allow-origin'] === '*';
      return right && open ? [] : [`${path}: ${response.status} ${type}, CORS ${response.headers['access-control-allow-origin']}; the server says ${expected}`];
    })
  ).flat();
  assert.deepEqual(wrong, []);

  // Without the rules, a plain host guesses from the extension: these documents need them.
  const guessed = (
    await inBatches([...ruled], async (path) => {
      const response = await answer(plain, path);
      return essence(response.headers['content-type'] ?? null) === essence(contentTypeOf(path)) ? [] : [path];
    })
  ).flat();
  for (const path of ['/register', '/.well-known/api-catalog', '/feed.json', '/openapi.yaml']) assert.ok(guessed.includes(path), `${path} needs its rule`);
});

test('_headers and _redirects are the hosts’ format, within Cloudflare’s limits, and every rule names something in dist/', () => {
  assert.equal(headerRules[0]?.path, '/*');
  assert.ok(headerRules.length <= 100, `${headerRules.length} header rules; Cloudflare Pages reads at most 100`);
  assert.ok(
    text(HEADERS_PATH)
      .split('\n')
      .every((line) => line.length <= 2000),
  );
  for (const rule of headerRules)
    assert.ok(
      [...dist.keys()].some((path) => headerRuleMatches(rule, path)),
      `${rule.path} matches a file`,
    );
  const everyAnswer = Object.fromEntries(headerRules[0]!.headers);
  assert.equal(everyAnswer['Access-Control-Allow-Origin'], '*');
  assert.match(everyAnswer['Cache-Control'] ?? '', /max-age=\d+/);
  // Matching rules add up, so a header set on every path and again on one would be sent twice.
  for (const rule of headerRules.slice(1)) for (const [name] of rule.headers) assert.equal(everyAnswer[name], undefined, `${rule.path} repeats ${name}`);

  assert.ok(redirects.length > 0);
  for (const rule of redirects) {
    assert.ok(rule.from.length + rule.to.length < 1000);
    assert.equal(rule.status, 301, `${rule.from} is a permanent other name`);
    assert.equal(dist.has(rule.from), false, `${rule.from} is not a file the redirect would hide`);
    const stored = rule.to.endsWith('/') ? `${rule.to}index.html` : dist.has(rule.to) ? rule.to : `${rule.to}.html`;
    assert.ok(dist.has(stored), `${rule.from} → ${rule.to}: ${stored} is in dist/`);
  }
});

test('every other name of a document leads to its bytes on a host that reads _redirects', async () => {
  const names = routes()
    .filter((route) => !isDynamic(route))
    .flatMap((route) => (route.aliases ?? []).map((alias) => ({ alias, stored: route.path })));
  assert.ok(names.length >= 10, `${names.length} other names`);
  for (const { alias, stored } of names) {
    const response = await fetch(`${rules.url}${alias}`);
    assert.equal(response.status, 200, `${alias} answers after ${response.redirected ? 'a redirect' : 'no redirect'}`);
    assert.deepEqual(new Uint8Array(await response.arrayBuffer()), new Uint8Array(dist.get(stored)!), `${alias} gives the bytes of ${stored}`);
  }
});

test('the ledger lists the hosts’ rules like every other document', () => {
  const ledger = JSON.parse(text('/documents.json')) as { documents: { path: string }[] };
  const listed = new Set(ledger.documents.map((d) => d.path));
  assert.ok(listed.has(HEADERS_PATH) && listed.has(REDIRECTS_PATH));
});
