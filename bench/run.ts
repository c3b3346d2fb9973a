// npm run bench: every figure is printed beside a baseline measured in the same run, on
// loopback, by the same load generator. Nothing here is asserted; timings are not tests.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startServer } from '../pipeline/node/server.ts';
import { load, table, type LoadResult } from './load.ts';
import { toolFigures } from './tools.ts';

const root = process.cwd();
const seconds = Number(process.env['BENCH_SECONDS'] ?? '5');
const path = '/data/agents.json';

const ours = await startServer({ root, port: 0, host: '127.0.0.1' });
const etag = (await fetch(ours.url + path)).headers.get('etag') ?? '';
const bytes = await readFile(join(root, 'dist', path));

// Baseline: the least a Node server can do for the same document: fixed bytes from memory.
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.end(bytes);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

// Warm both servers up first so that neither pays for JIT compilation inside its figure.
await load('warm-up', bareUrl + path, {}, 1);
await load('warm-up', ours.url + path, {}, 1);

const results: LoadResult[] = [];
results.push(await load(`baseline: bare node:http, ${path} from memory (200)`, bareUrl + path, {}, seconds));
results.push(await load(`crawler-index: ${path} (200)`, ours.url + path, {}, seconds));
results.push(await load(`crawler-index: ${path} If-None-Match (304)`, ours.url + path, { 'if-none-match': etag }, seconds));
results.push(await load(`crawler-index: /api/v1${path} (200)`, `${ours.url}/api/v1${path}`, {}, seconds));

process.stdout.write(`${bytes.length} bytes per 200 answer, 10 connections, ${seconds} s each, loopback, node ${process.version}\n`);
process.stdout.write(table(results) + '\n');
await ours.close();
bare.close();

process.stdout.write('\ntools (fastest of several runs; ratio = baseline / ours, above 1 means ours is faster)\n');
for (const f of toolFigures(root)) process.stdout.write(`${f.task.padEnd(62)} ours ${f.ours.padEnd(22)} baseline ${f.baseline.padEnd(44)} ${f.ratio}\n`);
