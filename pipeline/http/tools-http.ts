import type { ToolRun } from '../tools/registry/call.ts';
import type { ToolRunner } from '../tools/registry/runner.ts';
import { clientRecord, fromSearchParams, notUtf8, notUtf8Parameter } from '../tools/registry/input.ts';
import { toolSpec } from '../contract/tool-spec.ts';
import type { Caller, ToolDefinition } from '../tools/registry/types.ts';
import { ANSWER_FORM, answerTooLarge } from '../tools/registry/limits.ts';
import { errorResponse } from './errors.ts';
import { readBody } from './body.ts';
import { toolBody } from './form-body.ts';
import { jsonBytesDocument, jsonDocument, type StoredDocument } from './store.ts';
import { unavailableAnswer } from './unavailable.ts';
import { toolHref } from '../paths.ts';
import { relocationOf } from './answer-size.ts';
import { toolErrorReport, toolReport } from '../render/tool-reports.ts';
import { etagOfWeb } from '../util/etag-rule.ts';
import type { Answerer } from './answer-context.ts';
import { documentResponse } from './document-answer.ts';
import { prefersHtml } from './negotiate.ts';
import { startToolCall } from './tool-call.ts';
import { toolByName } from '../tools/registry/index.ts';

export interface ToolCall {
  tool: ToolDefinition;
  request: Request;
  url: URL;
  /** The base URL of the build being served (http/served-build.ts). */
  baseUrl: string;
  caller: Caller;
  runner: ToolRunner;
  generatedAt: string;
  headers: Record<string, string>;
  /** The origin the client used (http/origin.ts): every address in the answer names it. */
  origin: string;
}

/** Parameters that steer the endpoint rather than the tool. */
const CONTROL_PARAMS = new Set(['spec']);

/**
 * GET /tools/<path>: no parameters at all → the tool's specification (200), unless the tool
 * answers without input; ?spec=1 → the specification. POST (robots.txt tools): the raw body
 * is the robots.txt. Bad input → 400 naming the field and the accepted form; an oversize body → 413.
 */
export async function callTool(call: ToolCall): Promise<{ document: StoredDocument; answered: boolean } | { response: Response }> {
  const { tool, request, url, baseUrl, caller, runner, generatedAt, headers, origin } = call;
  const path = toolHref(tool, 'endpoint');
  const undecodable = notUtf8Parameter(url.search, tool.postBody);
  if (undecodable !== null) {
    const { field, message, accepted } = notUtf8(undecodable);
    return { response: errorResponse(400, { code: 'invalid_parameter', message, field, accepted }, headers) };
  }
  const params = fromSearchParams(url.searchParams);
  const specWanted = url.searchParams.get('spec');
  if (specWanted !== null && specWanted !== '1') {
    return {
      response: errorResponse(
        400,
        {
          code: 'invalid_parameter',
          message: `spec=${JSON.stringify(specWanted)} is not understood.`,
          field: 'spec',
          accepted: 'spec=1 (returns the specification)',
        },
        headers,
      ),
    };
  }
  const toolParams = clientRecord<string | string[]>();
  for (const [name, value] of Object.entries(params)) if (!CONTROL_PARAMS.has(name)) toolParams[name] = value;
  const noInput = Object.keys(params).length === 0 && request.method !== 'POST';
  if (specWanted === '1' || (noInput && !tool.runsWithoutParams)) {
    return { document: await jsonDocument(path, toolSpec(origin, tool), generatedAt), answered: false };
  }
  if (request.method === 'POST' && tool.postBody) {
    if (tool.postBody in toolParams) {
      return {
        response: errorResponse(
          400,
          {
            code: 'invalid_parameter',
            message: `${tool.postBody} is the POST body; do not also send it in the query string.`,
            field: tool.postBody,
            accepted: `the raw ${tool.postBody} as the request body`,
          },
          headers,
        ),
      };
    }
    // The body is the parameter it fills, so the parameter's own size limit bounds it.
    const bodyParam = tool.params.find((p) => p.name === tool.postBody);
    const limit = bodyParam?.maxBytes;
    if (limit === undefined) throw new Error(`${tool.name}: its POST body parameter ${tool.postBody} declares no maxBytes`);
    const body = await readBody(request, limit);
    if (!body.ok)
      return {
        response: errorResponse(
          413,
          {
            code: 'payload_too_large',
            message: `The body is larger than ${limit} bytes.`,
            field: tool.postBody,
            accepted: bodyParam?.accepted ?? `at most ${limit} bytes`,
          },
          headers,
        ),
      };
    // The raw file, or a form's fields (an HTML form, an upload); a BOM is kept either way so
    // that the linter reports it as it does for a GET parameter.
    const emptyIsValue = tool.params.filter((p) => p.emptyIsValue && p.name !== tool.postBody).map((p) => p.name);
    const posted = await toolBody(body.bytes, request.headers.get('content-type'), tool.postBody, emptyIsValue);
    if (!posted.ok)
      return {
        response: errorResponse(
          400,
          { code: 'invalid_parameter', message: posted.message, field: posted.field ?? tool.postBody, accepted: posted.accepted },
          headers,
        ),
      };
    for (const [name, value] of Object.entries(posted.fields)) {
      if (name in toolParams)
        return {
          response: errorResponse(
            400,
            {
              code: 'invalid_parameter',
              message: `${name} is given both in the query string and in the form; send it once.`,
              field: name,
              accepted: 'each parameter once',
            },
            headers,
          ),
        };
      toolParams[name] = value;
    }
  }
  const documentation = `${origin}${path}.json`;
  // The thread that runs the tool writes the client's origin into the answer and measures it as sent.
  const relocation = relocationOf({ baseUrl, origin });
  const run: ToolRun = await runner.run({ tool: tool.name, params: toolParams, caller, source: 'query', form: 'json', ...(relocation ? { relocation } : {}) });
  switch (run.status) {
    case 'answered': {
      if (run.form !== 'json') throw new Error(`${tool.name}: the runner answered in the ${run.form} form, not json`);
      return { document: await jsonBytesDocument(path, run.bytes, generatedAt, run.etag), answered: true };
    }
    case 'refused':
      return {
        response: errorResponse(400, { code: 'invalid_parameter', message: run.message, field: run.field, accepted: run.accepted, documentation }, headers),
      };
    case 'too-large':
      // Measured before hashing: an answer over the limit is refused, not sent.
      return { response: errorResponse(400, { code: 'answer_too_large', message: run.message, accepted: ANSWER_FORM, documentation }, headers) };
    case 'unavailable':
      return { response: unavailableAnswer(run, headers) };
    case 'failed':
      // The handler turns this into its logged 500, as for any fault.
      throw new Error(`${tool.name} failed: ${run.detail}`);
  }
}

/**
 * A tool's endpoint (docs/API.md §4.5). A browser that submitted the tool's form reads the
 * answer, or the refusal, as a page with the way back to the form; programs keep the JSON.
 */
export const answerTool: Answerer<'tool'> = async (how, asked, service) => {
  const { request, url, headers, here } = asked;
  const context = await startToolCall(how, asked, service);
  if (context instanceof Response) return context;
  const tool = toolByName(how.tool)!;
  // An answer about the caller is theirs alone: no shared cache keeps it, and it has no date
  // another caller's If-Modified-Since could match; its ETag covers bytes that name the caller (docs/API.md §5.2).
  const forCaller = tool.answersForCaller === true;
  const answerHeaders = { ...headers, 'cache-control': forCaller ? 'private, no-cache' : 'no-cache', vary: 'Accept, Accept-Encoding' };
  const dated = { dated: !forCaller };
  const result = await callTool({ tool, request, url, ...context, generatedAt: await service.store.generatedAt(), headers, origin: here.base_url });
  const wantsPage = prefersHtml(request.headers.get('accept'));
  const form = toolHref(tool, 'form');
  const pageRefusal = (detail: { message: string; field?: string; accepted?: string }) =>
    new Response(toolErrorReport(here, form, detail), {
      status: 400,
      headers: { ...answerHeaders, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });
  if ('response' in result) {
    const refused = result.response;
    if (refused.status === 400 && /json/.test(refused.headers.get('content-type') ?? '') && wantsPage)
      return pageRefusal(((await refused.json()) as { error: { message: string; field?: string; accepted?: string } }).error);
    return refused;
  }
  // The answer's bytes came from the runner, which takes them back once they are sent.
  const answerBytes = result.answered ? result.document.bytes : null;
  const release = () => {
    if (answerBytes !== null) service.runner.release?.([answerBytes]);
  };
  if (!result.answered || !wantsPage) return documentResponse(result.document, request, answerHeaders, { ...dated, onSent: release });
  const output = JSON.parse(new TextDecoder().decode(result.document.bytes)) as unknown;
  release();
  const bytes = new TextEncoder().encode(toolReport(here, tool, form, output));
  // The report lays the answer out in tables: the answer limit holds for the page as sent too.
  const tooLarge = answerTooLarge(bytes.length);
  if (tooLarge !== null) return pageRefusal({ message: tooLarge, accepted: ANSWER_FORM });
  const report = {
    path: result.document.path,
    bytes,
    type: 'text/html; charset=utf-8',
    etag: await etagOfWeb(bytes),
    lastModified: result.document.lastModified,
  };
  return documentResponse(report, request, answerHeaders, dated);
};
