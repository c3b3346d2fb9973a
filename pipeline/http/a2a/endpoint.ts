import type { SiteSettings } from '../../records/types.ts';
import { intentOfData, type MessageParts } from '../../tools/intents.ts';
import type { ToolRun } from '../../tools/registry/call.ts';
import { answerIntent, type MessageRun } from '../../tools/registry/message-call.ts';
import { isRecord } from '../../util/guards.ts';
import { TOOLS } from '../../tools/registry/index.ts';
import type { CallContext } from '../../tools/registry/runner.ts';
import { ANSWER_FORM, MAX_ANSWER_BYTES } from '../../tools/registry/limits.ts';
import { relocationOf, sentTooLarge } from '../answer-size.ts';
import type { Relocation } from '../../util/relocate.ts';
import { readBody } from '../body.ts';
import { echoId, MAX_RPC_BODY_BYTES, parseJsonBody, payloadTooLarge, RPC, type RpcId } from '../jsonrpc.ts';
import { METHODS, requestedVersion, VERSIONS } from './methods.ts';
import { V03 } from './v03.ts';
import { V10 } from './v10.ts';
import { A2A_ERROR, problem, type AgentReply, type Binding, type Problem } from './wire.ts';
import type { Answerer } from '../answer-context.ts';
import { withMissingHeaders } from '../security.ts';
import { startToolCall, withBodyEtag, withRelocatedBody } from '../tool-call.ts';
import { href } from '../../paths.ts';

// POST /a2a: A2A's JSON-RPC binding in both generations on one URL, told apart by the method
// (SendMessage is 1.0, message/send is 0.3), as the agent card's two interfaces say. Which
// tool a message means is decided by tools/intents.ts; this module reads and answers the
// protocol. JSON-RPC errors travel with HTTP 200, as JSON-RPC over HTTP does; only an oversize
// body is refused by status.

function respond(id: RpcId, body: { result: unknown } | { error: { code: number; message: string; data?: unknown } }): { text: string; response: Response } {
  const text = JSON.stringify({ jsonrpc: '2.0', id, ...body });
  return { text, response: new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }) };
}

function failure(id: RpcId, binding: Binding, error: Problem): Response {
  const data = binding.errorData(error);
  return respond(id, { error: data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data } })
    .response;
}

/** A result, unless it is over the answer limit as it will be sent: then an error naming the limit, and the result is not sent. */
function reply(id: RpcId, binding: Binding, result: unknown, relocation?: Relocation): Response {
  const answer = respond(id, { result });
  const tooLarge = sentTooLarge(answer.text, relocation);
  if (tooLarge === null) return answer.response;
  return failure(
    id,
    binding,
    problem(RPC.invalidParams, 'ANSWER_TOO_LARGE', `Invalid params: ${tooLarge}`, { accepted: ANSWER_FORM, detail: { limit_bytes: MAX_ANSWER_BYTES } }),
  );
}

// --- reading the request -------------------------------------------------------------------

const invalidRequest = (message: string) => problem(RPC.invalidRequest, 'INVALID_REQUEST', `Invalid Request: ${message}`);

function readEnvelope(value: unknown): { id: RpcId; method: string; params: unknown } | Problem {
  if (Array.isArray(value)) return invalidRequest('batches are not supported; send one JSON-RPC request per POST.');
  if (!isRecord(value)) return invalidRequest('a JSON-RPC request must be an object.');
  if (value['jsonrpc'] !== '2.0') return invalidRequest('"jsonrpc" must be exactly "2.0".');
  if (typeof value['method'] !== 'string' || value['method'] === '') return invalidRequest('"method" must be a non-empty string.');
  if (!('id' in value)) return invalidRequest('"id" is missing; A2A requests expect an answer, so they are not notifications.');
  const id = value['id'];
  if (!(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))))
    return invalidRequest('"id" must be a string, a number JSON can carry back, or null.');
  if ('params' in value && (value['params'] === null || typeof value['params'] !== 'object')) return invalidRequest('"params" must be an object.');
  return { id: id as RpcId, method: value['method'], params: value['params'] };
}

// --- answering -------------------------------------------------------------------------------

function helpText(site: SiteSettings, reason: string): string {
  return [
    `${reason} I answer questions about web crawlers from ${site.name}. Send me:`,
    '- a User-Agent header, to learn which crawler it is (classify_user_agent);',
    '- one or more IP addresses, optionally with the crawler they claim to be ("66.249.66.1 Googlebot"), to check them against operator-published ranges (verify_batch);',
    '- a robots.txt file, to see which AI crawlers it blocks and lets in (audit_ai_access), or with a question such as "Can GPTBot fetch /search?" (check_path_allowed);',
    '- a crawler\'s name or robots.txt token ("what is GPTBot?"), for its record (crawler_markdown);',
    '- an operator\'s name ("which crawlers does OpenAI run?"), for its crawlers and how to verify each (verification_methods); add "block" to either for the robots.txt group that keeps them out;',
    '- what you want to block and keep ("block AI training but keep AI search"), for the ready-made policy that does it (policy_markdown);',
    '- "who am I", to see how this service sees your request (whoami).',
    `Any skill can also be called with a data part {"skill": "<id>", "input": {...}}; the skills are listed in ${site.base_url}${href('agent_card')}.`,
  ].join('\n');
}

/**
 * What the message asks for, answered: a data part that names or fits a tool is routed here
 * (it needs no data) and its tool run by the runner; words are read against the index by the
 * runner, which routes them and runs the tool in one job (tools/registry/message-call.ts).
 */
async function answered(message: MessageParts, context: CallContext): Promise<MessageRun> {
  const byData = intentOfData(message.data);
  if (byData === null) return context.runner.route({ texts: message.texts, caller: context.caller });
  return answerIntent(byData, context.caller, (job) => context.runner.run(job));
}

/** A run that never reached its tool, or whose thread failed it, as the JSON-RPC error it is; `name` is the tool, null when the message was never routed. */
function notRun(name: string | null, run: Extract<ToolRun, { status: 'unavailable' | 'failed' }>): Problem {
  const detail = { tool: name };
  if (run.status === 'unavailable') {
    return problem(RPC.serverError, 'UNAVAILABLE', `${name ?? 'The message'}: ${run.message}`, {
      detail: { ...detail, reason: run.reason, retry_after_seconds: run.retryAfterSeconds },
    });
  }
  return problem(RPC.internalError, 'INTERNAL', `${name ?? 'Reading the message'} failed on this input: ${run.message}`, { detail });
}

/** A tool's run that did not answer, as the JSON-RPC error it is. */
function notAnswered(name: string, run: Exclude<ToolRun, { status: 'answered' }>): Problem {
  switch (run.status) {
    case 'refused':
      return problem(RPC.invalidParams, 'INVALID_PARAMS', `Invalid params for ${name}: ${run.message} Accepted: ${run.accepted}.`, {
        field: run.field,
        accepted: run.accepted,
        detail: { tool: name },
      });
    case 'too-large':
      return problem(RPC.invalidParams, 'ANSWER_TOO_LARGE', `${name}: ${run.message}`, {
        accepted: ANSWER_FORM,
        detail: { tool: name, limit_bytes: MAX_ANSWER_BYTES },
      });
    default:
      return notRun(name, run);
  }
}

async function send(binding: Binding, id: RpcId, params: unknown, context: CallContext, site: SiteSettings): Promise<Response> {
  const message = binding.readMessage(params);
  if ('code' in message) return failure(id, binding, message);
  const answer = (content: Omit<AgentReply, 'contextId'>) =>
    reply(id, binding, binding.result({ contextId: message.contextId, ...content }), relocationOf(context));
  const routed = await answered(message, context);
  switch (routed.routed) {
    case 'invalid':
      return failure(
        id,
        binding,
        problem(RPC.invalidParams, 'INVALID_PARAMS', `Invalid params: ${routed.message}`, { field: routed.field, accepted: routed.accepted }),
      );
    case 'help':
      return answer({ text: helpText(site, routed.reason), data: { tool: null, skills: TOOLS.map((t) => t.name) }, tool: null });
    case 'not-run':
      return failure(id, binding, notRun(null, routed.run));
    case 'tool': {
      const { tool: name, note, run } = routed;
      if (run.status !== 'answered') return failure(id, binding, notAnswered(name, run));
      if (run.form !== 'structured') throw new Error(`${name}: the runner answered in the ${run.form} form, not structured`);
      return answer({
        text: note === undefined ? run.summary : `${note}\n\n${run.summary}`,
        data: { tool: name, input: run.input, output: run.output, ...(note === undefined ? {} : { note }) },
        tool: name,
      });
    }
  }
}

export async function handleA2a(request: Request, context: CallContext, site: SiteSettings): Promise<Response> {
  const body = await readBody(request, MAX_RPC_BODY_BYTES);
  if (!body.ok) return payloadTooLarge();
  // Until the method is known, errors take the current generation's shape.
  const parsed = parseJsonBody(body.bytes, V10.example);
  if (!parsed.ok) return failure(null, V10, problem(RPC.parseError, 'PARSE_ERROR', parsed.message));
  const envelope = readEnvelope(parsed.value);
  if ('code' in envelope) return failure(echoId(parsed.value), V10, envelope);
  const { id } = envelope;
  const method = METHODS.get(envelope.method);
  if (method === undefined) {
    const sends = [V10.sendMethod, V03.sendMethod];
    return failure(
      id,
      V10,
      problem(
        RPC.methodNotFound,
        'METHOD_NOT_FOUND',
        `Method not found: "${envelope.method}". This agent answers ${V10.sendMethod} (A2A 1.0) and ${V03.sendMethod} (A2A 0.3) on this URL, and creates no tasks.`,
        { accepted: sends },
      ),
    );
  }
  const { binding, answer } = method;
  if (requestedVersion(request) === null) {
    return failure(
      id,
      binding,
      problem(
        A2A_ERROR.versionNotSupported,
        'VERSION_NOT_SUPPORTED',
        `Version not supported: A2A-Version must be one of ${VERSIONS.join(', ')} (empty or absent means 0.3).`,
        {
          field: 'A2A-Version',
          accepted: VERSIONS,
        },
      ),
    );
  }
  switch (answer.kind) {
    case 'send':
      return send(binding, id, envelope.params, context, site);
    case 'result':
      return reply(id, binding, answer.value);
    case 'error':
      return failure(id, binding, answer.problem);
  }
}

/** POST /a2a: a message to the agent, answered by the tool it asks for (tools/intents.ts). */
export const answerA2a: Answerer<'a2a'> = async (how, asked, service) => {
  const context = await startToolCall(how, asked, service);
  if (context instanceof Response) return context;
  const answer = withMissingHeaders(await handleA2a(asked.request, context, asked.here), asked.headers);
  return withBodyEtag(await withRelocatedBody(answer, context.baseUrl, asked.here.base_url));
};
