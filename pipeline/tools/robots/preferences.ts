// Usage preferences in a robots.txt: what a Content-Usage or Content-Signal line declares, and
// which of them apply to one crawler at one path. Pure: it reads a ParsedRobots and never throws.
//
// How the lines are read (docs/usage-preferences.md has the sources):
// - A statement is parsed as a Structured Field Dictionary (RFC 9651 §3.2), as
//   draft-ietf-aipref-vocab-07 §6 requires for Content-Usage. A statement that does not parse
//   states nothing (vocab §6.5): every preference stays unknown. Content Signals are read the
//   same way; their own documentation shows the same `key=value, key=value` form.
// - Only a label's defined values state a preference (`y`/`n` for Content-Usage, `yes`/`no`
//   for Content-Signal); any other value, and any unknown or legacy label, leaves it unknown.
// - Content-Usage lines of the groups that apply are matched to the path like Allow and
//   Disallow rules: the longest matching path wins, a line without a path matches every path
//   with length 0 (attach-05 §3.1). The winning line's statement applies as a whole; labels it
//   leaves out are unknown, not inherited from shorter lines. Lines of the same length combine
//   with the most restrictive result per label (vocab-07 §5.1).
// - Content-Signal lines carry no path: every one in the groups that apply counts, combined
//   the same most-restrictive way; `use` takes the narrowest level declared.
// - A path the crawler may not fetch has no preferences (attach-05 §3.1): `applies` is false,
//   and `declared` still says what the lines would have said, so contradictions can be shown.

import { isInnerList, parseDictionary, Token, type Dictionary, type InnerList, type Item } from 'structured-headers';
import { compilePattern, type Matcher } from './match.ts';
import type { Group, PreferenceLine } from './parse.ts';
import { normalizeRequestPath } from './percent-encoding.ts';
import { labelOf, type Label, type Vocabulary } from './vocabulary.ts';

export interface Entry {
  key: string;
  /** The value as written: a token's text, `true` for a key without a value, or a description of another type. */
  value: string;
  /** current, legacy (an older draft's label) or unknown (no vocabulary defines it). */
  status: 'current' | 'legacy' | 'unknown';
  /** Whether the value is one the label defines; false leaves the preference unknown. */
  valid: boolean;
  label: Label | null;
}

export interface Statement {
  /** Every key of the statement, in the order written; empty when it does not parse. */
  entries: Entry[];
  /** Why the statement does not parse, naming the accepted form; null when it parses. */
  error: string | null;
}

const ACCEPTED: Record<Vocabulary, string> = {
  'content-usage': 'labels and values separated by commas, labels in lower case, such as "train-ai=n, search=y"',
  'content-signal': 'signals and values separated by commas, in lower case, such as "search=yes, ai-input=yes, ai-train=no"',
};

export function acceptedForm(vocabulary: Vocabulary): string {
  return ACCEPTED[vocabulary];
}

function describe(member: Item | InnerList): string {
  if (isInnerList(member)) return 'a list';
  const [bare] = member;
  if (bare instanceof Token) return bare.toString();
  if (bare === true) return 'true';
  if (typeof bare === 'string') return JSON.stringify(bare);
  if (typeof bare === 'number' || bare === false) return String(bare);
  return 'a value of another type';
}

/** Reads one statement of preference. The parse is linear in its length (RFC 9651 §4.2). */
export function readStatement(vocabulary: Vocabulary, statement: string): Statement {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(statement);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^Parse error: /, '') : 'unreadable';
    return { entries: [], error: `"${clip(statement)}" is not a valid statement (${detail}); it declares nothing. Accepted: ${ACCEPTED[vocabulary]}` };
  }
  const entries: Entry[] = [];
  for (const [key, member] of dictionary) {
    const label = labelOf(vocabulary, key) ?? null;
    const value = describe(member);
    // Only a token among the label's values states a preference (vocab-07 §6.5).
    const valid = label !== null && !isInnerList(member) && member[0] instanceof Token && label.values.includes(value);
    entries.push({ key, value, status: label?.status ?? 'unknown', valid, label });
  }
  return { entries, error: null };
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

type Tri = 'allowed' | 'disallowed' | 'unknown';

/** Preferences of the IETF vocabulary, one per current label. */
interface UsagePreferences {
  'train-ai': Tri;
  search: Tri;
  /** The Content-Usage lines whose statements were combined (the longest matching path). */
  lines: number[];
  /** Whether a Content-Usage response header given with the call was combined in. */
  header: boolean;
}

/** Content Signals, one per current signal; null where nothing is declared. */
interface SignalPreferences {
  search: 'yes' | 'no' | null;
  'ai-input': 'yes' | 'no' | null;
  'ai-train': 'yes' | 'no' | null;
  use: 'immediate' | 'reference' | 'full' | null;
  lines: number[];
}

export interface Resolved {
  /** False when the crawler may not fetch the path: preferences then apply to nothing (attach-05 §3.1). */
  applies: boolean;
  content_usage: UsagePreferences;
  content_signal: SignalPreferences;
}

const matchers = new WeakMap<PreferenceLine, Matcher>();

function matches(p: PreferenceLine, path: string): boolean {
  if (p.path === null) return true;
  let m = matchers.get(p);
  if (m === undefined) {
    m = compilePattern(p.pattern);
    matchers.set(p, m);
  }
  return m(path);
}

const statements = new WeakMap<PreferenceLine, Statement>();

/** The statement of a line, read once per line. */
export function statementOf(p: PreferenceLine): Statement {
  let s = statements.get(p);
  if (s === undefined) {
    s = readStatement(p.vocabulary, p.statement);
    statements.set(p, s);
  }
  return s;
}

function combineTri(current: Tri, value: string): Tri {
  if (current === 'disallowed' || value === 'n') return 'disallowed';
  return value === 'y' ? 'allowed' : current;
}

function combineUsage(into: UsagePreferences, statement: Statement): void {
  for (const e of statement.entries) {
    if (!e.valid || e.status !== 'current') continue;
    if (e.key === 'train-ai' || e.key === 'search') into[e.key] = combineTri(into[e.key], e.value);
  }
}

const USE_ORDER = ['immediate', 'reference', 'full'] as const;

function combineSignals(into: SignalPreferences, statement: Statement): void {
  for (const e of statement.entries) {
    if (!e.valid) continue;
    if (e.key === 'use') {
      const level = USE_ORDER.find((u) => u === e.value) ?? null;
      if (level !== null && (into.use === null || USE_ORDER.indexOf(level) < USE_ORDER.indexOf(into.use))) into.use = level;
    } else if (e.key === 'search' || e.key === 'ai-input' || e.key === 'ai-train') {
      if (into[e.key] !== 'no') into[e.key] = e.value === 'no' ? 'no' : 'yes';
    }
  }
}

function emptyUsage(): UsagePreferences {
  return { 'train-ai': 'unknown', search: 'unknown', lines: [], header: false };
}

/**
 * The preferences the groups `indices` declare for `path`, and whether they apply (`allowed`:
 * the crawler's verdict for the path). `header`, when given, is a Content-Usage response header
 * sent with the content at that path; it combines with the file's, most restrictive first, for a
 * crawler that may fetch the path (one that may not never sees it).
 * Work: one comparison per preference line of the selected groups.
 */
export function resolvePreferences(
  groups: readonly Group[],
  indices: readonly number[],
  path: string,
  allowed: boolean,
  header: Statement | null = null,
): Resolved {
  const normalized = normalizeRequestPath(path);
  // Most crawlers fall to the same groups (the * groups): the file's part is resolved once per
  // selection and path, so the work is what evaluationCost counted, not once per crawler.
  let byKey = resolved.get(groups);
  if (byKey === undefined) {
    byKey = new Map();
    resolved.set(groups, byKey);
  }
  const key = `${indices.join(',')} ${normalized}`;
  let fromFile = byKey.get(key);
  if (fromFile === undefined) {
    fromFile = fromGroups(groups, indices, normalized);
    byKey.set(key, fromFile);
  }
  const usage: UsagePreferences = { ...fromFile.usage, lines: [...fromFile.usage.lines] };
  // The header comes with the content, which a crawler kept out never receives.
  if (header !== null && allowed) {
    usage.header = true;
    combineUsage(usage, header);
  }
  return { applies: allowed, content_usage: usage, content_signal: { ...fromFile.signals, lines: [...fromFile.signals.lines] } };
}

const resolved = new WeakMap<readonly Group[], Map<string, { usage: UsagePreferences; signals: SignalPreferences }>>();

function fromGroups(groups: readonly Group[], indices: readonly number[], normalized: string): { usage: UsagePreferences; signals: SignalPreferences } {
  const usage = emptyUsage();
  const signals: SignalPreferences = { search: null, 'ai-input': null, 'ai-train': null, use: null, lines: [] };
  let best = -1;
  let winners: PreferenceLine[] = [];
  for (const gi of indices) {
    for (const p of groups[gi]!.preferences) {
      if (p.vocabulary === 'content-signal') {
        signals.lines.push(p.line);
        combineSignals(signals, statementOf(p));
        continue;
      }
      const octets = p.pattern.length;
      if (octets < best || !matches(p, normalized)) continue;
      if (octets > best) {
        best = octets;
        winners = [];
      }
      winners.push(p);
    }
  }
  for (const p of winners) {
    usage.lines.push(p.line);
    combineUsage(usage, statementOf(p));
  }
  usage.lines.sort((a, b) => a - b);
  signals.lines.sort((a, b) => a - b);
  return { usage, signals };
}

/** One way the declared preferences and the crawl rules say opposite things for a crawler at a path. */
export interface Contradiction {
  code: 'preference-on-disallowed-path' | 'vocabularies-disagree';
  /** The preference lines involved. */
  lines: number[];
  message: string;
}

/**
 * Real contradictions only. A crawler that may fetch a path where training is refused is not one:
 * fetching and using are separate questions, and saying "fetch, but do not train" is the point of
 * these lines. What is contradictory:
 * - a use allowed (y/yes) on a path the crawler may not fetch: the file asks it to stay out, so
 *   the preference can never be acted on (attach-05 §3.1 gives disallowed paths no preferences);
 * - the two vocabularies answering the same question oppositely (train-ai against ai-train,
 *   search against search): the vocabulary's combining rule then takes the refusal.
 */
export function contradictionsOf(token: string, path: string, resolved: Resolved): Contradiction[] {
  const out: Contradiction[] = [];
  const { content_usage: u, content_signal: s } = resolved;
  if (!resolved.applies) {
    const allowedUses = [
      ...(u['train-ai'] === 'allowed' ? ['train-ai=y'] : []),
      ...(u.search === 'allowed' ? ['search=y'] : []),
      ...(s.search === 'yes' ? ['search=yes'] : []),
      ...(s['ai-input'] === 'yes' ? ['ai-input=yes'] : []),
      ...(s['ai-train'] === 'yes' ? ['ai-train=yes'] : []),
    ];
    if (allowedUses.length > 0) {
      out.push({
        code: 'preference-on-disallowed-path',
        lines: [...u.lines, ...s.lines].sort((a, b) => a - b),
        message: `${token} may not fetch ${path}, yet its group declares ${allowedUses.join(', ')} there: a crawler that stays out cannot use the content, so the preference has no effect. Allow the path for ${token} if you want that use.`,
      });
    }
  }
  const pairs: [Tri, 'yes' | 'no' | null, string, string][] = [
    [u['train-ai'], s['ai-train'], 'train-ai', 'ai-train'],
    [u.search, s.search, 'search', 'search'],
  ];
  for (const [usage, signal, usageKey, signalKey] of pairs) {
    if ((usage === 'allowed' && signal === 'no') || (usage === 'disallowed' && signal === 'yes')) {
      out.push({
        code: 'vocabularies-disagree',
        lines: [...u.lines, ...s.lines].sort((a, b) => a - b),
        message: `for ${token} at ${path}, Content-Usage says ${usageKey}=${usage === 'allowed' ? 'y' : 'n'} but Content-Signal says ${signalKey}=${signal}; a reader combining both takes the refusal (draft-ietf-aipref-vocab-07 §5.1). Make the two lines agree.`,
      });
    }
  }
  return out;
}

/** Reads a Content-Usage HTTP response header value (draft-ietf-aipref-attach-05 §2). */
export function readContentUsageHeader(value: string): Statement {
  return readStatement('content-usage', value);
}
