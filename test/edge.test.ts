import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOST_RULE_FILES } from '../pipeline/render/host-rules.ts';
import { httpConformance } from './conformance/http.cases.ts';
import { startEdge } from './support/edge.ts';
import { raw } from './support/http.ts';
import { REPO } from './support/project.ts';
import { parseHeaders, parseRedirects } from './support/static-host.ts';

// docs/PRINCIPLES.md §5: the Worker of edge/worker.ts, run in workerd by Miniflare from wrangler.toml
// over the committed dist/ as its assets, against the same HTTP conformance suite as the Node
// server (test/http-conformance.test.ts). npm test runs it; npm run test:edge runs it alone.
httpConformance('Cloudflare Worker (workerd, Miniflare)', () => startEdge(), { withheld: HOST_RULE_FILES });

test("Cloudflare's asset server reads dist/_headers and dist/_redirects: every document's type, open CORS, every other name", async () => {
  const edge = await startEdge({ assetsFirst: true });
  try {
    const dist = (name: string) => readFileSync(join(REPO, 'dist', name));
    for (const rule of parseHeaders(dist('_headers').toString('utf8'))) {
      const type = rule.headers.find(([name]) => name === 'Content-Type')?.[1];
      if (type === undefined) continue;
      // Cloudflare sends /x.html to its clean address /x (and /index.html to /) before answering.
      // Asked uncompressed: what is read here is the headers, and workerd's gzip of each body
      // (undone again by fetch) was most of this test's CPU.
      const response = await fetch(`${edge.url}${rule.path}`, { headers: { 'accept-encoding': 'identity' } });
      await response.arrayBuffer();
      assert.equal(response.status, 200, rule.path);
      assert.equal(response.headers.get('content-type'), type, rule.path);
      assert.equal(response.headers.get('access-control-allow-origin'), '*', rule.path);
    }
    for (const rule of parseRedirects(dist('_redirects').toString('utf8'))) {
      const response = await raw(edge.url, rule.from);
      assert.equal(response.status, rule.status, rule.from);
      assert.equal(new URL(response.headers.location ?? '', edge.url).pathname, rule.to, rule.from);
    }
    const reference = await raw(edge.url, '/reference');
    assert.equal(reference.status, 200);
    assert.deepEqual(reference.body, dist('reference.html'));
  } finally {
    await edge.close();
  }
});
