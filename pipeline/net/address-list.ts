// The `ip` parameter: repeatable, and each value may hold a comma, space or newline separated
// list (pasted from a log). Every item is kept, duplicates included, so that each line of the
// answer corresponds to one thing the user sent.
//
// Separators are commas and runs of whitespace; whitespace around a comma belongs to it. Two
// commas with nothing between them leave an empty item, reported rather than dropped (an
// address was probably lost in the paste). Separators at either end are ignored, and a
// repeated parameter given empty (`ip=`) is one empty item.

export interface AddressList {
  items: string[];
}

const SEPARATOR = /\s*,\s*|\s+/;

export function parseAddressList(input: string | readonly string[]): AddressList {
  if (typeof input === 'string') return { items: splitValue(input) ?? [] };
  const items: string[] = [];
  for (const value of input) {
    // One pasted value may hold any number of items: pushed one by one, not spread as arguments.
    for (const item of splitValue(typeof value === 'string' ? value : '') ?? ['']) items.push(item);
  }
  return { items };
}

/** The items of one value; null when it holds nothing but separators. */
function splitValue(value: string): string[] | null {
  // Trimmed by hand: a regex anchored at the end backtracks quadratically on long blank runs.
  let start = 0;
  let end = value.length;
  while (start < end && isSeparator(value.charCodeAt(start))) start++;
  while (end > start && isSeparator(value.charCodeAt(end - 1))) end--;
  return start === end ? null : value.slice(start, end).split(SEPARATOR);
}

function isSeparator(code: number): boolean {
  return code === 0x2c || /\s/.test(String.fromCharCode(code));
}
