import { ATTRIBUTION_PARAM, inputSchema } from '../tools/registry/input.ts';
import { MCP_SERVERS, TOOLS } from '../tools/registry/index.ts';
import type { ParamSpec, ToolDefinition, ToolInput } from '../tools/registry/types.ts';
import { toolHref } from '../paths.ts';
import { routeOf, toolRouteKey } from '../routes.ts';
import { REQUEST_HEAD_BYTES, TRANSPORT_REFUSALS } from './error-catalog.ts';

/** A parameter's description as the HTTP surfaces show it: with how to send it over HTTP. */
export function httpDescription(param: ParamSpec): string {
  return param.http === undefined ? param.description : `${param.description} ${param.http}`;
}

/** A GET URL that runs the example (lists become repeated parameters). */
function exampleUrl(baseUrl: string, tool: ToolDefinition, input: ToolInput): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) for (const v of Array.isArray(value) ? value : [value ?? '']) params.append(name, v);
  const query = params.toString();
  return `${baseUrl}${toolHref(tool, 'endpoint')}${query ? `?${query}` : tool.runsWithoutParams ? '' : `?${ATTRIBUTION_PARAM.name}=example`}`;
}

/** The machine specification of one tool: /tools/<path>.json and the no-parameter answer. */
export function toolSpec(baseUrl: string, tool: ToolDefinition) {
  const methods = tool.postBody ? ['GET', 'HEAD', 'POST', 'OPTIONS'] : ['GET', 'HEAD', 'OPTIONS'];
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    http:
      tool.path === null
        ? null
        : {
            url: `${baseUrl}${toolHref(tool, 'endpoint')}`,
            methods,
            post_body: tool.postBody
              ? `The raw request body is ${tool.postBody}, with the other parameters in the query string; or a form (urlencoded or multipart) holding ${tool.postBody} and the other parameters. ` +
                `A GET whose request head (URL and headers) is over ${REQUEST_HEAD_BYTES} bytes is answered 431 headers_too_large: send long input (a robots.txt, long paths) this way.`
              : null,
            parameters: [
              ...tool.params.map((p) => ({
                name: p.name,
                in: 'query',
                required: p.required,
                repeatable: p.kind === 'list',
                description: httpDescription(p),
                accepted: p.accepted,
                ...(p.maxBytes !== undefined ? { max_bytes: p.maxBytes } : {}),
                ...(p.maxItems !== undefined ? { max_items: p.maxItems } : {}),
                ...(p.maxItemBytes !== undefined ? { max_item_bytes: p.maxItemBytes } : {}),
                ...(p.default !== undefined ? { default: p.default } : {}),
              })),
              {
                name: ATTRIBUTION_PARAM.name,
                in: 'query',
                required: false,
                repeatable: false,
                description: ATTRIBUTION_PARAM.description,
                accepted: ATTRIBUTION_PARAM.accepted,
              },
            ],
            no_parameters: tool.runsWithoutParams ? 'answers for real; ?spec=1 returns this specification' : 'returns this specification',
            // The tool's own statuses and the transport's refusals of an over-long or slow request head.
            statuses: [...new Set([...routeOf(toolRouteKey(tool.name, 'endpoint')).statuses, ...TRANSPORT_REFUSALS])].sort((a, b) => a - b),
            form: `${baseUrl}${toolHref(tool, 'form')}`,
            spec: `${baseUrl}${toolHref(tool, 'spec')}`,
          },
    mcp: MCP_SERVERS.filter((s) => s.tools.includes(tool.name)).map((s) => `${baseUrl}${s.path}`),
    input_schema: inputSchema(tool),
    output_schema: tool.outputSchema,
    examples: tool.examples.map((e) => ({
      description: e.description,
      input: e.input,
      ...(tool.path !== null ? { url: exampleUrl(baseUrl, tool, e.input) } : {}),
    })),
  };
}

export function toolIndex(baseUrl: string) {
  return {
    count: TOOLS.length,
    note: 'Keyless. Every tool with an http block is a GET (some also POST) endpoint; every tool is also on the MCP servers listed.',
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      endpoint: t.path === null ? null : `${baseUrl}${toolHref(t, 'endpoint')}`,
      spec: t.path === null ? null : `${baseUrl}${toolHref(t, 'spec')}`,
      form: t.path === null ? null : `${baseUrl}${toolHref(t, 'form')}`,
      mcp: MCP_SERVERS.filter((s) => s.tools.includes(t.name)).map((s) => `${baseUrl}${s.path}`),
    })),
    mcp_servers: MCP_SERVERS.map((s) => ({ url: `${baseUrl}${s.path}`, name: s.name, description: s.description, tools: s.tools })),
  };
}
