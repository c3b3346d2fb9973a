#!/usr/bin/env node
// npm start: the server (serve.ts) in this one process, so that SIGTERM and SIGINT reach it.
//
// Node 22.18+ and 24 strip serve.ts's types themselves and keep what they compile in the compile
// cache. Older Node (20) needs a loader, and tsx's costs about half a second at every start: each
// module's resolution and load is a round trip to the loader's thread. There the server runs as a
// bundle instead (server-bundle.mjs), made once by esbuild under .cache/ and again whenever a
// file it is made from changes. Where no bundle can be made, tsx's loader runs the sources.
import module from 'node:module';

module.enableCompileCache?.();

const serveTs = new URL('../serve.ts', import.meta.url);
if (typeof process.features.typescript === 'string') {
  await import(serveTs.href);
} else {
  const { serverBundle } = await import('./server-bundle.mjs');
  const bundle = await serverBundle(new URL('..', import.meta.url)).catch((error) => {
    process.stderr.write(`npm start: no bundle (${error instanceof Error ? error.message : String(error)}); running the sources through tsx\n`);
    return null;
  });
  if (bundle === null) {
    const { register } = await import('tsx/esm/api');
    register();
    await import(serveTs.href);
  } else {
    await import(bundle.href);
  }
}
