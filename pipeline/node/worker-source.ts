// A worker thread's entry, given to `new Worker(source, { eval: true })`.
//
// Node 22.18+ and 24 strip TypeScript's types themselves, so the thread imports the module
// directly and pays nothing more. Older Node (20) needs tsx's loader, registered on the thread
// itself: hooks that tsx registers on the main thread do not reach new threads there. Node
// strips no types under node_modules (ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING), so the
// installed package's threads take tsx's loader on every Node.

/** True when this Node runs `.ts` files without a loader (`process.features.typescript`). */
function nodeStripsTypes(): boolean {
  // @types/node 20 does not know the field; Node before 22.6 has no such field.
  const { typescript } = process.features as { typescript?: unknown };
  return typeof typescript === 'string';
}

/**
 * A thread's entry, beside the module that starts it (`from`, its import.meta.url): `name.ts`
 * among the sources, `name.js` in the server's bundle (bin/server-bundle.mjs), where every entry
 * and the code that starts it sit in one folder.
 */
export function workerEntry(name: string, from: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
}

export function workerSource(module: URL, stripsTypes = nodeStripsTypes()): string {
  const load = `import(${JSON.stringify(module.href)})`;
  // A bundled entry is JavaScript already; Node strips no types under node_modules.
  const needsLoader = module.pathname.endsWith('.ts') && (!stripsTypes || module.pathname.includes('/node_modules/'));
  if (!needsLoader) return `${load};`;
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return `import(${tsx}).then(({ register }) => { register(); return ${load}; });`;
}
