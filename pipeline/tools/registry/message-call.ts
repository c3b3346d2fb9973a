// A message to the agent (A2A) whose words say which tool it wants: read against the index
// (tools/intents.ts) and answered by that tool, in one job, where the tools' data is. On the
// Node server that is a tool thread, like any call (docs/API.md §8.1): the thread that reads
// requests never holds the classifier, and a long message is read off it.

import { type Intent, intentOfText } from '../intents.ts';
import { executeTool, type ToolJob, type ToolRun } from './call.ts';
import type { Caller, ToolData } from './types.ts';

/** A message's text parts and who sent it: plain data, so that it can be posted to another thread. */
export interface MessageJob {
  texts: string[];
  caller: Caller;
}

/** What became of a MessageJob; plain data, never an exception. */
export type MessageRun =
  /** The words asked for `tool`, which ran with their parameters (the `structured` form); `note` is what the router made of a question. */
  | { routed: 'tool'; tool: string; note?: string; run: ToolRun }
  | { routed: 'help'; reason: string }
  | { routed: 'invalid'; field: string; message: string; accepted: string | string[] }
  /** Not read at all: the runner's limits (busy, past the deadline, not ready) or a fault, as a tool call that did not run. */
  | { routed: 'not-run'; run: Extract<ToolRun, { status: 'unavailable' | 'failed' }> };

/**
 * What a message's intent comes to: help or a refusal as they are, or the tool it names run
 * by `run` with its parameters (the `structured` form). Shared by a message read here and one
 * whose data part the A2A endpoint routed itself (http/a2a/endpoint.ts).
 */
export async function answerIntent(intent: Intent, caller: Caller, run: (job: ToolJob) => Promise<ToolRun>): Promise<MessageRun> {
  if (intent.kind === 'help') return { routed: 'help', reason: intent.reason };
  if (intent.kind === 'invalid') return { routed: 'invalid', field: intent.field, message: intent.message, accepted: intent.accepted };
  const answer = await run({ tool: intent.tool.name, params: intent.raw, caller, form: 'structured' });
  return { routed: 'tool', tool: intent.tool.name, ...(intent.note === undefined ? {} : { note: intent.note }), run: answer };
}

/** Routes the message's text and runs the tool it names. A fault in the router is a `not-run` failure, not a rejection. */
export async function executeMessage(job: MessageJob, data: ToolData): Promise<MessageRun> {
  let intent: Intent;
  try {
    intent = intentOfText(job.texts, data);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { routed: 'not-run', run: { status: 'failed', message, detail: error instanceof Error ? (error.stack ?? message) : message } };
  }
  return answerIntent(intent, job.caller, (call) => executeTool(call, data));
}
