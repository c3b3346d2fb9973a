import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from '../../test/support/project.ts';
import { contentTypeFinding } from './attempt.ts';
import { FORMATS } from './parse.ts';

/** The first `enum` found under `key` anywhere in a JSON Schema. */
function enumOf(schema: unknown, key: string): unknown[] | null {
  if (schema === null || typeof schema !== 'object') return null;
  for (const [name, value] of Object.entries(schema)) {
    if (name === key && value !== null && typeof value === 'object' && Array.isArray((value as { enum?: unknown }).enum))
      return (value as { enum: unknown[] }).enum;
    const inner = enumOf(value, key);
    if (inner !== null) return inner;
  }
  return null;
}

test('every schema that names upstream formats names exactly the formats of FORMATS', () => {
  for (const file of ['records/sources.schema.json', 'outputs/ip-sources.schema.json', 'outputs/ip-ranges.schema.json']) {
    const schema = JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')) as unknown;
    assert.deepEqual(enumOf(schema, 'format'), Object.keys(FORMATS), file);
  }
});

test('a response labelled with another media type is reported, with the one expected', () => {
  assert.equal(contentTypeFinding('prefix-json', 'application/json; charset=utf-8'), null);
  assert.equal(contentTypeFinding('csv', 'text/plain'), null);
  assert.match(contentTypeFinding('prefix-json-html', 'application/json') ?? '', /expected text\/html/);
  assert.match(contentTypeFinding('text', null) ?? '', /no Content-Type; expected text\/plain/);
});
