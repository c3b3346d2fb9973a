// The one-process limit the bench compares our server with: a bare node:http server that
// replays, from memory, answers it recorded from our server at start (status, headers, body),
// so both send the same bytes. It does what any static server must (match the path, compare
// If-None-Match, send a 304 or the body) and nothing else: no routing table, no log, no Request.
//
// Run: node bench/bare-server.ts <our origin> <path>... (prints "serving at <origin>" on stderr)
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Recorded {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** The headers of our 304 for this document, when it has an ETag. */
  notModified: OutgoingHttpHeaders | null;
}

/** Headers as sent, but for those fetch has already undone: the replay sends plain bytes. */
function replayable(response: Response): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection' && name !== 'keep-alive') headers[name] = value;
  });
  return headers;
}

/** Asked as wrk asks: fetch would otherwise offer br and gzip, and be given another representation. */
const AS_WRK = { 'accept-encoding': 'identity' };

async function record(origin: string, path: string): Promise<Recorded> {
  const response = await fetch(origin + path, { headers: AS_WRK });
  const headers = replayable(response);
  const body = Buffer.from(await response.arrayBuffer());
  const etag = response.headers.get('etag');
  const notModified = etag === null ? null : replayable(await fetch(origin + path, { headers: { ...AS_WRK, 'if-none-match': etag } }));
  return { status: response.status, headers, body, notModified };
}

const [origin, ...paths] = process.argv.slice(2);
if (origin === undefined || paths.length === 0) throw new Error('usage: bare-server.ts <origin> <path>... (the last path is answered for every unknown path)');
const answers = new Map<string, Recorded>();
for (const path of paths) answers.set(path, await record(origin, path));
const missing = answers.get(paths[paths.length - 1] as string) as Recorded;

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '') ?? missing;
  if (answer.notModified !== null && req.headers['if-none-match'] === answer.headers['etag']) {
    res.writeHead(304, answer.notModified);
    return void res.end();
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stderr.write(`serving bare replay at http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
