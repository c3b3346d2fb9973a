/** Code-unit order, independent of the machine's locale, so builds are byte-identical everywhere. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
