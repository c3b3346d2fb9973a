// `node --import ./bin/ts-loader.mjs file.ts` runs the project's TypeScript in one process, so
// a signal sent to the process reaches the program (the `tsx` command runs it as a child).
// Node 22.18+ and 24 strip types themselves; older Node (20) gets tsx's loader.
import module from 'node:module';

// Compiled code (and, on Node 24, stripped TypeScript) is kept on disk and reused by the next
// start: it halves the CPU time of loading the server's modules. Node before 22.1 has no cache.
// The folder is NODE_COMPILE_CACHE when set, otherwise node-compile-cache in the temporary folder.
module.enableCompileCache?.();

if (typeof process.features.typescript !== 'string') {
  const { register } = await import('tsx/esm/api');
  register();
}
