#!/usr/bin/env node
// `npm run check|build|refresh` and `npx crawler-index`: the commands of cli-program.ts on this
// process's arguments, streams and exit code.
import { PROCESS_IO, runCli } from './cli-program.ts';

await runCli(process.argv, PROCESS_IO);
