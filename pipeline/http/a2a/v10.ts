import { isRecord } from '../../util/guards.ts';
import { RPC } from '../jsonrpc.ts';
import { problem, readSendParams, type Binding, type Problem, type ReadPart } from './wire.ts';

// A2A 1.0's JSON-RPC binding (specification section 9): method SendMessage, ProtoJSON shapes
// (a part is told by which member it has: text, data, raw or url; roles ROLE_USER and
// ROLE_AGENT), and an error's data as a list of typed details (google.rpc.BadRequest for the
// field at fault, google.rpc.ErrorInfo for the reason), so an SDK can read it.

const MESSAGE_FORM =
  'params: {"message": {"role": "ROLE_USER", "messageId": "<id>", "parts": [{"text": "..."}]}} with at least one text part or data part ({"data": {...}})';

const TYPE = 'type.googleapis.com/google.rpc.';
/** ErrorInfo's domain: the service that raised the error, as Google's API design guide names it. */
const DOMAIN = 'crawler-index';

function invalid(field: string, message: string): Problem {
  return problem(RPC.invalidParams, 'INVALID_PARAMS', `Invalid params: ${message} Accepted: ${MESSAGE_FORM}.`, { field, accepted: MESSAGE_FORM });
}

function readPart(part: unknown, index: number): ReadPart {
  const at = `params.message.parts[${index}]`;
  if (!isRecord(part)) return invalid(at, `part ${index} is not an object.`);
  const members = ['text', 'data', 'raw', 'url'].filter((member) => member in part);
  if (members.length !== 1)
    return invalid(at, `part ${index} must have exactly one of text, data, raw or url (it has ${members.length === 0 ? 'none' : members.join(' and ')}).`);
  if ('text' in part) {
    if (typeof part['text'] !== 'string') return invalid(`${at}.text`, `text part ${index} has no string "text".`);
    return { text: part['text'] };
  }
  if ('data' in part) {
    if (!isRecord(part['data']))
      return invalid(`${at}.data`, `data part ${index} must hold an object: {"skill": "<skill id>", "input": {...}} or a skill's parameters.`);
    return { data: part['data'] };
  }
  return { skipped: true };
}

/** ErrorInfo's metadata is a map of strings (google.rpc.ErrorInfo). */
function asStrings(values: Readonly<Record<string, string | number | null | readonly string[]>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).flatMap(([key, value]) => (value === null ? [] : [[key, Array.isArray(value) ? value.join(', ') : String(value)]])),
  );
}

export const V10: Binding = {
  version: '1.0',
  sendMethod: 'SendMessage',
  example: '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"1","parts":[{"text":"who am I"}]}}}',

  readMessage(params) {
    const sent = readSendParams(params, 'SendMessage takes a SendMessageRequest object.', readPart, invalid);
    if ('code' in sent) return sent;
    const { message, read } = sent;
    // ProtoJSON parsers accept the proto field name too.
    const contextId = [message['contextId'], message['context_id']].find((value): value is string => typeof value === 'string' && value !== '') ?? null;
    return { ...read, contextId };
  },

  result(reply) {
    return {
      message: {
        messageId: crypto.randomUUID(),
        contextId: reply.contextId ?? crypto.randomUUID(),
        role: 'ROLE_AGENT',
        parts: [
          { text: reply.text, mediaType: 'text/plain' },
          { data: reply.data, mediaType: 'application/json' },
        ],
        metadata: { tool: reply.tool },
      },
    };
  },

  errorData(problem) {
    const details: Record<string, unknown>[] = [];
    if (problem.field !== undefined) {
      const description = problem.accepted === undefined ? problem.message : `Accepted: ${[problem.accepted].flat().join(', ')}`;
      details.push({ '@type': `${TYPE}BadRequest`, fieldViolations: [{ field: problem.field, description }] });
    }
    const metadata = asStrings({
      ...(problem.field === undefined ? {} : { field: problem.field }),
      ...(problem.accepted === undefined ? {} : { accepted: problem.accepted }),
      ...problem.detail,
    });
    details.push({ '@type': `${TYPE}ErrorInfo`, reason: problem.reason, domain: DOMAIN, metadata });
    return details;
  },
};
