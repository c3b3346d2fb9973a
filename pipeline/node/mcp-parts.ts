// The MCP answerer (http/mcp.ts) loads the MCP SDK and its schema and validation libraries: about
// 150 ms of module evaluation on Node 24 and 300 ms on Node 20 on a 2-core machine. Node
// evaluates a module graph in one synchronous step, so importing mcp.ts at once held every other
// client of the server that long at its first MCP request. Imported here first in parts, leaves
// before what imports them and one part per turn of the event loop, the longest hold is the
// largest part: the SDK's own types.js, about 30 ms (docs/API.md §8.1). The Node server does
// this before its first MCP answer (the handler's `beforeMcpLoad`); a Worker runs one bundle,
// loaded whole as it starts, and has nothing to split.
//
// Each part is a module of the graph mcp.ts imports, as installed beside this package. A part
// that no longer resolves (a dependency moved its files) is skipped: mcp.ts then loads it with
// the rest, correctly, only in a longer hold. mcp-parts.test.ts fails when that happens.

/** Where a part is: a package specifier, or a file beside a package's entry (`[entry, file]`). */
export type ModulePart = string | readonly [entry: string, file: string];

/**
 * The parts, leaves first. zod's core is split into its files, since its index alone (with every
 * locale) was a 50 ms hold; ajv ships CommonJS, whose require is one synchronous step on every
 * Node, so its larger files go one at a time too.
 */
export const MCP_MODULE_PARTS: readonly ModulePart[] = [
  ['zod/v4/core', './util.js'],
  ['zod/v4/core', './schemas.js'],
  ['zod/v4/core', './api.js'],
  ['zod/v4/core', './json-schema-processors.js'],
  'zod/v4/locales',
  'zod/v4/core',
  'zod/v4',
  'zod/v4-mini',
  'zod/v3',
  'zod-to-json-schema',
  'ajv/dist/compile/codegen/index.js',
  'ajv/dist/compile/index.js',
  'ajv/dist/core.js',
  'ajv/dist/vocabularies/draft7.js',
  'ajv',
  'ajv-formats',
  '@modelcontextprotocol/sdk/types.js',
  '@modelcontextprotocol/sdk/shared/protocol.js',
  '@modelcontextprotocol/sdk/server/index.js',
  '@modelcontextprotocol/sdk/validation/ajv',
  '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js',
];

/** The URL or specifier `import()` takes for `part`. */
function partSpecifier(part: ModulePart): string {
  return typeof part === 'string' ? part : new URL(part[1], import.meta.resolve(part[0])).href;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Imports each part in order, letting the event loop turn between them; answers the parts that
 * could not be imported (they are left to whoever imports the whole).
 */
export async function importInParts(parts: readonly ModulePart[]): Promise<ModulePart[]> {
  const skipped: ModulePart[] = [];
  for (const part of parts) {
    try {
      await import(partSpecifier(part));
    } catch {
      skipped.push(part);
    }
    await nextTurn();
  }
  return skipped;
}

/** The MCP answerer's dependencies, imported in parts (what the Node server does before its first MCP answer). */
export async function importMcpInParts(): Promise<void> {
  await importInParts(MCP_MODULE_PARTS);
}
