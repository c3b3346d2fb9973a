import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const SCHEMA_DIR = fileURLToPath(new URL('../../schemas/', import.meta.url));
const SCHEMA_BASE = 'https://crawler-index.org/schemas/';

/** Every schema file, keyed by its path under schemas/ (`records/crawler.schema.json`). */
export function readSchemas(dir = SCHEMA_DIR): Map<string, Record<string, unknown>> {
  const schemas = new Map<string, Record<string, unknown>>();
  for (const folder of readdirSync(dir).sort()) {
    for (const name of readdirSync(join(dir, folder))
      .filter((n) => n.endsWith('.schema.json'))
      .sort()) {
      schemas.set(`${folder}/${name}`, JSON.parse(readFileSync(join(dir, folder, name), 'utf8')) as Record<string, unknown>);
    }
  }
  return schemas;
}

let shared: Ajv2020 | undefined;

/** The one ajv instance: all errors (not just the first), formats checked, every schema registered. */
function schemaRegistry(): Ajv2020 {
  if (shared) return shared;
  // strictRequired is off because it flags `required` inside if/then branches, which is how
  // the record schemas express "this field is needed when that one has this value".
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  for (const schema of readSchemas().values()) ajv.addSchema(schema);
  shared = ajv;
  return ajv;
}

/**
 * A schema that refers to no other, compiled alone: what a process that needs only this one
 * pays (the server reads its site settings) is a fraction of registering every schema. Its
 * meta-schema check is left to the registry, which every test and build uses.
 */
export function selfContainedValidator(schemaPath: string): ValidateFunction {
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, schemaPath), 'utf8')) as Record<string, unknown>;
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

export function validatorFor(schemaPath: string): ValidateFunction {
  const validate = schemaRegistry().getSchema(SCHEMA_BASE + schemaPath);
  if (!validate) throw new Error(`no schema registered at schemas/${schemaPath}`);
  return validate;
}

/** One line per error, with the JSON path that failed: what `check` prints and tests assert on. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined): { path: string; message: string }[] {
  return (errors ?? []).map((error) => {
    const detail =
      error.keyword === 'additionalProperties'
        ? `unknown field "${String(error.params['additionalProperty'])}"`
        : error.keyword === 'enum'
          ? `${error.message}: ${(error.params['allowedValues'] as unknown[]).join(', ')}`
          : (error.message ?? error.keyword);
    return { path: error.instancePath || '/', message: detail };
  });
}
