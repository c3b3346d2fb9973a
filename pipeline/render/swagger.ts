// Swagger 2.0 from the OpenAPI 3.1 description, for tools that read nothing newer. docs/API.md §9.3:
// served only while the conversion stays faithful. Faithful here means nothing is dropped:
// every operation, parameter, status and media type is carried; every schema keyword either
// has a Swagger 2.0 form or is carried verbatim as an `x-oas31-<keyword>` extension (with a
// 2.0 approximation beside it where one exists: `x-nullable`, a one-value `enum`, `example`),
// so the 3.1 schema can be rebuilt from the 2.0 one. Anything the converter does not know is a
// loss, and a conversion with a loss is not published.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface Conversion {
  document: JsonObject | null;
  /** Where and what the conversion could not carry; empty when it is faithful. */
  losses: string[];
}

export const EXTENSION_PREFIX = 'x-oas31-';

/** Keywords Swagger 2.0's Schema Object has with the same meaning, copied as they are. */
const SAME_IN_2_0 = new Set([
  'title',
  'description',
  'default',
  'format',
  'multipleOf',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'readOnly',
]);

/** Keywords 2.0 lacks whose value is one schema, a list of schemas, or a map of schemas. */
const SCHEMA_VALUED: ReadonlyMap<string, 'one' | 'list' | 'map'> = new Map([
  ['not', 'one'],
  ['if', 'one'],
  ['then', 'one'],
  ['else', 'one'],
  ['propertyNames', 'one'],
  ['contains', 'one'],
  ['oneOf', 'list'],
  ['anyOf', 'list'],
  ['prefixItems', 'list'],
  ['patternProperties', 'map'],
  ['dependentSchemas', 'map'],
]);

/** Keywords 2.0 lacks whose value holds no schema: carried as they are. */
const CARRIED = new Set(['const', 'examples', 'type', 'exclusiveMinimum', 'exclusiveMaximum', '$comment', 'dependentRequired', 'minContains', 'maxContains']);

const REF_3 = '#/components/schemas/';
const REF_2 = '#/definitions/';

function convertRef(ref: string, at: string, losses: string[]): string {
  if (ref.startsWith(REF_3)) return REF_2 + ref.slice(REF_3.length);
  if (ref.startsWith('#/components/responses/')) return `#/responses/${ref.slice('#/components/responses/'.length)}`;
  losses.push(`${at}: $ref ${ref} points outside components`);
  return ref;
}

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One JSON Schema (2020-12, as OpenAPI 3.1 uses it) as a Swagger 2.0 Schema Object. */
export function convertSchema(schema: Json, at: string, losses: string[]): Json {
  if (schema === true) return {};
  if (typeof schema === 'boolean') {
    losses.push(`${at}: the schema false has no Swagger 2.0 form`);
    return {};
  }
  if (!isObject(schema)) {
    losses.push(`${at}: not a schema`);
    return schema;
  }
  const out: JsonObject = {};
  const sub = (value: Json, key: string) => convertSchema(value, `${at}/${key}`, losses);
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out['$ref'] = convertRef(value, at, losses);
    else if (key === 'type' && typeof value === 'string' && value !== 'null') out[key] = value;
    else if (SAME_IN_2_0.has(key)) out[key] = value;
    else if (key.startsWith('x-')) out[key] = value;
    else if (key === 'properties' && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, sub(s, `properties/${name}`)]));
    else if (key === 'items' && isObject(value)) out[key] = sub(value, 'items');
    else if (key === 'additionalProperties') out[key] = typeof value === 'boolean' ? value : sub(value, key);
    // 2.0 has no form of it, and additionalProperties beside allOf would refuse what allOf allows,
    // so it is carried verbatim (a boolean as it is, a schema converted) for a 3.1 reader.
    else if (key === 'unevaluatedProperties') out[EXTENSION_PREFIX + key] = typeof value === 'boolean' ? value : sub(value, key);
    else if (key === 'allOf' && Array.isArray(value)) out[key] = value.map((s, i) => sub(s, `allOf/${i}`));
    else if (SCHEMA_VALUED.has(key)) out[EXTENSION_PREFIX + key] = convertSchemaValued(value, SCHEMA_VALUED.get(key)!, `${at}/${key}`, losses);
    else if (CARRIED.has(key) || key === 'items') {
      out[EXTENSION_PREFIX + key] = value;
      Object.assign(out, approximation(key, value));
    } else losses.push(`${at}: keyword ${key} has no Swagger 2.0 form`);
  }
  return out;
}

function convertSchemaValued(value: Json, shape: 'one' | 'list' | 'map', at: string, losses: string[]): Json {
  if (shape === 'one') return convertSchema(value, at, losses);
  if (shape === 'list' && Array.isArray(value)) return value.map((s, i) => convertSchema(s, `${at}/${i}`, losses));
  if (shape === 'map' && isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, s]) => [k, convertSchema(s, `${at}/${k}`, losses)]));
  losses.push(`${at}: unexpected value`);
  return value;
}

/** The 2.0 keywords written beside a carried one, so 2.0 tools still see most of its meaning. */
function approximation(key: string, value: Json): JsonObject {
  switch (key) {
    case 'type': {
      if (!Array.isArray(value)) return { type: value };
      const others = value.filter((t) => t !== 'null');
      if (others.length !== 1) return {};
      return { type: others[0]!, ...(others.length < value.length ? { 'x-nullable': true } : {}) };
    }
    case 'const':
      return { enum: [value] };
    case 'examples':
      return Array.isArray(value) && value.length > 0 ? { example: value[0]! } : {};
    case 'exclusiveMinimum':
      return typeof value === 'number' ? { minimum: value, exclusiveMinimum: true } : {};
    case 'exclusiveMaximum':
      return typeof value === 'number' ? { maximum: value, exclusiveMaximum: true } : {};
    default:
      return {};
  }
}

/** Parameter schema keywords a 2.0 query or path parameter takes inline. */
const PARAMETER_FIELDS = new Set([
  'type',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'format',
]);

function convertParameter(parameter: JsonObject, at: string, losses: string[]): JsonObject {
  const { schema, style, explode, ...rest } = parameter;
  const out: JsonObject = { ...rest };
  if (parameter['in'] !== 'query' && parameter['in'] !== 'path') losses.push(`${at}: a parameter in ${String(parameter['in'])}`);
  for (const [key, value] of Object.entries(isObject(schema) ? schema : {})) {
    if (PARAMETER_FIELDS.has(key) && !(key === 'type' && Array.isArray(value)))
      out[key] = key === 'items' ? convertSchema(value, `${at}/items`, losses) : value;
    else if (key === 'examples' && Array.isArray(value)) out['x-example'] = value[0] ?? null;
    else if (key === 'description') out['description'] ??= value;
    else losses.push(`${at}: parameter schema keyword ${key}`);
  }
  if (out['type'] === 'array') {
    if (style === 'form' && explode === true) out['collectionFormat'] = 'multi';
    else if (style !== undefined || explode !== undefined) losses.push(`${at}: array style ${String(style)}/${String(explode)}`);
  }
  return out;
}

function convertResponse(response: JsonObject, at: string, losses: string[], produces: Set<string>): JsonObject {
  if (typeof response['$ref'] === 'string') return { $ref: convertRef(response['$ref'], at, losses) };
  const out: JsonObject = { description: response['description'] ?? '' };
  const content = isObject(response['content']) ? response['content'] : {};
  const schemas = Object.entries(content).map(([type, media]) => {
    produces.add(type);
    return JSON.stringify(isObject(media) ? (media['schema'] ?? null) : null);
  });
  // 2.0 gives a response one schema whatever the media type: distinct schemas cannot be carried.
  if (new Set(schemas).size > 1) losses.push(`${at}: media types with different schemas`);
  const first = Object.values(content)[0];
  if (isObject(first) && first['schema'] !== undefined) out['schema'] = convertSchema(first['schema'], `${at}/schema`, losses);
  return out;
}

function convertOperation(operation: JsonObject, at: string, losses: string[]): JsonObject {
  const produces = new Set<string>();
  const consumes: string[] = [];
  const parameters = (Array.isArray(operation['parameters']) ? operation['parameters'] : []).map((p, i) =>
    convertParameter(isObject(p) ? p : {}, `${at}/parameters/${i}`, losses),
  );
  const body = operation['requestBody'];
  if (isObject(body)) {
    const content = isObject(body['content']) ? body['content'] : {};
    const [type, media] = Object.entries(content)[0] ?? [];
    if (Object.keys(content).length !== 1 || type === undefined) losses.push(`${at}/requestBody: not exactly one media type`);
    else {
      consumes.push(type);
      parameters.push({
        name: 'body',
        in: 'body',
        required: body['required'] === true,
        description: body['description'] ?? '',
        schema: convertSchema(isObject(media) ? (media['schema'] ?? {}) : {}, `${at}/requestBody/schema`, losses),
      });
    }
  }
  const responses = Object.fromEntries(
    Object.entries(isObject(operation['responses']) ? operation['responses'] : {}).map(([status, r]) => [
      status,
      convertResponse(isObject(r) ? r : {}, `${at}/responses/${status}`, losses, produces),
    ]),
  );
  const { requestBody: _body, parameters: _parameters, responses: _responses, ...rest } = operation;
  return { ...rest, ...(consumes.length > 0 ? { consumes } : {}), produces: [...produces].sort(), parameters, responses };
}

/** The whole document. `servers[0]` becomes host and basePath; the others are carried as x-servers. */
export function toSwagger2(description: object): Conversion {
  // A JSON document (what the OpenAPI renderer builds, or a parsed file): read as JSON values.
  const openapi = description as JsonObject;
  const losses: string[] = [];
  const info = isObject(openapi['info']) ? openapi['info'] : {};
  const servers = Array.isArray(openapi['servers']) ? openapi['servers'].filter(isObject) : [];
  const first = new URL(String(servers[0]?.['url'] ?? 'https://localhost'));
  const components = isObject(openapi['components']) ? openapi['components'] : {};
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  const responses = isObject(components['responses']) ? components['responses'] : {};
  const license = isObject(info['license']) ? info['license'] : {};
  const paths = Object.fromEntries(
    Object.entries(isObject(openapi['paths']) ? openapi['paths'] : {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(isObject(item) ? item : {}).map(([method, op]) => [method, convertOperation(isObject(op) ? op : {}, `paths/${path}/${method}`, losses)]),
      ),
    ]),
  );
  const document: JsonObject = {
    swagger: '2.0',
    info: {
      title: info['title'] ?? '',
      version: info['version'] ?? '',
      description: [info['summary'], info['description']].filter((t) => typeof t === 'string').join(' '),
      license: { name: license['identifier'] ?? license['name'] ?? '' },
      'x-converted-from': `OpenAPI ${String(openapi['openapi'])}: every schema keyword Swagger 2.0 lacks is carried as ${EXTENSION_PREFIX}<keyword>; nullable types as x-nullable.`,
    },
    host: first.host,
    basePath: first.pathname === '' ? '/' : first.pathname,
    schemes: [first.protocol.replace(':', '')],
    ...(servers.length > 1 ? { 'x-servers': servers } : {}),
    security: [],
    paths,
    definitions: Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, convertSchema(s, `definitions/${name}`, losses)])),
    responses: Object.fromEntries(
      Object.entries(responses).map(([name, r]) => [name, convertResponse(isObject(r) ? r : {}, `responses/${name}`, losses, new Set())]),
    ),
  };
  return losses.length === 0 ? { document, losses } : { document: null, losses };
}
