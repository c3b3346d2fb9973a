import type { SiteSettings } from '../records/types.ts';
import { classify, inputIssue } from '../tools/classify/index.ts';
import { TOOLS, toolByName, type ToolData, type ToolDefinition } from '../tools/registry/index.ts';
import type { CallContext } from '../tools/registry/call.ts';
import { ATTRIBUTION_PARAM } from '../tools/registry/input.ts';
import { ANSWER_FORM, MAX_ANSWER_BYTES, textTooLarge } from '../tools/registry/limits.ts';
import { parseAddress } from '../tools/verify/index.ts';
import { readBody } from './body.ts';
import { echoId, MAX_RPC_BODY_BYTES, parseJsonBody, payloadTooLarge, RPC, type RpcId } from './jsonrpc.ts';

// POST /a2a: the A2A protocol 0.3 JSON-RPC binding, method message/send. A message in plain
// language is routed to one tool of the registry; a data part can name any tool directly.
// The answer is one agent Message (no task: every tool answers at once). JSON-RPC errors
// travel with HTTP 200, as JSON-RPC over HTTP does; only an oversize body is refused by status.

const PROTOCOL_METHOD = 'message/send';

type Routed =
  | { kind: 'tool'; tool: ToolDefinition; raw: Record<string, unknown>; via: 'data' | 'text' }
  | { kind: 'help'; reason: string };

class A2aError {
  constructor(readonly code: number, readonly message: string, readonly data?: unknown) {}
}

function respond(id: RpcId, body: { result: unknown } | { error: { code: number; message: string; data?: unknown } }): { text: string; response: Response } {
  const text = JSON.stringify({ jsonrpc: '2.0', id, ...body });
  return { text, response: new Response(text, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }) };
}

function failure(id: RpcId, error: A2aError): Response {
  return respond(id, { error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data } }).response;
}

/** A tool's result, unless it is over the answer limit: then an error naming the limit, and the result is not sent. */
function reply(id: RpcId, result: unknown): Response {
  const answer = respond(id, { result });
  const tooLarge = textTooLarge(answer.text);
  if (tooLarge === null) return answer.response;
  return failure(id, new A2aError(RPC.invalidParams, `Invalid params: ${tooLarge}`, { limit_bytes: MAX_ANSWER_BYTES, accepted: ANSWER_FORM }));
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

// --- reading the request -------------------------------------------------------------------

function readEnvelope(value: unknown): { id: RpcId; method: string; params: unknown } | A2aError {
  if (Array.isArray(value)) return new A2aError(RPC.invalidRequest, 'Invalid Request: batches are not supported; send one JSON-RPC request per POST.');
  if (!isObject(value)) return new A2aError(RPC.invalidRequest, 'Invalid Request: a JSON-RPC request must be an object.');
  if (value['jsonrpc'] !== '2.0') return new A2aError(RPC.invalidRequest, 'Invalid Request: "jsonrpc" must be exactly "2.0".');
  if (typeof value['method'] !== 'string' || value['method'] === '') return new A2aError(RPC.invalidRequest, 'Invalid Request: "method" must be a non-empty string.');
  if (!('id' in value)) return new A2aError(RPC.invalidRequest, 'Invalid Request: "id" is missing; A2A requests expect an answer, so they are not notifications.');
  const id = value['id'];
  if (!(id === null || typeof id === 'string' || typeof id === 'number')) return new A2aError(RPC.invalidRequest, 'Invalid Request: "id" must be a string, a number or null.');
  if ('params' in value && (value['params'] === null || typeof value['params'] !== 'object')) return new A2aError(RPC.invalidRequest, 'Invalid Request: "params" must be an object.');
  return { id: id as RpcId, method: value['method'], params: value['params'] };
}

interface UserMessage {
  texts: string[];
  data: Record<string, unknown>[];
  contextId: string | null;
}

const MESSAGE_FORM = 'params.message: {"role": "user", "messageId": "<id>", "parts": [{"kind": "text", "text": "..."}]} with at least one text or data part';

function readMessage(params: unknown): UserMessage | A2aError {
  const invalid = (field: string, message: string) => new A2aError(RPC.invalidParams, `Invalid params: ${message} Accepted: ${MESSAGE_FORM}.`, { field, accepted: MESSAGE_FORM });
  if (!isObject(params)) return invalid('params', 'message/send takes an object of named params.');
  const message = params['message'];
  if (!isObject(message)) return invalid('params.message', 'params.message is missing.');
  const parts = message['parts'];
  if (!Array.isArray(parts) || parts.length === 0) return invalid('params.message.parts', 'params.message.parts must be a non-empty array.');
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const [index, part] of parts.entries()) {
    if (!isObject(part)) return invalid(`params.message.parts[${index}]`, `part ${index} is not an object.`);
    // v0.3 names the part type in "kind"; a part without it is read by its content.
    const kind = part['kind'] ?? ('text' in part ? 'text' : 'data' in part ? 'data' : undefined);
    if (kind === 'text') {
      if (typeof part['text'] !== 'string') return invalid(`params.message.parts[${index}].text`, `text part ${index} has no string "text".`);
      texts.push(part['text']);
    } else if (kind === 'data') {
      if (!isObject(part['data'])) return invalid(`params.message.parts[${index}].data`, `data part ${index} must hold an object in "data".`);
      data.push(part['data']);
    }
    // File parts are not read: no tool takes a file other than as text.
  }
  if (texts.length === 0 && data.length === 0) return invalid('params.message.parts', 'the message has no text or data part.');
  const contextId = typeof message['contextId'] === 'string' && message['contextId'] !== '' ? message['contextId'] : null;
  return { texts, data, contextId };
}

// --- routing ---------------------------------------------------------------------------------

const ROBOTS_LINE = /^\s*(user-agent|disallow|allow|sitemap|crawl-delay|#)/i;
const PRODUCT_VERSION = /(^|[\s(;])[A-Za-z][\w.+-]*\/\d/;
const UA_PREFIX = /^\s*user-agent\s*[:=]\s*/i;

function looksLikeRobotsTxt(text: string): boolean {
  return /^\s*user-agent\s*:/im.test(text) && /^\s*(dis)?allow\s*:/im.test(text);
}

/** The file from its first directive or comment line: a sentence before it is not part of it. */
function robotsPart(text: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => ROBOTS_LINE.test(line));
  return lines.slice(Math.max(start, 0)).join('\n') + '\n';
}

function looksLikeUserAgent(text: string): boolean {
  return PRODUCT_VERSION.test(text) || /compatible;/i.test(text);
}

function stripFences(text: string): string {
  return text.replace(/^\s*```[\w-]*\s*$/gm, '');
}

/** Every token that is one IP address, in order, once each; brackets and sentence punctuation around it are dropped. */
function findAddresses(text: string): { addresses: string[]; tokens: Set<string> } {
  const addresses: string[] = [];
  const tokens = new Set<string>();
  for (const raw of text.split(/[\s,;]+/)) {
    const token = raw.replace(/^[(["'<]+/, '').replace(/[)\]"'>.?!]+$/, '');
    if (!/^[0-9a-fA-F:.]+$/.test(token) || !/[.:]/.test(token)) continue;
    if (!parseAddress(token).ok) continue;
    tokens.add(raw);
    if (!addresses.includes(token)) addresses.push(token);
  }
  return { addresses, tokens };
}

/** Which crawler the addresses claim to be: a User-Agent line, the last quoted User-Agent of a log line, or a crawler named in the words around them. */
function findClaim(text: string, addressTokens: ReadonlySet<string>, data: ToolData): string | null {
  for (const line of text.split(/\r?\n/)) if (UA_PREFIX.test(line)) return line.replace(UA_PREFIX, '').trim().replace(/^"(.*)"$/, '$1') || null;
  const quoted = [...text.matchAll(/"([^"\n]+)"/g)].map((m) => m[1]!.trim())
    .filter((q) => q !== '-' && !/^[A-Z]+ \S+ HTTP\/\d/.test(q) && !/^https?:\/\//.test(q) && /[A-Za-z]/.test(q));
  const lastQuoted = quoted.at(-1);
  if (lastQuoted !== undefined) return lastQuoted;
  const rest = text.split(/\s+/).filter((w) => w !== '' && !addressTokens.has(w)).join(' ');
  if (rest === '' || inputIssue(rest) !== null) return null;
  if (looksLikeUserAgent(rest)) return rest;
  const named = namedCrawler(rest, data);
  if (named) return named.robots_token;
  const classified = classify(data.classifier, rest);
  return classified.matched ? classified.crawler.robots_token : null;
}

/** The crawler whose robots.txt token or slug is a word of the text; the longest wins (Googlebot-Image over Googlebot). */
function namedCrawler(text: string, data: ToolData) {
  const words = new Set(text.toLowerCase().split(/[^a-z0-9._-]+/).map((w) => w.replace(/[.]+$/, '')).filter((w) => w !== ''));
  let best: ToolData['crawlers'][number] | null = null;
  for (const crawler of data.crawlers) {
    const token = crawler.robots_token.toLowerCase();
    if ((words.has(token) || words.has(crawler.slug)) && (best === null || token.length > best.robots_token.length)) best = crawler;
  }
  return best;
}

function findUserAgent(text: string, data: ToolData): string | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length !== 1) {
    const header = lines.find((l) => UA_PREFIX.test(l));
    return header ? header.replace(UA_PREFIX, '').trim() || null : null;
  }
  const line = lines[0]!.replace(UA_PREFIX, '').trim().replace(/^"(.*)"$/, '$1');
  if (line === '' || inputIssue(line) !== null) return null;
  if (UA_PREFIX.test(lines[0]!) || looksLikeUserAgent(line)) return line;
  // One word that reads like a product token ("FooBot"): the answer says whether any crawler matches.
  if (!/\s/.test(line) && (classify(data.classifier, line).matched || /(bot|crawler|spider|fetcher)$/i.test(line))) return line;
  return null;
}

/** A question that is just a crawler's token or slug, perhaps with a few words around it ("what is GPTBot?"). */
function crawlerQuestion(text: string, data: ToolData): string | null {
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length > 6 || text.includes('\n')) return null;
  return namedCrawler(text, data)?.robots_token ?? null;
}

function routeText(text: string, data: ToolData): Routed {
  const body = stripFences(text).trim();
  if (body === '') return { kind: 'help', reason: 'The message is empty.' };
  if (looksLikeRobotsTxt(body)) return { kind: 'tool', tool: tool('audit_ai_access'), raw: { robots_txt: robotsPart(body) }, via: 'text' };
  const { addresses, tokens } = findAddresses(body);
  if (addresses.length > 0) {
    const claim = findClaim(body, tokens, data);
    return { kind: 'tool', tool: tool('verify_batch'), raw: claim === null ? { ip: addresses } : { ip: addresses, ua: claim }, via: 'text' };
  }
  if (/\bwho\s*am\s*i\b|\bwhoami\b/i.test(body)) return { kind: 'tool', tool: tool('whoami'), raw: {}, via: 'text' };
  const named = looksLikeUserAgent(body) ? null : crawlerQuestion(body, data);
  if (named !== null) return { kind: 'tool', tool: tool('crawler_markdown'), raw: { crawler: named }, via: 'text' };
  const ua = findUserAgent(body, data);
  if (ua !== null) return { kind: 'tool', tool: tool('classify_user_agent'), raw: { ua }, via: 'text' };
  return { kind: 'help', reason: 'The message is not a User-Agent, IP addresses, a robots.txt, a crawler\'s name or "who am I".' };
}

// Inferred from a data part's fields when it names no skill, most specific first.
const BY_FIELDS = ['check_path_allowed', 'audit_ai_access', 'verify_batch', 'classify_user_agent'] as const;

function routeData(part: Record<string, unknown>): Routed | A2aError | null {
  const named = part['skill'] ?? part['tool'];
  if (named !== undefined) {
    const found = typeof named === 'string' ? toolByName(named) : undefined;
    if (!found) {
      return new A2aError(RPC.invalidParams, `Invalid params: unknown skill ${JSON.stringify(named)}. Skills: ${TOOLS.map((t) => t.name).join(', ')}.`, { field: 'skill', accepted: TOOLS.map((t) => t.name) });
    }
    const input = part['input'] ?? part['arguments'] ?? {};
    if (!isObject(input)) return new A2aError(RPC.invalidParams, 'Invalid params: "input" of a data part must be an object of the skill\'s parameters.', { field: 'input', accepted: 'an object' });
    return { kind: 'tool', tool: found, raw: input, via: 'data' };
  }
  for (const name of BY_FIELDS) {
    const candidate = tool(name);
    const names = new Set([...candidate.params.map((p) => p.name), ATTRIBUTION_PARAM.name]);
    const required = candidate.params.filter((p) => p.required).map((p) => p.name);
    if (required.every((n) => n in part) && Object.keys(part).every((k) => names.has(k))) return { kind: 'tool', tool: candidate, raw: part, via: 'data' };
  }
  return null;
}

function route(message: UserMessage, data: ToolData): Routed | A2aError {
  for (const part of message.data) {
    const routed = routeData(part);
    if (routed) return routed;
  }
  return routeText(message.texts.join('\n'), data);
}

function tool(name: string): ToolDefinition {
  const found = toolByName(name);
  if (!found) throw new Error(`the A2A router names tool "${name}", which is not in the registry`);
  return found;
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
    parts: [{ kind: 'text', text }, { kind: 'data', data }],
    metadata: { tool },
  };
}

export async function handleA2a(request: Request, context: CallContext, site: SiteSettings): Promise<Response> {
  const body = await readBody(request, MAX_RPC_BODY_BYTES);
  if (!body.ok) return payloadTooLarge();
  const parsed = parseJsonBody(body.bytes, '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","messageId":"1","parts":[{"kind":"text","text":"who am I"}]}}}');
  if (!parsed.ok) return failure(null, new A2aError(RPC.parseError, parsed.message));
  const envelope = readEnvelope(parsed.value);
  if (envelope instanceof A2aError) return failure(echoId(parsed.value), envelope);
  const { id } = envelope;
  if (envelope.method !== PROTOCOL_METHOD) {
    return failure(id, new A2aError(RPC.methodNotFound, `Method not found: "${envelope.method}". This agent answers ${PROTOCOL_METHOD} (A2A 0.3 JSON-RPC) and creates no tasks.`, { accepted: [PROTOCOL_METHOD] }));
  }
  const message = readMessage(envelope.params);
  if (message instanceof A2aError) return failure(id, message);
  const routed = route(message, context.data);
  if (routed instanceof A2aError) return failure(id, routed);
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
      return failure(id, new A2aError(RPC.invalidParams, `Invalid params for ${name}: ${run.message} Accepted: ${run.accepted}.`, { tool: name, field: run.field, accepted: run.accepted }));
    case 'too-large':
      return failure(id, new A2aError(RPC.invalidParams, `${name}: ${run.message}`, { tool: name, limit_bytes: MAX_ANSWER_BYTES, accepted: ANSWER_FORM }));
    case 'unavailable':
      return failure(id, new A2aError(RPC.serverError, `${name}: ${run.message}`, { tool: name, reason: run.reason, retry_after_seconds: run.retryAfterSeconds }));
    case 'failed':
      return failure(id, new A2aError(RPC.internalError, `${name} failed on this input: ${run.message}`, { tool: name }));
  }
}
