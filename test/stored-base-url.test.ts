// A server given its own base URL (BASE_URL) serving a tree built for another: every stored
// document names the server's base URL, byte for byte as a build for that base URL would have
// written it, with the ETags and the ledger of the bytes served (docs/API.md §1.3).
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { snapshotStore } from '../pipeline/node/dist-snapshot.ts';
import { build } from '../pipeline/publish/build.ts';
import { etagOf } from '../pipeline/util/sha256.ts';
import { builtMini, MINI_BUILT_AT } from './support/built-mini.ts';
import { raw } from './support/http.ts';
import { readTree, tempProject } from './support/project.ts';
import { serveTree } from './support/served.ts';

const SELF_HOSTED = 'https://crawlers.example.org';
/** The mini fixture's base_url (test/fixtures/mini/records/site.yaml), which its build names. */
const BUILT_FOR = 'https://index.example';
const SITE_NAME = 'Crawler Index';

let builtElsewhere: Awaited<ReturnType<typeof builtMini>>;
let builtHere: Awaited<ReturnType<typeof tempProject>>;

before(async () => {
  builtElsewhere = await builtMini();
  builtHere = await tempProject('mini');
  await build({ root: builtHere.root, baseUrl: SELF_HOSTED, now: MINI_BUILT_AT });
});
after(async () => {
  await builtElsewhere.dispose();
  await builtHere.dispose();
});

test('every stored document is served as a build for BASE_URL writes it, ledger included', async () => {
  const expected = await readTree(join(builtHere.root, 'dist'));
  assert.match(
    (await readTree(join(builtElsewhere.root, 'dist'))).get('/llms.txt')?.toString() ?? '',
    new RegExp(`${BUILT_FOR}/`),
    'the tree was built for another base URL',
  );
  const store = await snapshotStore(join(builtElsewhere.root, 'dist'), { compress: false, relocateTo: { baseUrl: SELF_HOSTED, siteName: SITE_NAME } });
  try {
    const differing: string[] = [];
    for (const [path, bytes] of expected) {
      const served = await store.get(path);
      if (served === null || !Buffer.from(served.bytes).equals(bytes) || served.etag !== etagOf(bytes)) differing.push(path);
    }
    assert.deepEqual(differing, [], 'documents whose bytes or ETag differ from the build for BASE_URL');
    assert.ok(expected.size > 100, `${expected.size} documents compared`);
  } finally {
    store.close();
  }
});

test('over HTTP: the discovery documents name BASE_URL, and each ETag is that of the bytes sent and the one the ledger lists', async () => {
  const server = await serveTree(builtElsewhere.root, { origin: { fixed: SELF_HOSTED, trustProxy: false } });
  try {
    const ledger = JSON.parse((await raw(server.url, '/documents.json')).text) as { documents: { path: string; etag: string | null }[] };
    for (const path of ['/.well-known/api-catalog', '/llms.txt', '/sitemap.xml', '/openapi.json', '/.well-known/host-meta', '/data/agents.json']) {
      const answer = await raw(server.url, path);
      assert.equal(answer.status, 200, path);
      assert.ok(answer.text.includes(`${SELF_HOSTED}/`), `${path} names ${SELF_HOSTED}`);
      assert.ok(!answer.text.includes(BUILT_FOR), `${path} names the build's base URL (${BUILT_FOR}) no more`);
      const etag = etagOf(Buffer.from(answer.text));
      assert.equal(answer.headers['etag'], `"${etag}"`, path);
      assert.equal(ledger.documents.find((d) => d.path === path)?.etag, etag, `${path} in the ledger`);
    }
  } finally {
    await server.close();
  }
});
