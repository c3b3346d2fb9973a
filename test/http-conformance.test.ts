import { startServer } from '../pipeline/node/server.ts';
import { httpConformance } from './conformance/http.cases.ts';
import { REPO } from './support/project.ts';

// The Node server (npm start) against the shared HTTP conformance suite; test/edge.test.ts runs
// the same cases against the Cloudflare Worker.
httpConformance('Node server', async () => {
  const server = await startServer({ root: REPO, port: 0, host: '127.0.0.1', checkEveryMs: 0, compress: false, tools: { threads: 0 } });
  return { url: server.url, close: () => server.close() };
});
