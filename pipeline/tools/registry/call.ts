import { canonicalJsonPieces } from '../../util/canonical-json.ts';
import { type Allocate, jsonPieces, utf8OfPieceGroups, utf8OfPieces } from '../../util/json-pieces.ts';
import { relocate, type Relocation } from '../../util/relocate.ts';
import { etagOfWeb } from '../../util/etag-rule.ts';
import { toolByName } from './index.ts';
import { validateInput, type InputSource } from './input.ts';
import { answerTooLarge, InputRefused, textTooLarge } from './limits.ts';
import { type AnswerId, toolCallAnswerFrame } from './tool-call-answer.ts';
import type { Caller, ToolContext, ToolData, ToolDefinition, ToolInput } from './types.ts';

/** What a tool that does not answer for its caller is told of it: nothing. */
const ANONYMOUS: Caller = { userAgent: null, address: null };

/** A call's result, or why its input is not accepted: the field, what is wrong and the accepted form. */
type ToolOutcome = { ok: true; input: ToolInput; output: unknown } | { ok: false; field: string; message: string; accepted: string };

/**
 * Validates the parameters, then runs the tool. An input that fails its parameter checks and
 * one the tool refuses as more work than a call may do (InputRefused) are one outcome, so each
 * transport answers both the same way (HTTP 400, JSON-RPC -32602). A fault in the tool itself
 * still throws: that is the transport's 500 or tool error, not the caller's mistake.
 */
async function runTool(tool: ToolDefinition, raw: Record<string, unknown>, context: ToolContext, source?: InputSource): Promise<ToolOutcome> {
  const checked = validateInput(tool, raw, source);
  if (!checked.ok) return checked;
  try {
    // Awaited inside the try, so an async tool's InputRefused is a refusal like a sync tool's.
    return { ok: true, input: checked.input, output: await tool.run(checked.input, context) };
  } catch (error) {
    if (!(error instanceof InputRefused)) throw error;
    return { ok: false, field: error.field, message: error.message, accepted: error.accepted };
  }
}

/**
 * How the caller wants a successful answer:
 * - `json`, the canonical JSON bytes an HTTP answer sends as they are;
 * - `serialized`, the whole JSON-RPC answer MCP sends (tool-call-answer.ts: the output as
 *   structuredContent, and as the text of a JSON string for clients that ignore it, after its
 *   one-line summary) with its ETag, and where the two forms of the output lie in it; made on
 *   the thread that ran the tool rather than on the one that answers every request;
 * - `structured`, the validated input, the output as a value and its summary, which A2A and the
 *   command line wrap in their own forms.
 */
type AnswerForm = 'json' | 'serialized' | 'structured';

/** One tool call as plain data, so that it can be run here or posted to another thread. */
export interface ToolJob {
  tool: string;
  params: Record<string, unknown>;
  caller: Caller;
  source?: InputSource;
  form: AnswerForm;
  /** Applied to the `json` and `serialized` forms' bytes: the addresses the client's origin names. */
  relocation?: Relocation;
  /** The `serialized` form: the id of the JSON-RPC request its answer goes to (default null). */
  answerId?: AnswerId;
}

/** Why a call was not run at all: the runner's limits, not the tool's answer. */
type Unavailable = 'deadline' | 'busy' | 'not-ready';

/** What became of a ToolJob; plain data (structured-clonable), never an exception. */
export type ToolRun =
  | { status: 'answered'; form: 'json'; bytes: Uint8Array<ArrayBuffer>; etag: string }
  | {
      status: 'answered';
      form: 'serialized';
      summary: string;
      /** The whole JSON-RPC answer, and its ETag. */
      answer: Uint8Array<ArrayBuffer>;
      etag: string;
      /** The output as JSON and as a JSON string literal: views into `answer`. */
      json: Uint8Array<ArrayBuffer>;
      jsonString: Uint8Array<ArrayBuffer>;
    }
  | { status: 'answered'; form: 'structured'; input: ToolInput; output: unknown; summary: string }
  | { status: 'refused'; field: string; message: string; accepted: string }
  | { status: 'too-large'; message: string }
  | { status: 'failed'; message: string; detail: string }
  | { status: 'unavailable'; reason: Unavailable; message: string; retryAfterSeconds: number };

/**
 * How an answer's ETag is taken (docs/API.md §2.5). Web Crypto's, the default, runs on every
 * runtime but hands the bytes to another thread and back; a tool thread passes Node's
 * synchronous hash, so that it is free for its next call as soon as it answers.
 */
type TagOf = (bytes: Uint8Array<ArrayBuffer>) => string | Promise<string>;

/**
 * Runs a job to its final form: validation, the tool, serialisation and the answer-size
 * check, so that the thread which runs the tool also pays for turning its output into bytes.
 * Pure apart from the tool's own work; a fault in the tool becomes `failed`, not a rejection.
 * Async because a tool may be (WebCrypto is); a synchronous tool's answer is the same.
 */
export async function executeTool(job: ToolJob, data: ToolData, allocate?: Allocate, tagOf: TagOf = etagOfWeb): Promise<ToolRun> {
  const tool = toolByName(job.tool);
  if (tool === undefined) return { status: 'failed', message: `no tool is named "${job.tool}"`, detail: `unknown tool ${job.tool}` };
  try {
    const outcome = await runTool(tool, job.params, { data, caller: tool.answersForCaller ? job.caller : ANONYMOUS }, job.source);
    if (!outcome.ok) return { status: 'refused', field: outcome.field, message: outcome.message, accepted: outcome.accepted };
    const relocated = (text: string) => (job.relocation === undefined ? text : relocate(text, job.relocation.from, job.relocation.to));
    // Serialised, rewritten and encoded in pieces (util/json-pieces.ts): a piece ends between
    // two values, so no address and no character is ever split between two.
    if (job.form === 'json') {
      const bytes = utf8OfPieces(canonicalJsonPieces(outcome.output).map(relocated), allocate);
      const tooLarge = answerTooLarge(bytes.length);
      if (tooLarge !== null) return { status: 'too-large', message: tooLarge };
      // Tagged here too: on a tool thread, hashing half a megabyte is not the answering thread's work.
      return { status: 'answered', form: 'json', bytes, etag: await tagOf(bytes) };
    }
    const summary = tool.summarize(outcome.output);
    if (job.form === 'serialized') {
      const pieces = jsonPieces(outcome.output).map(relocated);
      // The text as a JSON string literal: each piece escaped alone is the whole escaped, since
      // escaping goes character by character and no piece ends inside a character.
      const escaped = ['"', ...pieces.map((piece) => JSON.stringify(piece).slice(1, -1)), '"'];
      const [before, between, after] = toolCallAnswerFrame(summary, job.answerId ?? null).map(relocated) as [string, string, string];
      const { bytes: answer, starts } = utf8OfPieceGroups([[before], escaped, [between], pieces, [after]], allocate);
      const tooLarge = answerTooLarge(answer.length);
      if (tooLarge !== null) return { status: 'too-large', message: tooLarge };
      const [, stringAt, betweenAt, jsonAt, afterAt] = starts as [number, number, number, number, number];
      return {
        status: 'answered',
        form: 'serialized',
        summary,
        answer,
        etag: await tagOf(answer),
        json: answer.subarray(jsonAt, afterAt),
        jsonString: answer.subarray(stringAt, betweenAt),
      };
    }
    // The envelope carries the structured output and its summary; over the limit it is refused, not sent.
    const tooLarge = textTooLarge(JSON.stringify(outcome.output) + summary);
    if (tooLarge !== null) return { status: 'too-large', message: tooLarge };
    return { status: 'answered', form: 'structured', input: outcome.input, output: outcome.output, summary };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'failed', message, detail: error instanceof Error ? (error.stack ?? message) : message };
  }
}
