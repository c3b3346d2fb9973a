import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { snapshotStore } from '../pipeline/node/dist-snapshot.ts';
import { crawlerName, servedBuild } from '../pipeline/http/served-build.ts';
import { toolDataFrom, TOOL_SNAPSHOT_PATHS } from '../pipeline/http/tool-data.ts';
import type { DocumentStore } from '../pipeline/http/store.ts';
import { builtMini } from './support/built-mini.ts';

// What the thread that answers requests reads of the build it serves without building the
// tools' data (http/served-build.ts) must be what that data says: the same base URL, with
// which the tools' answers are relocated, and the same crawler names, which live pages show.

let mini: Awaited<ReturnType<typeof builtMini>>;
before(async () => {
  mini = await builtMini();
});
after(() => mini.dispose());

/** The store with one document taken away. */
function without(store: DocumentStore, path: string): DocumentStore {
  return { get: async (p) => (p === path ? null : store.get(p)), generatedAt: () => store.generatedAt() };
}

describe('the served build, read from small documents', () => {
  for (const relocated of [false, true]) {
    test(`${relocated ? 'relocated to another base URL' : 'as built'}: the base URL and every crawler's name are the tools' data's`, async () => {
      const options = relocated ? { relocateTo: { baseUrl: 'https://mirror.example:8443/index', siteName: 'Mirror' } } : {};
      const store = await snapshotStore(join(mini.root, 'dist'), { compress: false, ...options });
      try {
        const data = await toolDataFrom(store);
        assert.ok(data !== null);
        if (relocated) assert.equal(data.baseUrl, 'https://mirror.example:8443/index');
        assert.deepEqual(await servedBuild(store), { baseUrl: data.baseUrl });
        assert.ok(data.crawlers.length > 0);
        for (const crawler of data.crawlers) assert.equal(await crawlerName(store, crawler.slug), crawler.name, crawler.slug);
        assert.equal(await crawlerName(store, 'no-such-crawler'), null);
      } finally {
        store.close();
      }
    });
  }

  test('a tree that lacks a document the tools read has no served build (the tools answer not_ready)', async () => {
    const store = await snapshotStore(join(mini.root, 'dist'), { compress: false });
    try {
      for (const path of [TOOL_SNAPSHOT_PATHS[0]!, TOOL_SNAPSHOT_PATHS.at(-1)!, '/index.json']) {
        assert.equal(await servedBuild(without(store, path)), null, path);
      }
    } finally {
      store.close();
    }
  });
});
