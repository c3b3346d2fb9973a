import { validateInput, type InputSource } from './input.ts';
import { InputRefused } from './limits.ts';
import type { ToolContext, ToolDefinition, ToolInput } from './types.ts';

/** A call's result, or why its input is not accepted: the field, what is wrong and the accepted form. */
export type ToolOutcome =
  | { ok: true; input: ToolInput; output: unknown }
  | { ok: false; field: string; message: string; accepted: string };

/**
 * Validates the parameters, then runs the tool. An input that fails its parameter checks and
 * one the tool refuses as more work than a call may do (InputRefused) are one outcome, so each
 * transport answers both the same way (HTTP 400, JSON-RPC -32602). A fault in the tool itself
 * still throws: that is the transport's 500 or tool error, not the caller's mistake.
 */
export function runTool(tool: ToolDefinition, raw: Record<string, unknown>, context: ToolContext, source?: InputSource): ToolOutcome {
  const checked = validateInput(tool, raw, source);
  if (!checked.ok) return checked;
  try {
    return { ok: true, input: checked.input, output: tool.run(checked.input, context) };
  } catch (error) {
    if (!(error instanceof InputRefused)) throw error;
    return { ok: false, field: error.field, message: error.message, accepted: error.accepted };
  }
}
