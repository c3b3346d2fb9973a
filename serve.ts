#!/usr/bin/env node
// Serves the committed index (dist/) and the dynamic endpoints on one port.
//
// Run it as `npm start` (bin/serve.mjs, which on Node 20 runs this file's bundle) or, on Node
// 22.18+ and 24, `node serve.ts`: one process, so SIGTERM and SIGINT reach the server itself,
// which then closes its socket, its tool threads and the request log before it exits.
import { serveProcess } from './pipeline/node/serve-process.ts';

await serveProcess(process.argv);
