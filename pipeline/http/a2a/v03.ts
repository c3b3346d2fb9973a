import { isRecord } from '../../util/guards.ts';
import { RPC } from '../jsonrpc.ts';
import { problem, readSendParams, type Binding, type Problem, type ReadPart } from './wire.ts';

// A2A 0.3's JSON-RPC binding: method message/send, parts tagged by "kind", roles "user" and
// "agent", and an error's data as one object. Kept for clients that have not moved to 1.0.

const MESSAGE_FORM = 'params.message: {"role": "user", "messageId": "<id>", "parts": [{"kind": "text", "text": "..."}]} with at least one text or data part';

function invalid(field: string, message: string): Problem {
  return problem(RPC.invalidParams, 'INVALID_PARAMS', `Invalid params: ${message} Accepted: ${MESSAGE_FORM}.`, { field, accepted: MESSAGE_FORM });
}

function readPart(part: unknown, index: number): ReadPart {
  if (!isRecord(part)) return invalid(`params.message.parts[${index}]`, `part ${index} is not an object.`);
  // 0.3 names the part type in "kind"; a part without it is read by its content.
  const kind = part['kind'] ?? ('text' in part ? 'text' : 'data' in part ? 'data' : undefined);
  if (kind === 'text') {
    if (typeof part['text'] !== 'string') return invalid(`params.message.parts[${index}].text`, `text part ${index} has no string "text".`);
    return { text: part['text'] };
  }
  if (kind === 'data') {
    if (!isRecord(part['data'])) return invalid(`params.message.parts[${index}].data`, `data part ${index} must hold an object in "data".`);
    return { data: part['data'] };
  }
  return { skipped: true };
}

export const V03: Binding = {
  version: '0.3',
  sendMethod: 'message/send',
  example: '{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","messageId":"1","parts":[{"kind":"text","text":"who am I"}]}}}',

  readMessage(params) {
    const sent = readSendParams(params, 'message/send takes an object of named params.', readPart, invalid);
    if ('code' in sent) return sent;
    const { message, read } = sent;
    const contextId = typeof message['contextId'] === 'string' && message['contextId'] !== '' ? message['contextId'] : null;
    return { ...read, contextId };
  },

  result(reply) {
    return {
      kind: 'message',
      role: 'agent',
      messageId: crypto.randomUUID(),
      contextId: reply.contextId ?? crypto.randomUUID(),
      parts: [
        { kind: 'text', text: reply.text },
        { kind: 'data', data: reply.data },
      ],
      metadata: { tool: reply.tool },
    };
  },

  errorData(problem) {
    const data = {
      ...(problem.field === undefined ? {} : { field: problem.field }),
      ...(problem.accepted === undefined ? {} : { accepted: problem.accepted }),
      ...problem.detail,
    };
    return Object.keys(data).length === 0 ? undefined : data;
  },
};
