// The published JSON Schemas carry `$id`s and refer to one another by relative URL
// (`../records/crawler.schema.json#/$defs/category`). Validators that load them by `$id` are
// happy with that; OpenAPI tools are not: swagger-parser resolves the relative refs against
// the document's own location, Redocly reports them unresolved and openapi-typescript stops.
// So the OpenAPI document carries a bundled copy: one component per schema and one per
// `$defs` entry, every `$ref` rewritten to a local `#/components/schemas/...` pointer, and no
// `$id` left to move the base URI.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** `outputs/agents.schema.json` → `agents`; `records/crawler.schema.json` → `record.crawler`. */
function componentName(file: string): string {
  const stem = file.replace(/\.schema\.json$/, '');
  return stem.startsWith('outputs/') ? stem.slice('outputs/'.length) : stem.replace(/^records\//, 'record.');
}

/** The component a `$defs` entry becomes: `record.crawler` + `category` → `record.crawler.category`. */
const defName = (owner: string, def: string) => `${owner}.${def}`;

/**
 * Every schema as components with local refs. `files` maps a path under schemas/ to its
 * schema; a `$ref` that names a file outside the set is a programming error and throws, so a
 * schema added without its dependencies cannot ship a dangling reference.
 */
export function bundleSchemas(files: ReadonlyMap<string, Schema>): Record<string, Schema> {
  const byFile = new Map([...files.keys()].map((file) => [file, componentName(file)]));
  const components: Record<string, Schema> = {};
  for (const [file, schema] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const owner = componentName(file);
    const { $defs, $id: _id, $schema: _schema, ...body } = schema as Schema & { $defs?: Record<string, Schema> };
    const rewrite = (node: unknown) => rewriteRefs(node as Json, (ref) => localRef(ref, file, byFile));
    components[owner] = rewrite(body) as Schema;
    for (const [def, definition] of Object.entries($defs ?? {})) components[defName(owner, def)] = rewrite(definition) as Schema;
  }
  return components;
}

function rewriteRefs(node: Json, rewrite: (ref: string) => string): Json {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, rewrite));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? rewrite(value) : rewriteRefs(value, rewrite)]),
  );
}

/** A ref as written in `file` → the same target as a pointer into components. */
function localRef(ref: string, file: string, byFile: ReadonlyMap<string, string>): string {
  const [target, pointer = ''] = ref.split('#') as [string, string?];
  const targetFile = target === '' ? file : new URL(target, `file:///${file}`).pathname.slice(1);
  const owner = byFile.get(targetFile);
  if (owner === undefined) throw new Error(`schema ${file}: $ref ${ref} names ${targetFile}, which is not among the published schemas`);
  const def = /^\/\$defs\/([^/]+)(\/.*)?$/.exec(pointer);
  if (def) return `${COMPONENTS}${defName(owner, def[1]!)}${def[2] ?? ''}`;
  if (pointer === '') return COMPONENTS + owner;
  throw new Error(`schema ${file}: $ref ${ref} points inside a schema other than through $defs; give the target a $defs entry`);
}
