// Content negotiation on Accept-Encoding (RFC 9110 section 12.5.3).

export type Coding = 'br' | 'gzip';
export type Selected = Coding | 'identity';

/** Preference among codings a client rates equally: brotli is smaller for text. */
const PREFERENCE: readonly Coding[] = ['br', 'gzip'];

/**
 * The coding to send, given what the client accepts and which encoded forms exist. A coding
 * with q=0 is refused; `*` stands for every coding not named; no header means identity only
 * in practice (section 12.5.3 allows any, but clients that send none rarely decode).
 */
export function selectCoding(header: string | null, available: ReadonlySet<Coding>): Selected {
  if (header === null || available.size === 0) return 'identity';
  const weights = parseAcceptEncoding(header);
  let best: Selected = 'identity';
  let bestQ = 0;
  for (const coding of PREFERENCE) {
    if (!available.has(coding)) continue;
    const q = weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

// Bounded: a header is at most the server's header size, and only the first 32 items count.
const MAX_ITEMS = 32;

function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(',', MAX_ITEMS)) {
    const [name = '', ...params] = item.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
    }
    if (!weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}
