/**
 * ASCII letters lower-cased, everything else as it is: the same length and the same offsets as
 * the input, which String.prototype.toLowerCase does not promise ("İ" becomes two code units).
 */
export function foldAscii(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : text;
}

/** Whether a UTF-16 code unit is an ASCII hexadecimal digit (0-9, A-F, a-f), as in a percent-escape. */
export function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}
