import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { convertSchema, toSwagger2 } from './swagger.ts';

const description = (schema: unknown, operation: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '2026-01-01', license: { name: 'CC0-1.0', identifier: 'CC0-1.0' } },
  servers: [{ url: 'https://index.example' }],
  paths: { '/a.json': { get: { operationId: 'a', responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } }, ...operation } } },
  components: { schemas: { thing: schema } },
});

test('a schema keyword Swagger 2.0 cannot carry makes the conversion unpublished, and names where', () => {
  const result = toSwagger2(description({ type: 'array', unevaluatedItems: false }));
  assert.equal(result.document, null);
  assert.ok(result.losses.some((l) => l.includes('unevaluatedItems') && l.startsWith('definitions/thing')));
});

test('unevaluatedProperties is carried verbatim, never as additionalProperties beside allOf', () => {
  const schema = { type: 'object', allOf: [{ $ref: '#/components/schemas/base' }], unevaluatedProperties: false };
  const losses: string[] = [];
  assert.deepEqual(convertSchema(schema, 'thing', losses), { type: 'object', allOf: [{ $ref: '#/definitions/base' }], 'x-oas31-unevaluatedProperties': false });
  assert.deepEqual(losses, []);
});

test('a cookie parameter, a body in two shapes, or the schema false is a loss', () => {
  const cookie = toSwagger2(description({ type: 'string' }, { parameters: [{ name: 'c', in: 'cookie', schema: { type: 'string' } }] }));
  assert.ok(cookie.losses.some((l) => l.includes('cookie')));
  const twoShapes = toSwagger2(
    description(
      {},
      {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } }, 'text/csv': { schema: { type: 'string' } } } },
        },
      },
    ),
  );
  assert.ok(twoShapes.losses.some((l) => l.includes('different schemas')));
  const losses: string[] = [];
  convertSchema({ properties: { never: false } }, 'x', losses);
  assert.deepEqual(losses, ['x/properties/never: the schema false has no Swagger 2.0 form']);
});

test('3.1-only keywords are carried as extensions beside their nearest 2.0 form', () => {
  const losses: string[] = [];
  const converted = convertSchema(
    {
      type: ['string', 'null'],
      const: 'x',
      examples: ['x'],
      oneOf: [{ $ref: '#/components/schemas/other' }, { type: 'integer', exclusiveMinimum: 0 }],
    },
    'x',
    losses,
  );
  assert.deepEqual(losses, []);
  assert.deepEqual(converted, {
    'x-oas31-type': ['string', 'null'],
    type: 'string',
    'x-nullable': true,
    'x-oas31-const': 'x',
    enum: ['x'],
    'x-oas31-examples': ['x'],
    example: 'x',
    'x-oas31-oneOf': [{ $ref: '#/definitions/other' }, { type: 'integer', 'x-oas31-exclusiveMinimum': 0, minimum: 0, exclusiveMinimum: true }],
  });
});

test('servers, security and the request body become host, basePath, security and a body parameter', () => {
  const result = toSwagger2({
    ...description({ type: 'string' }),
    servers: [{ url: 'https://index.example/sub' }, { url: 'https://index.example/sub/api/v1' }],
    paths: {
      '/t': {
        post: {
          requestBody: { required: true, description: 'raw', content: { 'text/plain': { schema: { type: 'string' } } } },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  });
  assert.deepEqual(result.losses, []);
  const document = result.document!;
  assert.equal(document['host'], 'index.example');
  assert.equal(document['basePath'], '/sub');
  assert.deepEqual(document['x-servers'], [{ url: 'https://index.example/sub' }, { url: 'https://index.example/sub/api/v1' }]);
  const post = (document['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/t']!['post']!;
  assert.deepEqual(post['consumes'], ['text/plain']);
  assert.deepEqual(post['parameters'], [{ name: 'body', in: 'body', required: true, description: 'raw', schema: { type: 'string' } }]);
});
