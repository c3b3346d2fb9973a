// The answer limit (docs/API.md §8: 4 MiB per tool answer) holds for the bytes sent: the
// transport's envelope around a tool's output (MCP sends it twice, as structuredContent and as
// text, inside a JSON-RPC answer), and the handler's rewriting of the build's base URL into
// the origin the client used (http/origin.ts relocate), which a long Host can lengthen.
import type { CallContext } from '../tools/registry/runner.ts';
import { answerTooLarge, MAX_ANSWER_BYTES } from '../tools/registry/limits.ts';
import type { Relocation } from '../util/relocate.ts';

const encoder = new TextEncoder();

/** The rewriting the handler will apply to an answer given in this context, if any. */
export function relocationOf(context: Pick<CallContext, 'baseUrl' | 'origin'>): Relocation | undefined {
  return context.origin === undefined || context.origin === context.baseUrl ? undefined : { from: context.baseUrl, to: context.origin };
}

function occurrences(text: string, of: string): number {
  if (of === '') return 0;
  let count = 0;
  for (let at = text.indexOf(of); at !== -1; at = text.indexOf(of, at + of.length)) count++;
  return count;
}

/** The UTF-8 bytes of `text` once relocated (util/relocate.ts replaces every occurrence). */
function sentByteLength(text: string, relocation?: Relocation): number {
  const growth = relocation === undefined ? 0 : encoder.encode(relocation.to).length - encoder.encode(relocation.from).length;
  const bytes = encoder.encode(text).length;
  return growth === 0 ? bytes : bytes + growth * occurrences(text, relocation!.from);
}

/** answerTooLarge for text about to be relocated and sent: null when it fits, else the message to answer with. */
export function sentTooLarge(text: string, relocation?: Relocation): string | null {
  // A string of n UTF-16 units has at most 3n UTF-8 bytes; relocation can at most multiply that by to/from.
  const stretch = relocation === undefined || relocation.from === '' ? 1 : Math.max(1, relocation.to.length / relocation.from.length);
  if (text.length * 3 * stretch <= MAX_ANSWER_BYTES) return null;
  return answerTooLarge(sentByteLength(text, relocation));
}
