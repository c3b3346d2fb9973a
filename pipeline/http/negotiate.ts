// Content negotiation for the one kind of choice the service offers: a page that also has a
// JSON form (the reference). RFC 9110 12.5.1: the most specific media range that matches a
// type gives its quality; equal qualities keep the page, which is the canonical form.

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** At most this many ranges are read: an Accept header has a handful, a hostile one thousands. */
const MAX_RANGES = 32;

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',', MAX_RANGES)
    .map((part): MediaRange | null => {
      const [range = '', ...params] = part.split(';');
      const [type, subtype] = range.trim().toLowerCase().split('/');
      if (!type || !subtype) return null;
      const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return Number.isFinite(q) && q >= 0 && q <= 1 ? { type, subtype, q } : null;
    })
    .filter((range): range is MediaRange => range !== null);
}

function qualityOf(ranges: readonly MediaRange[], type: string, subtype: string): number {
  const exact = ranges.find((r) => r.type === type && r.subtype === subtype);
  if (exact) return exact.q;
  const family = ranges.find((r) => r.type === type && r.subtype === '*');
  if (family) return family.q;
  return ranges.find((r) => r.type === '*' && r.subtype === '*')?.q ?? 0;
}

/** True when the client rates application/json above text/html; no Accept header means no preference. */
export function prefersJson(accept: string | null): boolean {
  if (accept === null || accept === '') return false;
  const ranges = parseAccept(accept);
  return qualityOf(ranges, 'application', 'json') > qualityOf(ranges, 'text', 'html');
}

/** True when the client rates text/html above application/json: a browser, not a program (curl sends *\/*). */
export function prefersHtml(accept: string | null): boolean {
  if (accept === null || accept === '') return false;
  const ranges = parseAccept(accept);
  return qualityOf(ranges, 'text', 'html') > qualityOf(ranges, 'application', 'json');
}
