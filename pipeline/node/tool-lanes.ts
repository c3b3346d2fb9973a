// Which lane of the tool pool a call waits in, from the size of the input it carries
// (docs/API.md §8.1, "Tool calls: lanes and queues").
//
// A tool's work grows with its input: a User-Agent, an address or a token is answered in well
// under a millisecond, a 500 KB robots.txt or a thousand addresses take tens of milliseconds.
// The size is known before the call runs, costs nothing to measure and cannot be gamed
// downwards (a caller who sends less asks for less work), so it is the admission cost: small
// calls never wait behind large ones, whatever the tool. Pure.

export type Lane = 'light' | 'heavy';

/** Input characters up to which a call is light: every User-Agent, address, token and path fits, with room for a small robots.txt. */
export const LIGHT_INPUT_CHARS = 16 * 1024;

/**
 * A call is light when its input holds at most LIGHT_INPUT_CHARS characters: strings by
 * length, lists of strings item by item. Anything else (a nested object the validator will
 * refuse) is heavy: its size is not worth walking, and it is no cheap call's input.
 */
export function laneOf(params: Readonly<Record<string, unknown>>): Lane {
  let chars = 0;
  for (const value of Object.values(params)) {
    if (typeof value === 'string') chars += value.length;
    else if (Array.isArray(value)) {
      for (const item of value as unknown[]) {
        if (typeof item !== 'string') return 'heavy';
        chars += item.length + 1;
      }
    } else if (value !== undefined) return 'heavy';
    if (chars > LIGHT_INPUT_CHARS) return 'heavy';
  }
  return 'light';
}
