// The UTF-8 length of text, counted without encoding it: limits stated in bytes (a User-Agent,
// a robots.txt) are checked before any copy is made.

/** UTF-8 length of a string, counting no further than just past `stopAfter` (no TextEncoder copy). */
export function utf8Length(text: string, stopAfter = Infinity): number {
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= stopAfter; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3; // BMP above U+07FF, and lone surrogates (encoded as U+FFFD, 3 bytes)
  }
  return bytes;
}
