// How much one tool call may ask for. The Node server runs calls on worker threads with a
// deadline (node/tool-pool.ts), but the same handler also runs calls in place on runtimes
// without threads, so each limit is chosen to keep the worst input under about 50 ms on a
// 2-core machine, measured with bench/tools/worst-case.bench.ts. Inputs over a limit are
// refused up front with the limit named; answers that list many items list the first ones
// and count the rest.

/** Bytes of a robots.txt given to a tool, as a parameter or a POST body (RFC 9309 2.5 asks parsers to read at least 500 KiB). */
export const ROBOTS_BODY_LIMIT = 512_000;

/**
 * Bytes of one path given to check_path_allowed (and the path of ai-access and site_check).
 * Google's reference parser reads a robots.txt line up to 16,663 bytes, and its own tests ask
 * about paths of up to 16,659 bytes; 32 KiB answers those, in a POST form or an MCP or A2A call.
 * A GET cannot carry such a path: its request head is limited to REQUEST_HEAD_BYTES (431).
 * The matching work stays bounded by EVALUATION_BUDGET, and the paths' total by MAX_PATHS_TOTAL_BYTES.
 */
export const MAX_PATH_BYTES = 32_768;

/**
 * Bytes of all the paths of one check_path_allowed call together: 200 paths of 2,048 bytes, the
 * largest call the worst-case bench measured before single paths could be longer. Normalising,
 * matching and answering cost grows with this total (a non-ASCII path is matched and answered
 * at three times its length), not with one path's size, so it keeps that worst case.
 */
export const MAX_PATHS_TOTAL_BYTES = 409_600;

/**
 * Work units one call may spend evaluating robots.txt rules (see evaluationCost in
 * ../robots/evaluate.ts): about rules x paths x (path length + 40), counted before any
 * rule is matched. A unit is about a nanosecond on the worst inputs we could build (one
 * comparison of a rule with a path costs about 40 ns plus 1 ns per path character), so
 * the budget keeps the evaluation near 30 ms, beside 10-15 ms to parse a 500 KB file.
 */
export const EVALUATION_BUDGET = 30_000_000;

/** Distinct unknown user-agent tokens that get a "did you mean" (the first ones in file order). */
export const SUGGESTED_TOKENS = 50;

/** Unknown user-agent lines listed in an ai-access answer; the rest are counted. */
export const LISTED_UNKNOWN_TOKENS = 500;

/** Lint findings listed in an answer (the first by line); the rest are counted. */
export const LISTED_FINDINGS = 500;

/** The largest answer sent for one tool call; a larger one is refused with this figure named. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * A tool's refusal of an input that passed the parameter checks but asks for more work than
 * one call may do. Every transport answers it like any bad input: HTTP 400, MCP and A2A
 * -32602, naming the field, the limit and the accepted form.
 */
export class InputRefused extends Error {
  readonly field: string;
  readonly accepted: string;
  constructor(field: string, message: string, accepted: string) {
    super(message);
    this.field = field;
    this.accepted = accepted;
    this.name = 'InputRefused';
  }
}

/** The accepted form quoted when an answer is refused for its size. */
export const ANSWER_FORM = `a call whose answer is at most ${MAX_ANSWER_BYTES} bytes`;

const encoder = new TextEncoder();

/** answerTooLarge for text about to be sent as UTF-8; encoded only when its length alone cannot settle it. */
export function textTooLarge(text: string): string | null {
  return text.length * 3 <= MAX_ANSWER_BYTES ? null : answerTooLarge(encoder.encode(text).length);
}

/** The answer-size check every transport applies to what it is about to send: null when it fits, else the message to answer with. */
export function answerTooLarge(bytes: number): string | null {
  if (bytes <= MAX_ANSWER_BYTES) return null;
  return `The answer would be ${bytes} bytes, over the limit of ${MAX_ANSWER_BYTES} bytes per call; ask for less in one call (fewer paths or addresses, a smaller file) and split the rest over several calls.`;
}
