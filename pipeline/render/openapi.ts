import type { Model } from '../model/model.ts';
import { href, API_PREFIX } from '../paths.ts';
import { type Route, routes } from '../routes.ts';
import { toolByName } from '../tools/registry/index.ts';
import { ATTRIBUTION_PARAM, inputSchema } from '../tools/registry/input.ts';
import type { ToolDefinition } from '../tools/registry/types.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { statusMeaning, TRANSPORT_REFUSALS } from '../contract/error-catalog.ts';
import { httpDescription } from '../contract/tool-spec.ts';
import { bundleSchemas } from './schema-bundle.ts';
import { toSwagger2 } from './swagger.ts';
import { stringify } from 'yaml';

// The JSON-RPC 2.0 envelopes MCP and A2A speak; what goes inside params and result is each
// protocol's own (the MCP and A2A specifications), not restated here.
const JSON_RPC_ID = { type: ['string', 'integer', 'null'], description: 'The request id, echoed in the answer' };
const JSON_RPC_REQUEST = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: { jsonrpc: { const: '2.0' }, id: JSON_RPC_ID, method: { type: 'string' }, params: { type: 'object' } },
};
const JSON_RPC_RESPONSE = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: JSON_RPC_ID,
    result: { type: 'object' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorContent = { 'application/json': { schema: ref('error') } };

function responseBody(route: Route, tool: ToolDefinition | undefined): Record<string, unknown> {
  const schema = tool
    ? tool.outputSchema
    : route.schema
      ? ref(route.schema)
      : route.type.startsWith('application/json')
        ? { type: 'object' }
        : { type: 'string' };
  return { [route.type.split(';')[0]!]: { schema } };
}

// Written out in each operation rather than as $refs to components/responses: some validators
// read a Reference Object's $ref as an absolute URI and refuse the local form.
const transportResponses = () =>
  Object.fromEntries(TRANSPORT_REFUSALS.map((status) => [String(status), { description: statusMeaning(status), content: errorContent }]));

function responses(route: Route, tool: ToolDefinition | undefined) {
  return {
    ...Object.fromEntries(
      route.statuses.map((status) => [
        String(status),
        {
          description: statusMeaning(status),
          ...(status === 200 ? { content: responseBody(route, tool) } : status >= 400 ? { content: errorContent } : {}),
        },
      ]),
    ),
    ...transportResponses(),
  };
}

function parameters(route: Route, tool: ToolDefinition | undefined) {
  const list: Record<string, unknown>[] = [];
  if (route.parameter)
    list.push({ name: route.parameter.name, in: 'path', required: true, description: `Values: ${route.parameter.values_from}`, schema: { type: 'string' } });
  for (const q of route.query ?? []) list.push({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema });
  if (tool) {
    const properties = (inputSchema(tool) as { properties: Record<string, Record<string, unknown>> }).properties;
    for (const param of tool.params) {
      list.push({
        name: param.name,
        in: 'query',
        required: param.required && param.name !== tool.postBody,
        description: `${httpDescription(param)} Accepted: ${param.accepted}`,
        schema: param.kind === 'list' ? { type: 'array', items: { type: 'string' }, maxItems: param.maxItems } : properties[param.name],
        ...(param.kind === 'list' ? { style: 'form', explode: true } : {}),
      });
    }
    list.push({ name: ATTRIBUTION_PARAM.name, in: 'query', required: false, description: ATTRIBUTION_PARAM.description, schema: { type: 'string' } });
  }
  return list;
}

/**
 * The operations of a route at one of its paths. An alias (`/docs`, `/`) answers the same and
 * is described the same, with an operationId of its own and a summary naming where it leads.
 */
function operations(route: Route, alias?: string) {
  const tool = route.answer.by === 'tool' ? toolByName(route.answer.tool) : undefined;
  const ops: Record<string, unknown> = {};
  const id = alias === undefined ? route.key : `${route.key}_via_${alias.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'root'}`;
  const summary =
    alias === undefined
      ? route.returns
      : `Another address of ${route.canonical ?? route.path}${route.canonical !== undefined ? ', named in Link: rel=canonical' : ''}: ${route.returns}`;
  const base = { summary, parameters: parameters(route, tool), responses: responses(route, tool) };
  if (route.methods.includes('GET')) ops['get'] = { ...base, operationId: `get_${id}` };
  if (route.methods.includes('POST')) {
    const body = tool?.postBody
      ? { required: true, description: `The raw ${tool.postBody}`, content: { 'text/plain': { schema: { type: 'string' } } } }
      : {
          required: true,
          description:
            route.answer.by === 'mcp'
              ? 'A JSON-RPC 2.0 request (MCP Streamable HTTP; send accept: application/json, text/event-stream)'
              : 'A JSON-RPC 2.0 request: SendMessage (A2A 1.0, send A2A-Version: 1.0) or message/send (A2A 0.3)',
          content: { 'application/json': { schema: JSON_RPC_REQUEST } },
        };
    ops['post'] = {
      ...base,
      operationId: `post_${id}`,
      requestBody: body,
      responses: tool ? responses(route, tool) : rpcResponses(route),
    };
  }
  return ops;
}

/** The statuses an MCP or A2A route lists: JSON-RPC bodies for 200 and 400, the error shape for the transport's refusals. */
function rpcResponses(route: Route) {
  const rpc = { 'application/json': { schema: JSON_RPC_RESPONSE } };
  const described: Record<number, Record<string, unknown>> = {
    200: { description: 'A JSON-RPC 2.0 response: a result, or an error object for a request it could read', content: rpc },
    400: { description: 'A JSON-RPC 2.0 error for a request it could not read: unparseable JSON, a batch, a malformed envelope', content: rpc },
  };
  return {
    ...Object.fromEntries(route.statuses.map((status) => [String(status), described[status] ?? { description: statusMeaning(status), content: errorContent }])),
    ...transportResponses(),
  };
}

/**
 * The aliases described as paths of their own. A folder form with a trailing slash (`/tools/`)
 * is left to its slashless twin: OpenAPI tools treat both as one path (Redocly refuses the
 * slash), and the summary of the route says it exists.
 */
export function describedAliases(route: Route): readonly string[] {
  return (route.aliases ?? []).filter((alias) => alias === '/' || !alias.endsWith('/'));
}

/** OpenAPI 3.1, generated from the route table, the tool registry and the output schemas. */
function openApiDocument(model: Model, stamp: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: `${model.site.name} API`,
      version: stamp.slice(0, 10),
      summary: 'Read-only, keyless index of web crawlers.',
      description:
        'info.version is the date this description last changed; the shape is v1 and every path is also served under /api/v1/. Every response has a strong ETag and Last-Modified; If-None-Match and If-Modified-Since give 304. The exception is /tools/whoami, which describes its caller: a private answer with an ETag over its bytes and no Last-Modified. CORS is open.',
      license: { name: 'CC0-1.0', identifier: 'CC0-1.0' },
    },
    servers: [{ url: model.site.base_url }, { url: `${model.site.base_url}${API_PREFIX}` }],
    // Nothing needs a key; /hits.json checks its export key itself and says so in its description.
    security: [],
    paths: Object.fromEntries(
      routes().flatMap((route) => [
        [route.path, operations(route)] as const,
        ...describedAliases(route).map((alias) => [alias, operations(route, alias)] as const),
      ]),
    ),
    components: {
      // Output schemas under their own names, the record schemas they use as record.<name>,
      // every $defs entry as a component of its own: all refs are local to this document.
      schemas: bundleSchemas(model.schemas),
    },
  };
}

export function renderOpenApi(model: Model): RenderedFile[] {
  // Three files, each rendered at up to two stamps, read one description per stamp: building it
  // walks every route and bundles every schema. Nothing that writes a file changes it.
  const described = new Map<string, ReturnType<typeof openApiDocument>>();
  const documentAt = (stamp: string) => {
    let document = described.get(stamp);
    if (document === undefined) {
      document = openApiDocument(model, stamp);
      described.set(stamp, document);
    }
    return document;
  };
  const files: RenderedFile[] = [
    { path: href('openapi'), kind: 'openapi', body: (stamp) => canonicalJson(documentAt(stamp)) },
    { path: href('openapi_yaml'), kind: 'openapi', body: (stamp) => stringify(documentAt(stamp), { lineWidth: 0, aliasDuplicateObjects: false }) },
  ];
  // Published only while faithful (docs/API.md §9.3); the losses are the build's to report, not a reason to fail it.
  const probe = toSwagger2(openApiDocument(model, '1970-01-01'));
  if (probe.document !== null)
    files.push({
      path: href('swagger'),
      kind: 'openapi',
      body: (stamp) => canonicalJson(toSwagger2(documentAt(stamp)).document),
    });
  return files;
}
