// Decides whether a crawler may fetch a path under a parsed robots.txt (RFC 9309),
// and says which line decided, which group applied, and whether other common parser
// behaviours would have answered differently.
//
// Group selection (RFC 9309 2.2.1):
// 1. the groups whose user-agent token equals the crawler's token, case-insensitive,
//    all merged into one (2.2.1 "MUST be combined");
// 2. otherwise, DELIBERATE DEVIATION documented by Google for its own crawlers
//    (Googlebot-Image obeys a `Googlebot` group when no `Googlebot-Image` group
//    exists): the longest prefix of the token ending before a hyphen that has a
//    group. Reported as `matched_by: 'fallback'` with `fallback_from`, and the strict
//    RFC answer is compared in `disagreements.without_fallback`;
// 3. otherwise the `*` groups, merged;
// 4. otherwise no rule applies and everything is allowed.
//
// Rule selection (RFC 9309 2.2.2, 2.2.3): the matching rule with the most octets in
// its normalised pattern wins; Allow wins a tie; an empty pattern matches nothing;
// `/robots.txt` itself is always allowed.
//
// Google's reference parser is run beside it as a second reading (google-reading.ts): its
// groups (parse.ts), its rule values and URLs as it matches them, its `index.html` rule, and
// the caller's value compared whole, as that parser compares it. Where it answers the
// opposite, `disagreements.google_parser` is set and a note says which of its behaviours made
// the difference and the RFC 9309 section this tool follows instead.

import { GOOGLE_LINE_BYTES, googleLine, googlePath, googlePattern, indexDirectoryPattern } from './google-reading.ts';
import { compilePattern } from './match.ts';
import type { Matcher } from './match.ts';
import { normalizeRequestPath } from './percent-encoding.ts';
import type { Group, ParsedRobots, Rule } from './parse.ts';

type MatchedBy = 'token' | 'fallback' | 'star' | 'none';

export interface DecidingRule {
  line: number;
  text: string;
  directive: 'allow' | 'disallow';
  /** The normalised pattern that matched. */
  pattern: string;
  /** Its length in octets, the match's priority. */
  octets: number;
}

/** True where a parser behaving as described would give the opposite allowed/disallowed answer. */
export interface Disagreements {
  /** Obeys only the first of several groups naming the crawler, without merging (RFC 9309 2.2.1 merges). */
  non_merging: boolean;
  /** Obeys the first group in file order that names the crawler or `*`, not the most specific one. */
  first_group_wins: boolean;
  /** Takes the first matching rule in file order (1994 convention, Python's urllib.robotparser), not the longest. */
  first_rule_wins: boolean;
  /** Strict RFC 9309 without the hyphen-prefix fallback used here (only when `matched_by` is `fallback`). */
  without_fallback: boolean;
  /** Google's reference parser (google/robotstxt): accepts typos such as `Dissallow` and a missing colon,
   * compares the caller's value whole, matches the URL without percent-encoding it and rule escapes
   * literally, reads `Allow: /a/index.html` as also allowing `/a/`, and cuts long lines. */
  google_parser: boolean;
  /** Compares the whole user-agent value (`AI2Bot`) instead of cutting it at the first character that is
   * not a product-token character (`AI`). */
  whole_name: boolean;
}

export interface PathVerdict {
  /** The path as given. */
  path: string;
  /** The path and query after normalisation, as matched. */
  normalized_path: string;
  /** The product token as matched. */
  token: string;
  allowed: boolean;
  deciding: DecidingRule | null;
  reason: string;
  /** The merged group that applied: its user-agent line numbers and the distinct tokens they name (the first
   * GROUP_LISTED of each), and how many there are in all. */
  group: { lines: number[]; tokens: string[]; line_count: number; token_count: number } | null;
  matched_by: MatchedBy;
  /** The token asked for, when the group was found by hyphen-prefix fallback; null otherwise. */
  fallback_from: string | null;
  disagreements: Disagreements;
  /** One sentence per disagreement, and remarks about the token or the selection. */
  notes: string[];
}

interface CompiledRule {
  rule: Rule;
  /** The pattern matched: the rule's normalised pattern, or in the Google reading its value as Google reads it. */
  pattern: string;
  /** Compiled on first use: a call refused for its cost, or one decided by a longer rule, never compiles the rest. */
  matcher: Matcher | null;
  octets: number;
  /** Google reading only: the directory rule Google adds for an Allow of an `index.htm…` path. */
  indexDirectory: boolean;
}

function matches(r: CompiledRule, path: string): boolean {
  r.matcher ??= compilePattern(r.pattern);
  return r.matcher(path);
}

interface Model {
  groups: Group[];
  /** Per group, in file order; compiled when a selection first needs the group (rulesOf). */
  rules: Array<CompiledRule[] | undefined>;
  compileRule: (rule: Rule) => CompiledRule[];
  byToken: Map<string, number[]>;
  star: number[];
  /** The first group naming `*`, or -1. */
  firstStar: number;
  /** Non-empty rules of a selection of groups, longest first, keyed by the selection. */
  longestFirst: Map<string, CompiledRule[]>;
  /** A short number per selection key, so that memo keys do not repeat a long list of group indices. */
  selectionIds: Map<string, number>;
  /** Decisions already made, keyed by pass, selection and normalised path: several crawlers
   * that fall to the same group (most fall to `*`) cost one evaluation, not one each. */
  decisions: Map<string, Decision>;
  /** Group descriptions, keyed by selection. */
  described: Map<string, PathVerdict['group']>;
  /** Selection keys by the array holding the selection (keyOf). */
  keys: Map<readonly number[], string>;
}

interface Compiled {
  rfc: Model;
  /** The Google reading; built when first needed. */
  google: Model | null;
  /** Whether the Google reading forms other groups (parse.ts google_groups). */
  googleGroupsDiffer: boolean;
  /** Per selection key: whether Google's parser reads a rule of those groups otherwise (googleReadsRulesOtherwise). */
  googleRulesDiffer: Map<string, boolean>;
  /** Present only when some user-agent value reads differently as a whole name. */
  byWholeName: Map<string, number[]> | null;
  /** The RFC 9309 reading's compiled rules, shared by the Google reading where it reads a rule the same. */
  rfcRules: Map<Rule, CompiledRule>;
  /** Whether some line is a user-agent line or a rule to Google's parser only (hasGoogleOnlyLines); found when first needed. */
  googleOnlyLines: boolean | null;
}

function googleModel(compiled: Compiled, parsed: ParsedRobots): Model {
  compiled.google ??= buildModel(parsed.google_groups ?? parsed.groups, (rule) => googleRules(rule, compiled.rfcRules));
  return compiled.google;
}

/**
 * The caller's path as Google's parser would be given it: a URL as it is, a path (this tool's
 * input, always read from the root) behind a host, so that `a/b` is not read as host `a`.
 */
function googlePathOf(input: string): string {
  const s = input.trim();
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(s)) return googlePath(s);
  return googlePath(s.startsWith('/') ? `http://host${s}` : `http://host/${s}`);
}

interface Selection {
  indices: number[];
  matchedBy: MatchedBy;
  matchedToken: string | null;
}

// The compiled file travels with the parsed one, as a property no enumeration or comparison
// sees (see keyOf for why not a WeakMap).
const COMPILED = Symbol('compiled');
type WithCompiled = ParsedRobots & { [COMPILED]?: Compiled };

function addTo(map: Map<string, number[]>, key: string, index: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [index]);
  else if (list[list.length - 1] !== index) list.push(index);
}

function rfcRule(rule: Rule): CompiledRule {
  return { rule, pattern: rule.pattern, matcher: null, octets: rule.pattern.length, indexDirectory: false };
}

/** A rule as Google's parser reads it, and for an Allow ending in `index.htm…` the directory rule it adds. */
function googleRules(rule: Rule, rfcRules: ReadonlyMap<Rule, CompiledRule>): CompiledRule[] {
  const rfcVersion = rfcRules.get(rule);
  const pattern = googlePattern(rule.value);
  const own: CompiledRule =
    rfcVersion !== undefined && rfcVersion.pattern === pattern ? rfcVersion : { rule, pattern, matcher: null, octets: pattern.length, indexDirectory: false };
  const directory = rule.directive === 'allow' ? indexDirectoryPattern(pattern) : null;
  if (directory === null) return [own];
  return [own, { rule, pattern: directory, matcher: null, octets: directory.length, indexDirectory: true }];
}

function buildModel(groups: Group[], compileRule: (rule: Rule) => CompiledRule[]): Model {
  const byToken = new Map<string, number[]>();
  const star: number[] = [];
  groups.forEach((g, i) => {
    for (const ua of g.user_agents) {
      if (ua.token === '*') {
        if (star[star.length - 1] !== i) star.push(i);
      } else if (ua.token !== '') addTo(byToken, ua.token.toLowerCase(), i);
    }
  });
  return {
    groups,
    rules: new Array<CompiledRule[] | undefined>(groups.length),
    compileRule,
    byToken,
    star,
    firstStar: star[0] ?? -1,
    longestFirst: new Map(),
    selectionIds: new Map(),
    decisions: new Map(),
    described: new Map(),
    keys: new Map(),
  };
}

/** The rules of one group, compiled on first use: one check reads only the groups that apply to it. */
function rulesOf(model: Model, gi: number): CompiledRule[] {
  let rules = model.rules[gi];
  if (rules === undefined) {
    const group = model.groups[gi]!.rules;
    rules = [];
    for (const rule of group) for (const c of model.compileRule(rule)) rules.push(c);
    model.rules[gi] = rules;
  }
  return rules;
}

/**
 * Whether Google's parser reads a rule of these groups otherwise: escapes compared as written,
 * non-ASCII left raw, or an `index.htm…` Allow that also allows its directory. Only the groups
 * that decide can change a verdict, so a file is not read through for one check.
 */
function googleReadsRulesOtherwise(compiled: Compiled, parsed: ParsedRobots, indices: readonly number[]): boolean {
  const key = keyOf(compiled.rfc, indices);
  let differs = compiled.googleRulesDiffer.get(key);
  if (differs === undefined) {
    differs = indices.some((gi) =>
      parsed.groups[gi]!.rules.some(
        // A value normalisation left as written has no escape and no non-ASCII, which is all googlePattern changes.
        (r) => (r.pattern !== r.value && googlePattern(r.value) !== r.pattern) || (r.directive === 'allow' && r.value.includes('/index.htm')),
      ),
    );
    compiled.googleRulesDiffer.set(key, differs);
  }
  return differs;
}

function compile(parsed: ParsedRobots): Compiled {
  const hit = (parsed as WithCompiled)[COMPILED];
  if (hit) return hit;
  const ruleCache = new Map<Rule, CompiledRule>();
  const rfc = buildModel(parsed.groups, (rule) => {
    let c = ruleCache.get(rule);
    if (!c) {
      c = rfcRule(rule);
      ruleCache.set(rule, c);
    }
    return [c];
  });
  let byWholeName: Map<string, number[]> | null = null;
  parsed.groups.forEach((g, i) => {
    for (const ua of g.user_agents) {
      if (ua.token === '*' || ua.whole_name.toLowerCase() === ua.token.toLowerCase()) continue;
      byWholeName ??= new Map();
      addTo(byWholeName, ua.whole_name.toLowerCase(), i);
    }
  });
  // Whole-name lookup falls back to the token for values that read the same both ways.
  if (byWholeName !== null) {
    const whole: Map<string, number[]> = byWholeName;
    parsed.groups.forEach((g, i) => {
      for (const ua of g.user_agents) {
        if (ua.token !== '*' && ua.token !== '' && ua.whole_name.toLowerCase() === ua.token.toLowerCase()) {
          addTo(whole, ua.token.toLowerCase(), i);
        }
      }
    });
    for (const list of whole.values()) list.sort((a, b) => a - b);
  }
  const compiled: Compiled = {
    rfc,
    google: null,
    googleGroupsDiffer: parsed.google_groups !== null,
    googleRulesDiffer: new Map(),
    byWholeName,
    rfcRules: ruleCache,
    googleOnlyLines: null,
  };
  Object.defineProperty(parsed, COMPILED, { value: compiled, enumerable: false });
  return compiled;
}

/** Trims the caller's token and cuts a version or comment off (`Googlebot/2.1` → `Googlebot`). */
export function normalizeToken(input: string): string {
  return /^[^ \t\f\v\r\n/]*/.exec(input.trim())![0];
}

function select(byToken: Map<string, number[]>, star: number[], token: string, fallback: boolean): Selection {
  const lower = token.toLowerCase();
  if (lower !== '' && lower !== '*') {
    const exact = byToken.get(lower);
    if (exact) return { indices: exact, matchedBy: 'token', matchedToken: token };
    if (fallback) {
      for (let cut = lower.lastIndexOf('-'); cut > 0; cut = lower.lastIndexOf('-', cut - 1)) {
        const prefix = byToken.get(lower.slice(0, cut));
        if (prefix) return { indices: prefix, matchedBy: 'fallback', matchedToken: token.slice(0, cut) };
      }
    }
  }
  if (star.length > 0) return { indices: star, matchedBy: 'star', matchedToken: '*' };
  return { indices: [], matchedBy: 'none', matchedToken: null };
}

interface Decision {
  best: CompiledRule | null;
  /** An Allow beat a Disallow of the same length. */
  tie: boolean;
}

// Selections are compared and cached by the group indices they hold. The big lists (the
// `*` groups, a token's groups) are the same array objects on every call, so their key is
// built once per model. A Map on the model, not a module-wide WeakMap: a WeakMap entry per
// parsed file makes every garbage collection walk all of them, which on a server answering one
// file after another cost more than the evaluations themselves.
function keyOf(model: Model, indices: readonly number[]): string {
  let key = model.keys.get(indices);
  if (key === undefined) {
    key = indices.join(',');
    model.keys.set(indices, key);
  }
  return key;
}

function selectionId(model: Model, indices: readonly number[]): number {
  const key = keyOf(model, indices);
  let id = model.selectionIds.get(key);
  if (id === undefined) {
    id = model.selectionIds.size;
    model.selectionIds.set(key, id);
  }
  return id;
}

/** The memo key of one search of one path. */
function memoKey(model: Model, kind: 'L' | 'F', indices: readonly number[], path: string): string {
  return `${kind}${selectionId(model, indices)} ${path}`;
}

// Sorting once per selection lets the search stop at the first match: every rule
// after it is no longer, and only an equal-length Allow can still change the answer.
function longestFirst(model: Model, indices: readonly number[]): CompiledRule[] {
  const key = keyOf(model, indices);
  let list = model.longestFirst.get(key);
  if (!list) {
    list = indices.flatMap((gi) => rulesOf(model, gi)).filter((r) => r.octets > 0);
    list.sort((a, b) => b.octets - a.octets); // stable: file order within a length
    model.longestFirst.set(key, list);
  }
  return list;
}

/**
 * Up to this many paths per call, each search reads the rules in file order instead of sorting
 * them first: sorting pays off only once it lets many paths stop early.
 */
const FEW_PATHS = 4;

/** The longest match read in file order: the same decision as the sorted search, for one path. */
function scanLongest(model: Model, indices: readonly number[], path: string): Decision {
  // The first match of the greatest length, and the first Allow and Disallow of that length.
  let first: CompiledRule | null = null;
  let allow: CompiledRule | null = null;
  let disallow: CompiledRule | null = null;
  for (const gi of indices) {
    for (const r of rulesOf(model, gi)) {
      if (r.octets === 0 || (first !== null && r.octets < first.octets) || !matches(r, path)) continue;
      if (first === null || r.octets > first.octets) {
        first = r;
        allow = null;
        disallow = null;
      }
      if (r.rule.directive === 'allow') allow ??= r;
      else disallow ??= r;
    }
  }
  // Same length, opposite directives: Allow wins the tie (RFC 9309 2.2.2).
  const tie = allow !== null && disallow !== null;
  return { best: tie ? allow : first, tie };
}

function decideLongest(model: Model, indices: readonly number[], path: string, fewPaths = false): Decision {
  const memo = memoKey(model, 'L', indices, path);
  const known = model.decisions.get(memo);
  if (known) return known;
  if (fewPaths) {
    const scanned = scanLongest(model, indices, path);
    model.decisions.set(memo, scanned);
    return scanned;
  }
  let best: CompiledRule | null = null;
  let tie = false;
  for (const r of longestFirst(model, indices)) {
    if (best === null) {
      if (matches(r, path)) best = r;
      continue;
    }
    if (r.octets < best.octets) break;
    if (r.rule.directive === best.rule.directive || !matches(r, path)) continue;
    // Same length, opposite directive: Allow wins the tie (RFC 9309 2.2.2).
    tie = true;
    if (r.rule.directive === 'allow') best = r;
    break;
  }
  const decision = { best, tie };
  model.decisions.set(memo, decision);
  return decision;
}

function decideFirst(model: Model, indices: readonly number[], path: string): CompiledRule | null {
  const memo = memoKey(model, 'F', indices, path);
  const known = model.decisions.get(memo);
  if (known) return known.best;
  let found: CompiledRule | null = null;
  search: for (const gi of indices) {
    for (const r of rulesOf(model, gi)) {
      if (matches(r, path)) {
        found = r;
        break search;
      }
    }
  }
  model.decisions.set(memo, { best: found, tie: false });
  return found;
}

function allowedBy(rule: CompiledRule | null): boolean {
  return rule === null || rule.rule.directive === 'allow';
}

/** The first group in file order that names the token or `*`: both lists are in file order. */
function firstGroupInFileOrder(model: Model, token: string): number[] {
  const lower = token.toLowerCase();
  const named = lower === '' ? undefined : model.byToken.get(lower)?.[0];
  const candidates = [named ?? -1, model.firstStar].filter((i) => i >= 0);
  return candidates.length === 0 ? [] : [Math.min(...candidates)];
}

function sameIndices(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** The most user-agent lines and tokens a verdict lists for its group; the counts are always whole. */
export const GROUP_LISTED = 50;

function describeGroup(model: Model, sel: Selection): PathVerdict['group'] {
  if (sel.indices.length === 0) return null;
  const key = keyOf(model, sel.indices);
  const known = model.described.get(key);
  if (known !== undefined) return known;
  const lines: number[] = [];
  const tokens: string[] = [];
  const seen = new Set<string>();
  let lineCount = 0;
  for (const gi of sel.indices) {
    for (const ua of model.groups[gi]!.user_agents) {
      lineCount += 1;
      if (lines.length < GROUP_LISTED) lines.push(ua.line);
      const lower = ua.token.toLowerCase();
      if (lower !== '' && !seen.has(lower)) {
        seen.add(lower);
        if (tokens.length < GROUP_LISTED) tokens.push(ua.token);
      }
    }
  }
  const group = { lines, tokens, line_count: lineCount, token_count: seen.size };
  model.described.set(key, group);
  return group;
}

function directiveName(d: 'allow' | 'disallow'): string {
  return d === 'allow' ? 'Allow' : 'Disallow';
}

/** Which groups each reading of the file applies to one token. */
interface Plan {
  token: string;
  sel: Selection;
  /** Strict RFC 9309 selection, when the hyphen fallback chose `sel`. */
  strictSel: Selection | null;
  firstGroup: number[];
  /** The caller's value as Google's parser compares it: whole, not cut to a product token. */
  googleToken: string;
  googleTokenDiffers: boolean;
  /** The selection by whole user-agent values, when it differs from `sel`. */
  wholeSel: Selection | null;
}

/**
 * How user-agent lines are read. `rfc`: as RFC 9309 defines a product token (letters, "_",
 * "-"), so `User-agent: AI2Bot` is a group for "AI". `whole-token`: the whole value, as a
 * crawler whose documented token has a digit must read it to find its own group; the other
 * reading is then the one reported as disagreeing.
 */
export type Reading = 'rfc' | 'whole-token';

/**
 * The reading a crawler itself must use: a token that is an RFC 9309 product token reads the
 * same both ways; one with a digit or a space (AI2Bot) can only find its group read whole.
 */
export function readingForToken(productToken: string): Reading {
  const token = normalizeToken(productToken);
  return token === '' || token === '*' || /^[A-Za-z_-]+$/.test(token) ? 'rfc' : 'whole-token';
}

function planFor(compiled: Compiled, productToken: string, reading: Reading = 'rfc'): Plan {
  const { rfc } = compiled;
  const token = normalizeToken(productToken);
  const googleToken = productToken.trim();
  const rfcSel = select(rfc.byToken, rfc.star, token, true);
  const wholeRead = compiled.byWholeName ? select(compiled.byWholeName, rfc.star, token, true) : null;
  // The chosen reading decides; the other, where it selects other groups, is the alternative.
  const [sel, wholeSel] = reading === 'whole-token' && wholeRead !== null ? [wholeRead, rfcSel] : [rfcSel, wholeRead];
  return {
    token,
    sel,
    strictSel: sel.matchedBy === 'fallback' ? select(rfc.byToken, rfc.star, token, false) : null,
    firstGroup: firstGroupInFileOrder(rfc, token),
    googleToken,
    googleTokenDiffers: googleToken.toLowerCase() !== token.toLowerCase(),
    wholeSel: wholeSel !== null && !sameIndices(wholeSel.indices, sel.indices) ? wholeSel : null,
  };
}

/**
 * Whether Google's reading can answer otherwise for any path: it forms other groups, compares
 * the caller's value otherwise, or reads a rule of the groups that apply otherwise. When none
 * holds, it can differ only for a path it reads otherwise, which each path is checked for.
 */
function googleForAllPaths(compiled: Compiled, parsed: ParsedRobots, plan: Plan): boolean {
  return compiled.googleGroupsDiffer || plan.googleTokenDiffers || googleReadsRulesOtherwise(compiled, parsed, plan.sel.indices);
}

/** One search through the rules of a selection: longest match first, or first match in file order. */
interface Pass {
  model: Model;
  kind: 'longest' | 'first';
  indices: readonly number[];
}

/** The Google reading and the groups it applies to the caller's value. */
interface GoogleSelection {
  model: Model;
  sel: Selection;
}

function googleSelection(compiled: Compiled, parsed: ParsedRobots, plan: Plan): GoogleSelection {
  const model = googleModel(compiled, parsed);
  return { model, sel: select(model.byToken, model.star, plan.googleToken, true) };
}

/** Every search a verdict may run for one path, in the order evaluateMany runs them. */
function passesOf(compiled: Compiled, plan: Plan, google: GoogleSelection | null): Pass[] {
  const { rfc } = compiled;
  const { sel } = plan;
  const passes: Pass[] = [{ model: rfc, kind: 'longest', indices: sel.indices }];
  if (sel.indices.length > 1) passes.push({ model: rfc, kind: 'longest', indices: sel.indices.slice(0, 1) });
  if (!sameIndices(plan.firstGroup, sel.indices)) passes.push({ model: rfc, kind: 'longest', indices: plan.firstGroup });
  passes.push({ model: rfc, kind: 'first', indices: sel.indices });
  if (plan.strictSel) passes.push({ model: rfc, kind: 'longest', indices: plan.strictSel.indices });
  if (google) passes.push({ model: google.model, kind: 'longest', indices: google.sel.indices });
  if (plan.wholeSel) passes.push({ model: rfc, kind: 'longest', indices: plan.wholeSel.indices });
  return passes;
}

/**
 * Work units charged for comparing one rule with one path, on top of one unit per
 * character of the normalised path. A comparison is a prefix test and one indexOf per
 * literal piece of the pattern, each starting where the previous one ended, so it reads
 * the path at most once; the constant covers the call itself.
 */
export const UNITS_PER_COMPARISON = 40;

/**
 * An upper bound, computed before any rule is matched, of the work evaluating `paths` for
 * each of `tokens` takes: for every distinct search (a selection of groups, searched
 * longest-first or in file order), its rule count times the sum over distinct paths of
 * (normalised length + UNITS_PER_COMPARISON), and likewise the usage-preference lines of each
 * selection, which are matched against the paths the same way. Searches shared by several tokens count once,
 * as evaluation runs them once. Callers refuse inputs whose bound is over their budget.
 */
export function evaluationCost(parsed: ParsedRobots, tokens: readonly string[], paths: readonly string[]): number {
  const compiled = compile(parsed);
  const searches = new Map<string, number>();
  const pathsDifferForGoogle = paths.some((p) => googlePathOf(p) !== normalizeRequestPath(p));
  for (const productToken of tokens) {
    const plan = planFor(compiled, productToken);
    const google = googleForAllPaths(compiled, parsed, plan) || pathsDifferForGoogle ? googleSelection(compiled, parsed, plan) : null;
    // The usage preferences of the groups that apply are matched against each path as rules are.
    const preferencesKey = `preferences ${selectionId(compiled.rfc, plan.sel.indices)}`;
    if (!searches.has(preferencesKey)) {
      let count = 0;
      for (const gi of plan.sel.indices) count += parsed.groups[gi]!.preferences.length;
      searches.set(preferencesKey, count);
    }
    for (const pass of passesOf(compiled, plan, google)) {
      const key = `${pass.model === compiled.rfc ? 'rfc' : 'google'} ${pass.kind} ${selectionId(pass.model, pass.indices)}`;
      if (searches.has(key)) continue;
      let rules = 0;
      for (const gi of pass.indices) rules += rulesOf(pass.model, gi).length;
      searches.set(key, rules);
    }
  }
  let rules = 0;
  for (const count of searches.values()) rules += count;
  let perRule = 0;
  for (const path of new Set(paths.map(normalizeRequestPath))) perRule += path.length + UNITS_PER_COMPARISON;
  return rules * perRule;
}

/**
 * The groups (indices into `parsed.groups`) that decide for this token: the merged groups naming
 * it, its hyphen-prefix fallback, or the `*` groups. Its usage preferences are read from these
 * same groups (draft-ietf-aipref-attach-05 §3.1).
 */
export function selectedGroups(parsed: ParsedRobots, productToken: string, reading: Reading = 'rfc'): readonly number[] {
  const compiled = compile(parsed);
  return planFor(compiled, productToken, reading).sel.indices;
}

/**
 * Evaluates many paths for one crawler; group selection and pattern compilation happen
 * once (compiled patterns are cached per ParsedRobots object, which must not be mutated).
 * The work is bounded by evaluationCost, which callers check first.
 */
export function evaluateMany(parsed: ParsedRobots, productToken: string, paths: readonly string[], reading: Reading = 'rfc'): PathVerdict[] {
  const compiled = compile(parsed);
  const { rfc } = compiled;
  const plan = planFor(compiled, productToken, reading);
  const { token, sel, strictSel, firstGroup, wholeSel } = plan;
  // The Google reading runs only where it can differ: its file reading, the caller's value, or a path it reads otherwise.
  const googleForEveryPath = googleForAllPaths(compiled, parsed, plan);
  const fewPaths = paths.length <= FEW_PATHS;
  let google: GoogleSelection | null = null;
  const group = describeGroup(rfc, sel);

  const baseNotes: string[] = [];
  if (token !== productToken.trim()) {
    baseNotes.push(`"${productToken.trim()}" was read as the product token "${token}"; pass a token, not a whole User-Agent header`);
  }
  if (token === '') {
    baseNotes.push(
      `no product token was given, so no group names it and ${sel.matchedBy === 'star' ? 'the "*" group applies' : 'no rule applies'} (RFC 9309 2.2.1)`,
    );
  }
  if (readingForToken(token) === 'whole-token') {
    baseNotes.push(`"${token}" is not an RFC 9309 product token (only letters, "_" and "-"); a strict parser can never match it to a user-agent line`);
  }
  if (sel.matchedBy === 'fallback') {
    baseNotes.push(
      `no group names "${token}"; as Google documents for its crawlers, the group for "${sel.matchedToken}" applies (RFC 9309 alone would use ${strictSel?.matchedBy === 'star' ? 'the "*" group' : 'no group'})`,
    );
  }
  if (sel.matchedBy === 'token' && sel.indices.length > 1) {
    baseNotes.push(`${sel.indices.length} groups name "${token}"; their rules are merged (RFC 9309 2.2.1)`);
  }

  return paths.map((path): PathVerdict => {
    const normalized = normalizeRequestPath(path);
    const disagreements: Disagreements = {
      non_merging: false,
      first_group_wins: false,
      first_rule_wins: false,
      without_fallback: false,
      google_parser: false,
      whole_name: false,
    };
    // Fixed key order, so serialised verdicts read the same way every time.
    const verdict = (allowed: boolean, deciding: DecidingRule | null, reason: string, notes: string[]): PathVerdict => ({
      path,
      normalized_path: normalized,
      token,
      allowed,
      deciding,
      reason,
      group,
      matched_by: sel.matchedBy,
      fallback_from: sel.matchedBy === 'fallback' ? token : null,
      disagreements,
      notes,
    });

    if (normalized === '/robots.txt') {
      return verdict(true, null, '/robots.txt is always allowed (RFC 9309 2.2.2)', [...baseNotes]);
    }

    const { best, tie } = decideLongest(rfc, sel.indices, normalized, fewPaths);
    const allowed = allowedBy(best);
    const notes = [...baseNotes];

    if (sel.indices.length > 1 && allowedBy(decideLongest(rfc, sel.indices.slice(0, 1), normalized, fewPaths).best) !== allowed) {
      disagreements.non_merging = true;
      notes.push(`a parser that obeys only the first group for "${token}" (no merging) would answer the opposite`);
    }
    if (!sameIndices(firstGroup, sel.indices) && allowedBy(decideLongest(rfc, firstGroup, normalized, fewPaths).best) !== allowed) {
      disagreements.first_group_wins = true;
      notes.push(
        firstGroup.length > 0
          ? `a parser that obeys the first group in file order naming "${token}" or "*" (line ${rfc.groups[firstGroup[0]!]!.user_agents[0]!.line}) would answer the opposite`
          : `a parser without the hyphen fallback and without a "*" group would answer the opposite`,
      );
    }
    if (allowedBy(decideFirst(rfc, sel.indices, normalized)) !== allowed) {
      disagreements.first_rule_wins = true;
      notes.push('a parser that takes the first matching rule in file order, not the longest, would answer the opposite');
    }
    if (strictSel && allowedBy(decideLongest(rfc, strictSel.indices, normalized, fewPaths).best) !== allowed) {
      disagreements.without_fallback = true;
      notes.push('a strict RFC 9309 parser, which has no hyphen-prefix fallback, would answer the opposite');
    }
    const pathForGoogle = googlePathOf(path);
    if (googleForEveryPath || pathForGoogle !== normalized) {
      google ??= googleSelection(compiled, parsed, plan);
      const googleBest = decideLongest(google.model, google.sel.indices, pathForGoogle, fewPaths).best;
      if (allowedBy(googleBest) !== allowed) {
        disagreements.google_parser = true;
        notes.push(googleNote({ parsed, compiled, plan, google, googleBest, best, path: pathForGoogle, normalized }));
      }
    }
    if (wholeSel && allowedBy(decideLongest(rfc, wholeSel.indices, normalized, fewPaths).best) !== allowed) {
      disagreements.whole_name = true;
      notes.push(
        reading === 'rfc'
          ? 'a parser that compares whole user-agent values (not cut at the first digit, dot or other non-token character) would answer the opposite'
          : 'a strict RFC 9309 parser, which reads a user-agent value only up to its first digit, dot or other non-token character, would answer the opposite',
      );
    }

    let reason: string;
    let deciding: DecidingRule | null = null;
    if (sel.matchedBy === 'none') {
      reason = `no group for "${token}" and no "*" group: allowed (RFC 9309 2.2.1)`;
    } else if (best === null) {
      reason = 'no rule matched: allowed';
    } else {
      const r = best.rule;
      deciding = { line: r.line, text: r.text, directive: r.directive, pattern: r.pattern, octets: best.octets };
      reason =
        `${allowed ? 'allowed' : 'disallowed'} by line ${r.line} (${directiveName(r.directive)}: ${r.value}), ` +
        `the longest matching rule (${best.octets} ${best.octets === 1 ? 'octet' : 'octets'})` +
        (tie ? '; Allow wins a tie with a Disallow of the same length (RFC 9309 2.2.2)' : '');
    }
    return verdict(allowed, deciding, reason, notes);
  });
}

/** What one Google-reading verdict that differs is explained from. */
interface GoogleDifference {
  parsed: ParsedRobots;
  compiled: Compiled;
  plan: Plan;
  google: GoogleSelection;
  /** The rule that decided in the Google reading, and in this tool's. */
  googleBest: CompiledRule | null;
  best: CompiledRule | null;
  /** The path as Google's parser matches it, and as this tool does. */
  path: string;
  normalized: string;
}

/** Lines Google's parser reads as a user-agent line or a rule where RFC 9309 2.2 reads none (a typo, a missing colon, a key read by its prefix). */
function hasGoogleOnlyLines(parsed: ParsedRobots): boolean {
  return parsed.lines.some((l) => l.google_kind !== l.kind && (l.google_kind === 'user-agent' || l.google_kind === 'allow' || l.google_kind === 'disallow'));
}

/** A path or pattern quoted in a note: its start, when it is long (a note is a sentence, not a copy of a 32 KiB path). */
function quoted(text: string): string {
  return text.length <= NOTE_QUOTE ? text : `${text.slice(0, NOTE_QUOTE - 1)}…`;
}

const NOTE_QUOTE = 100;

/**
 * The note for a verdict Google's reference parser would reverse: each of its behaviours that
 * bears on this verdict, and the RFC 9309 section this tool follows instead (docs/API.md).
 */
function googleNote(d: GoogleDifference): string {
  const { plan, google, googleBest, best } = d;
  const reasons: string[] = [];
  if (plan.googleTokenDiffers && google.sel.matchedBy !== plan.sel.matchedBy) {
    reasons.push(
      `it compares "${plan.googleToken}" whole with each user-agent line, so ${google.sel.matchedBy === 'star' ? 'only the "*" group applies' : 'no group applies'}; this tool reads the product token "${plan.token}" from it (RFC 9309 2.2.1)`,
    );
  }
  if (d.parsed.google_groups !== null && (d.compiled.googleOnlyLines ??= hasGoogleOnlyLines(d.parsed))) {
    reasons.push(
      'it obeys lines that RFC 9309 2.2 does not define as user-agent lines or rules (a misspelt key such as "Dissallow", a key without its colon, a key read by its prefix), which this tool ignores',
    );
  }
  if (googleBest?.indexDirectory) {
    reasons.push(
      `it reads line ${googleBest.rule.line} (Allow: ${quoted(googleBest.rule.value)}) as also allowing the directory ${quoted(googleBest.pattern.slice(0, -1))} itself; RFC 9309 2.2.2 has no such rule, so this tool matches the pattern as written`,
    );
  }
  const cut = [googleBest, best].find((r) => r !== null && googleLine(r.rule.text) !== r.rule.text);
  if (cut) {
    reasons.push(
      `it keeps only the first ${GOOGLE_LINE_BYTES} bytes of line ${cut.rule.line} and matches the shorter rule they hold; RFC 9309 sets no line length (2.5 limits only the file), so this tool reads the whole line`,
    );
  }
  const escaped = [googleBest, best].find((r) => r !== null && googleLine(r.rule.text) === r.rule.text && googlePattern(r.rule.value) !== r.rule.pattern);
  if (escaped) {
    reasons.push(
      `it compares the escapes of line ${escaped.rule.line} as written (${quoted(googlePattern(escaped.rule.value))}); RFC 9309 2.2.2 brings rule and path to one percent-encoding before comparing, so this tool matches ${quoted(escaped.rule.pattern)}`,
    );
  }
  if (d.path !== d.normalized && /[^\x21-\x7e]|%/.test(d.path)) {
    reasons.push(
      `it matches the URL as given (${quoted(d.path)}), without percent-encoding it; RFC 9309 2.2.2 percent-encodes the path as it does the rules before comparing, so this tool matched ${quoted(d.normalized)}`,
    );
  }
  if (reasons.length === 0) reasons.push('its reading of this file differs from RFC 9309 (2.2) here');
  return `Google's reference parser (google/robotstxt) would answer the opposite: ${reasons.join('; ')}`;
}

export function evaluate(parsed: ParsedRobots, productToken: string, path: string, reading: Reading = 'rfc'): PathVerdict {
  return evaluateMany(parsed, productToken, [path], reading)[0]!;
}
