/**
 * ASCII letters lower-cased, everything else as it is: the same length and the same offsets as
 * the input, which String.prototype.toLowerCase does not promise ("İ" becomes two code units).
 */
export function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}
