// `node --import ./bin/ts-loader.mjs file.ts` runs the project's TypeScript in one process, so
// a signal sent to the process reaches the program (the `tsx` command runs it as a child).
// Node 22.18+ and 24 strip types themselves; older Node (20) gets tsx's loader.
if (typeof process.features.typescript !== 'string') {
  const { register } = await import('tsx/esm/api');
  register();
}
