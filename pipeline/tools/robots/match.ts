// Compiles one normalised rule pattern into a matcher (RFC 9309 2.2.2 and 2.2.3).
//
// A pattern is anchored at the first octet of the path; `*` matches any run of
// octets (including `/`); a final `$` anchors the end. Patterns come from untrusted
// files, so matching must stay linear: the pattern is split at `*` into literal
// segments, the first must be a prefix, the last (when anchored) a suffix, and the
// ones between are found left to right with indexOf. Leftmost placement of each
// middle segment is always safe because it leaves the most room for the rest.

export type Matcher = (path: string) => boolean;

const never: Matcher = () => false;

export function compilePattern(pattern: string): Matcher {
  if (pattern === '') return never; // RFC 9309 2.2.2: an empty rule matches nothing.
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;

  if (!body.includes('*')) {
    return anchored ? (path) => path === body : (path) => path.startsWith(body);
  }

  const parts = body.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  // Empty middle pieces come from `**`; they constrain nothing.
  const middle = parts.slice(1, -1).filter((p) => p !== '');

  if (anchored) {
    return (path) => {
      if (!path.startsWith(first)) return false;
      const tailStart = path.length - last.length;
      if (tailStart < first.length || !path.endsWith(last)) return false;
      let pos = first.length;
      for (const seg of middle) {
        const at = path.indexOf(seg, pos);
        if (at < 0 || at + seg.length > tailStart) return false;
        pos = at + seg.length;
      }
      return true;
    };
  }

  const rest = last === '' ? middle : [...middle, last];
  return (path) => {
    if (!path.startsWith(first)) return false;
    let pos = first.length;
    for (const seg of rest) {
      const at = path.indexOf(seg, pos);
      if (at < 0) return false;
      pos = at + seg.length;
    }
    return true;
  };
}
