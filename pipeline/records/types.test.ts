import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GENERATED, schemaTypes } from '../../scripts/schema-types.ts';
import { REPO } from '../../test/support/project.ts';
import type { PrefixFormat } from '../upstream/parse.ts';
import type { Category, PolicyId as SchemaPolicyId, Stance as SchemaStance, VerificationEntry } from './schema-types.ts';
import { POLICY_IDS, STANCES, VERIFICATION_METHODS, type CategoryId, type PolicyId, type SourceRow, type Stance, type VerificationMethod } from './types.ts';

// Checked by the type checker (npm test runs it): each list the code uses at run time names
// exactly what its schema allows, so a schema change that the code does not follow fails tsc.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agreements: [
  Same<CategoryId, Category>,
  Same<Stance, SchemaStance>,
  Same<VerificationMethod, VerificationEntry['method']>,
  Same<PolicyId, SchemaPolicyId>,
  Same<PrefixFormat, SourceRow['format']>,
] = [true, true, true, true, true];

test('pipeline/records/schema-types.ts is what scripts/schema-types.ts makes from the current schemas', async () => {
  assert.equal(readFileSync(GENERATED, 'utf8'), await schemaTypes(), 'run: npm run schema-types');
  assert.equal(agreements.length, 5);
});

test("the run-time lists hold the schemas' enums in the schemas' order", () => {
  const crawler = JSON.parse(readFileSync(join(REPO, 'schemas', 'records', 'crawler.schema.json'), 'utf8')) as { $defs: Record<string, { enum: string[] }> };
  assert.deepEqual([...STANCES], crawler.$defs['stance']?.enum);
  assert.deepEqual([...VERIFICATION_METHODS], crawler.$defs['verification']?.enum);
  const policies = readFileSync(join(REPO, 'schemas', 'records', 'policies.schema.json'), 'utf8');
  for (const id of POLICY_IDS) assert.ok(policies.includes(`"${id}"`), id);
});
