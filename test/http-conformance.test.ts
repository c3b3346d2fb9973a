import { httpConformance } from './conformance/http.cases.ts';
import { serveTree } from './support/served.ts';
import { REPO } from './support/project.ts';

// The Node server (npm start) against the shared HTTP conformance suite; test/edge.test.ts runs
// the same cases against the Cloudflare Worker.
httpConformance('Node server', async () => {
  const server = await serveTree(REPO);
  return { url: server.url, close: () => server.close() };
});
