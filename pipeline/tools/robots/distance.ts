// Edit distance for suggesting what a misspelt key or token meant. Optimal string
// alignment: insertions, deletions, substitutions and swaps of two neighbours each
// cost 1, so `User-agnet` is one edit from `user-agent`.
//
// Suggestions only care whether the distance is within a small limit, and the strings
// come from untrusted files, so the bounded form is the one to call. It refuses on the
// length difference alone, then on character counts (one pass over each string), and
// only then fills the diagonal band of width 2·limit+1, stopping as soon as no cell of the
// last two rows can still lead to a distance within the limit. Its cost is
// O(|a| + |b| + |a| · limit) whatever the inputs, and usually just the two passes.

/**
 * The distance between a and b when it is at most `limit`; otherwise `limit + 1`.
 * `cells` (when given) is increased by the number of table cells filled, for tests
 * that assert the work stays bounded.
 */
export function boundedEditDistance(a: string, b: string, limit: number, cells?: { count: number }): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  const over = limit + 1;
  if (Math.abs(n - m) > limit) return over;
  if (characterDifference(a, b) > limit) return over;
  return tableDistance(a, b, limit, cells);
}

/** The banded table itself, for strings the filters did not rule out. */
function tableDistance(a: string, b: string, limit: number, cells?: { count: number }): number {
  const n = a.length;
  const m = b.length;
  const over = limit + 1;
  // Three rolling rows: the swap needs the row two above. Cells right of the band are never
  // written and stay `over`; the one cell left of it that the next row reads is reset per row.
  const table = rows(m + 1, over);
  let prev2 = table[0];
  let prev = table[1];
  let cur = table[2];
  for (let j = 0; j <= Math.min(m, limit); j++) prev[j] = j;
  let prevMin = 0;
  for (let i = 1; i <= n; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(m, i + limit);
    cur[0] = i <= limit ? i : over;
    cur[from - 1] = from === 1 ? cur[0]! : over;
    let rowMin = cur[from - 1]!;
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = prev[j - 1]! + (ai === bj ? 0 : 1);
      const up = prev[j]! + 1;
      const left = cur[j - 1]! + 1;
      if (up < d) d = up;
      if (left < d) d = left;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aBefore === bj && prev2[j - 2]! + 1 < d) d = prev2[j - 2]! + 1;
      if (d > over) d = over;
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (cells) cells.count += to - from + 1;
    // A later cell is at least this row's minimum, or the previous row's plus one (a swap).
    if (rowMin > limit && prevMin >= limit) return over;
    prevMin = rowMin;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return Math.min(prev[m]!, over);
}

// Characters are counted in 128 buckets (the code modulo 128): merging characters into one
// bucket can only hide differences, so the bound stays a lower bound.
const counts = new Int32Array(128);

/**
 * A lower bound of the edit distance read from character counts alone: every edit removes
 * at most one surplus character from each side, so the distance is at least the larger
 * surplus. Costs one pass over each string, and rules out most unrelated pairs before the
 * table is filled.
 */
function characterDifference(a: string, b: string): number {
  for (let i = 0; i < a.length; i++) counts[a.charCodeAt(i) & 127]! += 1;
  for (let i = 0; i < b.length; i++) counts[b.charCodeAt(i) & 127]! -= 1;
  let surplusA = 0;
  let surplusB = 0;
  for (let i = 0; i < a.length; i++) {
    const bucket = a.charCodeAt(i) & 127;
    const c = counts[bucket]!;
    if (c > 0) surplusA += c;
    else if (c < 0) surplusB -= c;
    counts[bucket] = 0;
  }
  for (let i = 0; i < b.length; i++) {
    const bucket = b.charCodeAt(i) & 127;
    surplusB -= Math.min(0, counts[bucket]!);
    counts[bucket] = 0;
  }
  return Math.max(surplusA, surplusB);
}

/** A string compared with many queries: its character counts, kept once. */
export interface Profile {
  text: string;
  buckets: number[];
  counts: number[];
}

export function profileOf(text: string): Profile {
  const tally = new Map<number, number>();
  for (let i = 0; i < text.length; i++) {
    const bucket = text.charCodeAt(i) & 127;
    tally.set(bucket, (tally.get(bucket) ?? 0) + 1);
  }
  return { text, buckets: [...tally.keys()], counts: [...tally.values()] };
}

/**
 * boundedEditDistance from one query to each target, each with its own limit. The query's
 * characters are counted once, and each target's count bound then costs one step per
 * distinct character of the target, so most targets are ruled out without a table.
 */
export function distancesWithin(query: string, targets: readonly { profile: Profile; limit: number }[]): number[] {
  const out = new Array<number>(targets.length);
  let counted = false;
  for (let t = 0; t < targets.length; t++) {
    const { profile, limit } = targets[t]!;
    out[t] = limit + 1;
    if (Math.abs(query.length - profile.text.length) > limit) continue;
    if (!counted) {
      for (let i = 0; i < query.length; i++) counts[query.charCodeAt(i) & 127]! += 1;
      counted = true;
    }
    // Characters the target has and the query lacks; the query's surplus follows from the lengths.
    let missing = 0;
    for (let k = 0; k < profile.buckets.length; k++) missing += Math.max(0, profile.counts[k]! - counts[profile.buckets[k]!]!);
    if (Math.max(missing, query.length - profile.text.length + missing) > limit) continue;
    out[t] = query === profile.text ? 0 : tableDistance(query, profile.text, limit);
  }
  if (counted) for (let i = 0; i < query.length; i++) counts[query.charCodeAt(i) & 127] = 0;
  return out;
}

// Scratch rows reused across calls: suggestions run this once per unknown key per known
// name, and three fresh arrays each time cost more than the arithmetic. Single-threaded and
// synchronous, so no two calls share them at once.
let scratch: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

function rows(length: number, fill: number): [Int32Array, Int32Array, Int32Array] {
  if (scratch[0].length < length) scratch = [new Int32Array(length), new Int32Array(length), new Int32Array(length)];
  for (const row of scratch) row.fill(fill, 0, length);
  return [scratch[0], scratch[1], scratch[2]];
}

/** The exact distance; only for short strings the caller controls (tests, fixed tables). */
export function editDistance(a: string, b: string): number {
  return boundedEditDistance(a, b, Math.max(a.length, b.length));
}
