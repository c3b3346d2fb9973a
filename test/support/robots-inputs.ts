import { ROBOTS_BODY_LIMIT } from '../../pipeline/tools/registry/limits.ts';

/** A robots.txt of `line(0)`, `line(1)`, ... after `head`, stopping before the next line would pass the tools' body limit. */
export function fillToLimit(line: (i: number) => string, head = ''): string {
  let text = head;
  for (let i = 0; ; i++) {
    const next = line(i) + '\n';
    if (text.length + next.length > ROBOTS_BODY_LIMIT) return text;
    text += next;
  }
}
