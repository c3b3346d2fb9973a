#!/usr/bin/env node
// Serves the committed index (dist/) and the dynamic endpoints on one port.
//
// Run it as `npm start` or `node --import ./bin/ts-loader.mjs serve.ts` (Node 22.18+ and 24 also
// run `node serve.ts`): one process, so SIGTERM and SIGINT reach the server itself, which then
// closes its socket, its tool threads and the request log before it exits.
import { serveProcess } from './pipeline/node/serve-process.ts';

await serveProcess(process.argv);
