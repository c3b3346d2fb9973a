// Many fixed substrings found in one left-to-right pass (Aho-Corasick, compiled to a DFA).
//
// Why not one regex alternation: a regex reports one leftmost match, but the classifier must
// know every crawler whose substring occurs (the winner and the `other_matches`). Why not
// `includes` per crawler: that is one scan per crawler; this is one scan per header whatever
// the number of crawlers, with one table lookup per character.
//
// Case-sensitive and over UTF-16 code units, exactly like String.prototype.includes, so the
// answer is the one a naive `ua.includes(substring)` loop gives (the tests compare both).

export interface SubstringMatcher {
  readonly patterns: readonly string[];
  /** Character class of each ASCII code unit; 0 is "occurs in no pattern". */
  readonly asciiClass: Uint16Array;
  /** Classes of the non-ASCII code units that occur in some pattern (usually none). */
  readonly otherClass: ReadonlyMap<number, number>;
  readonly classCount: number;
  /** Next state: delta[state * classCount + class]. Complete, so the scan never backtracks. */
  readonly delta: Int32Array;
  /** Per state, the patterns that end there (its own and those of its suffix states). */
  readonly outputs: readonly (readonly number[])[];
}

export interface Occurrence {
  /** Index into `patterns`. */
  pattern: number;
  /** Start of the first (leftmost) occurrence, in UTF-16 code units. */
  start: number;
}

/** Compiles the matcher once. Patterns must be non-empty; duplicates are allowed (each is reported). */
export function buildMatcher(patterns: readonly string[]): SubstringMatcher {
  const asciiClass = new Uint16Array(128);
  const otherClass = new Map<number, number>();
  let classCount = 1;
  const classOf = (code: number): number => {
    if (code < 128) {
      if (asciiClass[code] === 0) asciiClass[code] = classCount++;
      return asciiClass[code]!;
    }
    let cls = otherClass.get(code);
    if (cls === undefined) {
      cls = classCount++;
      otherClass.set(code, cls);
    }
    return cls;
  };

  // 1. The trie of the patterns.
  const children: Map<number, number>[] = [new Map()];
  const own: number[][] = [[]];
  patterns.forEach((pattern, index) => {
    if (pattern.length === 0) throw new RangeError(`buildMatcher: pattern ${index} is empty; an empty substring would match every string`);
    let state = 0;
    for (let i = 0; i < pattern.length; i++) {
      const cls = classOf(pattern.charCodeAt(i));
      const node = children[state]!;
      let next = node.get(cls);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        own.push([]);
        node.set(cls, next);
      }
      state = next;
    }
    own[state]!.push(index);
  });

  // 2. Failure links breadth first, folding them into a complete transition table.
  const stateCount = children.length;
  const delta = new Int32Array(stateCount * classCount);
  const fail = new Int32Array(stateCount);
  const outputs: number[][] = own.map((list) => [...list]);
  const queue: number[] = [];
  for (const [cls, next] of children[0]!) {
    delta[cls] = next;
    fail[next] = 0;
    queue.push(next);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const failRow = fail[state]! * classCount;
    const row = state * classCount;
    for (let cls = 0; cls < classCount; cls++) {
      const next = children[state]!.get(cls);
      if (next === undefined) {
        delta[row + cls] = delta[failRow + cls]!;
        continue;
      }
      delta[row + cls] = next;
      const nextFail = delta[failRow + cls]!;
      fail[next] = nextFail;
      // The fail state is shallower, so its outputs are already complete.
      if (outputs[nextFail]!.length > 0) outputs[next] = [...outputs[next]!, ...outputs[nextFail]!];
      queue.push(next);
    }
  }

  for (const list of outputs) list.sort((a, b) => a - b);
  return { patterns: [...patterns], asciiClass, otherClass, classCount, delta, outputs };
}

/**
 * Every pattern that occurs in `text`, each once, with the start of its leftmost occurrence.
 * Listed in the order their first occurrence ends, then by pattern index. With `accept`, only
 * occurrences it accepts count, so a pattern is reported at its leftmost accepted occurrence
 * (the classifier's token rule rejects "Exabot" inside "Alexabot" but keeps a later one).
 */
export function findAll(matcher: SubstringMatcher, text: string, accept?: (pattern: number, start: number) => boolean): Occurrence[] {
  const { asciiClass, otherClass, classCount, delta, outputs, patterns } = matcher;
  const found: Occurrence[] = [];
  // Found patterns are few; a set of indices is cheaper than a per-call array of all patterns.
  const seen = new Set<number>();
  let state = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const cls = code < 128 ? asciiClass[code]! : (otherClass.get(code) ?? 0);
    state = delta[state * classCount + cls]!;
    const ending = outputs[state]!;
    if (ending.length === 0) continue;
    for (const pattern of ending) {
      if (seen.has(pattern)) continue;
      const start = i + 1 - patterns[pattern]!.length;
      if (accept !== undefined && !accept(pattern, start)) continue;
      seen.add(pattern);
      found.push({ pattern, start });
    }
  }
  return found;
}
