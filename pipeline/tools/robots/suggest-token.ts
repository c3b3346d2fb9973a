// "Did you mean": the indexed crawler a user-agent value that names none most likely meant,
// read from the value's own shape before any spelling distance. Sites write a crawler's name
// with its version (`MojeekBot/0.11`), with a suffix of their own (`Googlebot-Foo`), without
// the generic part (`mojeek`, `Yandex` for MojeekBot, YandexBot), cut short
// (`Applebot-Ext`), or misspelt (`GTPBot`). Each reading is tried in that order, and a
// reading that fits several crawlers equally says nothing: a wrong suggestion costs the site
// owner more than none (docs/API.md, ai-access `unknown_tokens`).

/** What the suggestion was read from. */
export type SuggestionBasis = 'version' | 'product-token' | 'suffix' | 'stem' | 'prefix' | 'spelling';

export interface Suggestion {
  token: string;
  basis: SuggestionBasis;
}

/** A name a crawler is known by (its token, an alias, a retired token it honours) and the token to write for it. */
export interface KnownName {
  name: string;
  token: string;
}

/** The known names arranged for lookups; build it once per crawler list. */
export interface SuggestionIndex {
  /** Lower-case name → the tokens it stands for. */
  byName: ReadonlyMap<string, ReadonlySet<string>>;
  /** Lower-case stem (the name without a generic ending such as `bot`) → the tokens. */
  byStem: ReadonlyMap<string, ReadonlySet<string>>;
  names: readonly { lower: string; token: string }[];
}

// Generic endings of crawler names: without them, what is left names the crawler.
const GENERIC_END = /[-_ ]?(?:bot|crawler|spider|robot)$/i;

/** The name without its generic ending: `MojeekBot` → `mojeek`. A name that is only the ending stays whole. */
export function stemOf(name: string): string {
  const lower = name.toLowerCase();
  const stem = lower.replace(GENERIC_END, '');
  return stem === '' ? lower : stem;
}

function add(map: Map<string, Set<string>>, key: string, token: string): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(token);
}

export function suggestionIndex(known: readonly KnownName[]): SuggestionIndex {
  const byName = new Map<string, Set<string>>();
  const byStem = new Map<string, Set<string>>();
  for (const { name, token } of known) {
    add(byName, name.toLowerCase(), token);
    add(byStem, stemOf(name), token);
  }
  return { byName, byStem, names: known.map(({ name, token }) => ({ lower: name.toLowerCase(), token })) };
}

/** Shortest start of a name worth reading as the name cut short, and the share of the name it must cover. */
const PREFIX_MIN = 4;
const PREFIX_SHARE = 0.5;

type Reading = (value: string, index: SuggestionIndex) => ReadonlySet<string> | undefined;

const named = (index: SuggestionIndex, name: string) => index.byName.get(name);
const none: ReadonlySet<string> = new Set();

// The readings, in order; the first that points to any crawler decides, and says nothing when
// it points to several.
const READINGS: readonly (readonly [SuggestionBasis, Reading])[] = [
  // `MojeekBot/0.11`: the name before a version.
  ['version', (v, index) => (v.includes('/') ? named(index, v.slice(0, v.indexOf('/'))) : undefined)],
  // `GPTBot2`, `panscient.com`: the RFC 9309 product token a strict parser reads from it, or its stem.
  [
    'product-token',
    (v, index) => {
      const token = /^[a-z_-]*/.exec(v)![0];
      if (token === '' || token === v) return undefined;
      return named(index, token) ?? index.byStem.get(stemOf(token));
    },
  ],
  // `mojeek`, `Mojeek-Bot`: the same name without, or with another, generic ending.
  ['stem', (v, index) => index.byStem.get(stemOf(v))],
  // `Applebot-Ext`: the start of one name only, long enough to be more than its first letters.
  [
    'prefix',
    (v, index) => {
      if (v.length < PREFIX_MIN) return undefined;
      const starting = index.names.filter((n) => n.lower.startsWith(v));
      if (starting.length === 0) return undefined;
      const tokens = new Set(starting.map((n) => n.token));
      return tokens.size > 1 || v.length >= starting[0]!.lower.length * PREFIX_SHARE ? tokens : none;
    },
  ],
  // `Googlebot-Foo`: a suffix of the site's own after a hyphen or underscore.
  [
    'suffix',
    (v, index) => {
      for (let cut = lastSeparator(v, v.length); cut > 0; cut = lastSeparator(v, cut)) {
        const tokens = named(index, v.slice(0, cut));
        if (tokens !== undefined) return tokens;
      }
      return undefined;
    },
  ],
  // `GTPBot`, `GPTBott`, `PerplexityUser`: one slip of the keyboard.
  [
    'spelling',
    (v, index) => {
      const tokens = new Set(index.names.filter((n) => isSlip(v, n.lower)).map((n) => n.token));
      return tokens.size > 0 ? tokens : undefined;
    },
  ],
];

function lastSeparator(s: string, before: number): number {
  return Math.max(s.lastIndexOf('-', before - 1), s.lastIndexOf('_', before - 1));
}

const SEPARATOR = /[-_. ]/;

/**
 * Whether `typed` is `name` after one slip that keeps a name recognisable: two neighbours
 * swapped, a separator left out or added, or a letter doubled or undoubled. A different letter
 * is not a slip: `MoodleBot` is another crawler than `Googlebot`, and `IonCrawl` than `OnCrawl`.
 */
export function isSlip(typed: string, name: string): boolean {
  if (typed === name) return false;
  if (typed.length === name.length) {
    let i = 0;
    while (typed[i] === name[i]) i++;
    return typed[i] === name[i + 1] && typed[i + 1] === name[i] && typed.slice(i + 2) === name.slice(i + 2);
  }
  const [long, short] = typed.length > name.length ? [typed, name] : [name, typed];
  if (long.length !== short.length + 1) return false;
  let i = 0;
  while (i < short.length && long[i] === short[i]) i++;
  if (long.slice(i + 1) !== short.slice(i)) return false;
  const extra = long[i]!;
  return SEPARATOR.test(extra) || long[i - 1] === extra || long[i + 1] === extra;
}

/**
 * The token `value` most likely meant, and what it was read from; null when no reading points
 * to exactly one crawler. Linear in the value's length times the number of names.
 */
export function suggestToken(value: string, index: SuggestionIndex): Suggestion | null {
  const lower = value.trim().toLowerCase();
  if (lower === '' || lower === '*') return null;
  for (const [basis, read] of READINGS) {
    const tokens = read(lower, index);
    if (tokens === undefined) continue;
    if (tokens.size !== 1) return null;
    return { token: tokens.values().next().value!, basis };
  }
  return null;
}
