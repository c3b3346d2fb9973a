import type { SiteSettings } from '../records/types.ts';
import { intentOf, type MessageParts } from '../tools/intents.ts';
import { isRecord } from '../util/guards.ts';
import { TOOLS } from '../tools/registry/index.ts';
import type { CallContext } from '../tools/registry/call.ts';
import { ANSWER_FORM, MAX_ANSWER_BYTES, textTooLarge } from '../tools/registry/limits.ts';
import { readBody } from './body.ts';
import { echoId, MAX_RPC_BODY_BYTES, parseJsonBody, payloadTooLarge, RPC, type RpcId } from './jsonrpc.ts';

// POST /a2a: the A2A protocol 0.3 JSON-RPC binding, method message/send. Which tool a message
// means is decided by tools/intents.ts; this module reads and answers the protocol.
// The answer is one agent Message (no task: every tool answers at once). JSON-RPC errors
// travel with HTTP 200, as JSON-RPC over HTTP does; only an oversize body is refused by status.

const PROTOCOL_METHOD = 'message/send';

class A2aError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    this.code = code;
    this.message = message;
    this.data = data;
  }
}

function respond(id: RpcId, body: { result: unknown } | { error: { code: number; message: string; data?: unknown } }): { text: string; response: Response } {
  const text = JSON.stringify({ jsonrpc: '2.0', id, ...body });
  return { text, response: new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }) };
}

function failure(id: RpcId, error: A2aError): Response {
  return respond(id, {
    error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data },
  }).response;
}

/** A tool's result, unless it is over the answer limit: then an error naming the limit, and the result is not sent. */
function reply(id: RpcId, result: unknown): Response {
  const answer = respond(id, { result });
  const tooLarge = textTooLarge(answer.text);
  if (tooLarge === null) return answer.response;
  return failure(id, new A2aError(RPC.invalidParams, `Invalid params: ${tooLarge}`, { limit_bytes: MAX_ANSWER_BYTES, accepted: ANSWER_FORM }));
}

// --- reading the request -------------------------------------------------------------------

function readEnvelope(value: unknown): { id: RpcId; method: string; params: unknown } | A2aError {
  if (Array.isArray(value)) return new A2aError(RPC.invalidRequest, 'Invalid Request: batches are not supported; send one JSON-RPC request per POST.');
  if (!isRecord(value)) return new A2aError(RPC.invalidRequest, 'Invalid Request: a JSON-RPC request must be an object.');
  if (value['jsonrpc'] !== '2.0') return new A2aError(RPC.invalidRequest, 'Invalid Request: "jsonrpc" must be exactly "2.0".');
  if (typeof value['method'] !== 'string' || value['method'] === '')
    return new A2aError(RPC.invalidRequest, 'Invalid Request: "method" must be a non-empty string.');
  if (!('id' in value))
    return new A2aError(RPC.invalidRequest, 'Invalid Request: "id" is missing; A2A requests expect an answer, so they are not notifications.');
  const id = value['id'];
  if (!(id === null || typeof id === 'string' || typeof id === 'number'))
    return new A2aError(RPC.invalidRequest, 'Invalid Request: "id" must be a string, a number or null.');
  if ('params' in value && (value['params'] === null || typeof value['params'] !== 'object'))
    return new A2aError(RPC.invalidRequest, 'Invalid Request: "params" must be an object.');
  return { id: id as RpcId, method: value['method'], params: value['params'] };
}

interface UserMessage extends MessageParts {
  contextId: string | null;
}

const MESSAGE_FORM = 'params.message: {"role": "user", "messageId": "<id>", "parts": [{"kind": "text", "text": "..."}]} with at least one text or data part';

function readMessage(params: unknown): UserMessage | A2aError {
  const invalid = (field: string, message: string) =>
    new A2aError(RPC.invalidParams, `Invalid params: ${message} Accepted: ${MESSAGE_FORM}.`, { field, accepted: MESSAGE_FORM });
  if (!isRecord(params)) return invalid('params', 'message/send takes an object of named params.');
  const message = params['message'];
  if (!isRecord(message)) return invalid('params.message', 'params.message is missing.');
  const parts = message['parts'];
  if (!Array.isArray(parts) || parts.length === 0) return invalid('params.message.parts', 'params.message.parts must be a non-empty array.');
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const [index, part] of parts.entries()) {
    if (!isRecord(part)) return invalid(`params.message.parts[${index}]`, `part ${index} is not an object.`);
    // v0.3 names the part type in "kind"; a part without it is read by its content.
    const kind = part['kind'] ?? ('text' in part ? 'text' : 'data' in part ? 'data' : undefined);
    if (kind === 'text') {
      if (typeof part['text'] !== 'string') return invalid(`params.message.parts[${index}].text`, `text part ${index} has no string "text".`);
      texts.push(part['text']);
    } else if (kind === 'data') {
      if (!isRecord(part['data'])) return invalid(`params.message.parts[${index}].data`, `data part ${index} must hold an object in "data".`);
      data.push(part['data']);
    }
    // File parts are not read: no tool takes a file other than as text.
  }
  if (texts.length === 0 && data.length === 0) return invalid('params.message.parts', 'the message has no text or data part.');
  const contextId = typeof message['contextId'] === 'string' && message['contextId'] !== '' ? message['contextId'] : null;
  return { texts, data, contextId };
}

// --- answering -------------------------------------------------------------------------------

function helpText(site: SiteSettings, reason: string): string {
  return [
    `${reason} I answer questions about web crawlers from ${site.name}. Send me:`,
    '- a User-Agent header, to learn which crawler it is (classify_user_agent);',
    '- one or more IP addresses, optionally with the crawler they claim to be ("66.249.66.1 Googlebot"), to check them against operator-published ranges (verify_batch);',
    '- a robots.txt file, to see which AI crawlers it blocks and lets in (audit_ai_access);',
    '- a crawler\'s name or robots.txt token ("what is GPTBot?"), for its record (crawler_markdown);',
    '- "who am I", to see how this service sees your request (whoami).',
    `Any skill can also be called with a data part {"skill": "<id>", "input": {...}}; the skills are listed in ${site.base_url}/.well-known/agent-card.json.`,
  ].join('\n');
}

function agentMessage(contextId: string | null, text: string, data: Record<string, unknown>, tool: string | null) {
  return {
    kind: 'message',
    role: 'agent',
    messageId: crypto.randomUUID(),
    contextId: contextId ?? crypto.randomUUID(),
    parts: [
      { kind: 'text', text },
      { kind: 'data', data },
    ],
    metadata: { tool },
  };
}

export async function handleA2a(request: Request, context: CallContext, site: SiteSettings): Promise<Response> {
  const body = await readBody(request, MAX_RPC_BODY_BYTES);
  if (!body.ok) return payloadTooLarge();
  const parsed = parseJsonBody(
    body.bytes,
    '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","messageId":"1","parts":[{"kind":"text","text":"who am I"}]}}}',
  );
  if (!parsed.ok) return failure(null, new A2aError(RPC.parseError, parsed.message));
  const envelope = readEnvelope(parsed.value);
  if (envelope instanceof A2aError) return failure(echoId(parsed.value), envelope);
  const { id } = envelope;
  if (envelope.method !== PROTOCOL_METHOD) {
    return failure(
      id,
      new A2aError(
        RPC.methodNotFound,
        `Method not found: "${envelope.method}". This agent answers ${PROTOCOL_METHOD} (A2A 0.3 JSON-RPC) and creates no tasks.`,
        { accepted: [PROTOCOL_METHOD] },
      ),
    );
  }
  const message = readMessage(envelope.params);
  if (message instanceof A2aError) return failure(id, message);
  const routed = intentOf(message, context.data);
  if (routed.kind === 'invalid')
    return failure(id, new A2aError(RPC.invalidParams, `Invalid params: ${routed.message}`, { field: routed.field, accepted: routed.accepted }));
  if (routed.kind === 'help') {
    return reply(id, agentMessage(message.contextId, helpText(site, routed.reason), { tool: null, skills: TOOLS.map((t) => t.name) }, null));
  }
  const name = routed.tool.name;
  const run = await context.runner.run({ tool: name, params: routed.raw, caller: context.caller, form: 'structured' });
  switch (run.status) {
    case 'answered':
      if (run.form !== 'structured') throw new Error(`${name}: the runner answered in the ${run.form} form, not structured`);
      return reply(id, agentMessage(message.contextId, run.summary, { tool: name, input: run.input, output: run.output }, name));
    case 'refused':
      return failure(
        id,
        new A2aError(RPC.invalidParams, `Invalid params for ${name}: ${run.message} Accepted: ${run.accepted}.`, {
          tool: name,
          field: run.field,
          accepted: run.accepted,
        }),
      );
    case 'too-large':
      return failure(id, new A2aError(RPC.invalidParams, `${name}: ${run.message}`, { tool: name, limit_bytes: MAX_ANSWER_BYTES, accepted: ANSWER_FORM }));
    case 'unavailable':
      return failure(
        id,
        new A2aError(RPC.serverError, `${name}: ${run.message}`, { tool: name, reason: run.reason, retry_after_seconds: run.retryAfterSeconds }),
      );
    case 'failed':
      return failure(id, new A2aError(RPC.internalError, `${name} failed on this input: ${run.message}`, { tool: name }));
  }
}
