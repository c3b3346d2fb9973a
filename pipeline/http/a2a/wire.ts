import type { MessageParts } from '../../tools/intents.ts';
import { isRecord } from '../../util/guards.ts';

// What the two A2A generations share once their wire shapes are read: the user's message, the
// agent's reply and the problems a request can have. v03.ts and v10.ts translate these to and
// from each generation's JSON; endpoint.ts never touches a wire shape itself.

/** A2A's own JSON-RPC error codes (A2A 1.0 section 5.4; the same numbers in 0.3). */
export const A2A_ERROR = {
  taskNotFound: -32001,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  extendedCardNotConfigured: -32007,
  versionNotSupported: -32009,
} as const;

/** The user message as the intent router reads it. */
interface UserMessage extends MessageParts {
  contextId: string | null;
}

/** Why a request was not answered: a JSON-RPC code, a sentence, and what to send instead. */
export interface Problem {
  code: number;
  /** A2A 1.0 names each error by a reason (google.rpc.ErrorInfo); 0.3 has only the code. */
  reason: string;
  message: string;
  /** The request field at fault, when one is. */
  field?: string;
  accepted?: string | readonly string[];
  /** Anything else a client can act on (the tool, a limit, when to retry). */
  detail?: Readonly<Record<string, string | number | null>>;
}

export function problem(code: number, reason: string, message: string, more: Omit<Problem, 'code' | 'reason' | 'message'> = {}): Problem {
  return { code, reason, message, ...more };
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'reason' in value && 'code' in value;
}

/** The agent's answer: a sentence for people and the tool's whole answer for programs. */
export interface AgentReply {
  contextId: string | null;
  text: string;
  data: Record<string, unknown>;
  /** The tool that answered; null for the help text. */
  tool: string | null;
}

/** One generation of the JSON-RPC binding. */
export interface Binding {
  /** The protocol version, as A2A-Version and the card's interfaces name it. */
  version: '0.3' | '1.0';
  /** The method that sends a message. */
  sendMethod: string;
  /** A whole request of this generation, quoted when a body cannot be read. */
  example: string;
  readMessage(params: unknown): UserMessage | Problem;
  /** The JSON-RPC result for a reply. */
  result(reply: AgentReply): unknown;
  /** The JSON-RPC error's data member for a problem, or undefined for none. */
  errorData(problem: Problem): unknown;
}

/** A text part's text, a data part's object, or a part the router does not read (files). */
export type ReadPart = { text: string } | { data: Record<string, unknown> } | { skipped: true } | Problem;

/**
 * The message of a send request, its parts read by the binding's `readPart`: the checks both
 * generations share (params an object, a message, a non-empty parts array, one text or data part).
 */
export function readSendParams(
  params: unknown,
  paramsForm: string,
  readPart: (part: unknown, index: number) => ReadPart,
  invalid: (field: string, message: string) => Problem,
): { message: Record<string, unknown>; read: MessageParts } | Problem {
  if (!isRecord(params)) return invalid('params', paramsForm);
  const message = params['message'];
  if (!isRecord(message)) return invalid('params.message', 'params.message is missing.');
  const parts = message['parts'];
  if (!Array.isArray(parts) || parts.length === 0) return invalid('params.message.parts', 'params.message.parts must be a non-empty array.');
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const [index, part] of parts.entries()) {
    const read = readPart(part, index);
    if (isProblem(read)) return read;
    if ('text' in read) texts.push(read.text);
    else if ('data' in read) data.push(read.data);
  }
  if (texts.length === 0 && data.length === 0)
    return invalid('params.message.parts', "the message has no text or data part (file parts are not read: send a file's text as a text part).");
  return { message, read: { texts, data } };
}
