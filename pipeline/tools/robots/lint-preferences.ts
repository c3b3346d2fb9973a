// Lint findings for the lines that state usage preferences and licences rather than crawl rules:
// Content-Usage (IETF AI Preferences), Content-Signal (Cloudflare's Content Signals), License
// (RSL 1.0) and Cloudflare-managed blocks. None of them is ever an error: they do not change what
// a crawler may fetch. Each line gets a note saying what it declares; mistakes that make a line
// declare nothing, or something else than it seems to, are warnings.

import { evaluate, evaluationCost } from './evaluate.ts';
import type { Finding } from './finding.ts';
import { managedOverrides } from './managed.ts';
import type { Group, ParsedRobots, PreferenceLine } from './parse.ts';
import { acceptedForm, statementOf, type Entry } from './preferences.ts';
import { currentLabels, labelOf, type Vocabulary } from './vocabulary.ts';

type Draft = Omit<Finding, 'text'>;

const NAME: Record<Vocabulary, string> = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal' };
const EXAMPLE: Record<Vocabulary, string> = { 'content-usage': 'train-ai=n', 'content-signal': 'search=yes, ai-train=no' };
const OTHER: Record<Vocabulary, Vocabulary> = { 'content-usage': 'content-signal', 'content-signal': 'content-usage' };
/** The same question in the other vocabulary, where one exists. */
const COUNTERPART: Readonly<Record<string, string>> = { 'content-usage train-ai': 'ai-train', 'content-signal ai-train': 'train-ai' };
/** What each value says, for the notes. */
const VALUE_WORD: Readonly<Record<string, string>> = { y: 'allows', yes: 'allows', n: 'refuses', no: 'refuses' };
/** A value written in the other vocabulary's form, and what this one takes instead. */
const SWAPPED: Readonly<Record<string, string>> = { yes: 'y', no: 'n', y: 'yes', n: 'no', true: 'y', false: 'n' };

/**
 * The most preference lines checked against their own group's Allow/Disallow rules, and the work
 * those checks may take; past either, the rest are not checked (the notes still come).
 */
const DISALLOWED_CHECKS = 200;
const DISALLOWED_CHECK_BUDGET = 5_000_000;

// Computed once per group: a group may hold thousands of user-agent lines and as many preference lines.
const labels = new WeakMap<Group, string>();

function groupLabel(g: Group): string {
  let label = labels.get(g);
  if (label === undefined) {
    const tokens = [...new Set(g.user_agents.map((u) => (u.token === '' ? u.value : u.token)))];
    label = tokens.length <= 3 ? tokens.join(', ') : `${tokens.slice(0, 3).join(', ')} and ${tokens.length - 3} more`;
    labels.set(g, label);
  }
  return label;
}

/** A value in the form this vocabulary's label takes (y/n or yes/no). */
function inForm(vocabulary: Vocabulary, key: string, value: string): string {
  const values = labelOf(vocabulary, key)?.values ?? [];
  return values.includes(value) ? value : (SWAPPED[value] ?? value);
}

function entryWarning(p: PreferenceLine, e: Entry): Draft | null {
  const name = NAME[p.vocabulary];
  const current = currentLabels(p.vocabulary).map((l) => l.key);
  if (e.status === 'legacy') {
    const label = e.label!;
    return {
      line: p.line,
      severity: 'warning',
      code: 'legacy-label',
      message: `"${e.key}" is a label of ${label.source}, no longer defined: the current vocabulary (draft-ietf-aipref-vocab-07) has only ${current.join(' and ')}, and readers ignore labels they do not know`,
      fix: label.instead ? `Write "${label.instead}=${e.value}" instead.` : `Remove "${e.key}"; state ${current.join(' or ')} explicitly.`,
    };
  }
  if (e.status === 'unknown') {
    const counterpart = COUNTERPART[`${OTHER[p.vocabulary]} ${e.key}`];
    return {
      line: p.line,
      severity: 'warning',
      code: 'unknown-label',
      message:
        `"${e.key}" is not a ${name} label (known: ${current.join(', ')}); readers ignore it` +
        (labelOf(OTHER[p.vocabulary], e.key) ? `. It is a ${NAME[OTHER[p.vocabulary]]} label` : ''),
      fix: counterpart
        ? `Write "${counterpart}=${inForm(p.vocabulary, counterpart, e.value)}" here, or move "${e.key}" to a ${NAME[OTHER[p.vocabulary]]} line.`
        : `Use one of: ${current.join(', ')}.`,
    };
  }
  if (!e.valid) {
    const values = e.label!.values;
    const swapped = SWAPPED[e.value];
    return {
      line: p.line,
      severity: 'warning',
      code: 'invalid-preference-value',
      message: `"${e.key}" takes ${values.join(' or ')} in ${name}; "${e.value}" states no preference, so ${e.key} stays unknown`,
      fix:
        swapped && values.includes(swapped)
          ? `Write "${e.key}=${swapped}".`
          : `Write "${e.key}=${values[values.length - 1]}" (or ${values.slice(0, -1).join(', ')}).`,
    };
  }
  return null;
}

function note(p: PreferenceLine, entries: readonly Entry[], group: Group): Draft {
  const declared = entries.filter((e) => e.valid && e.status === 'current');
  const what =
    declared.length === 0
      ? 'states no known preference'
      : declared
          .map((e) => (e.key === 'use' ? `use=${e.value} (${e.label!.meaning})` : `${e.key}=${e.value} ${VALUE_WORD[e.value]} ${e.label!.meaning}`))
          .join('; ');
  const scope = p.path === null ? 'every path' : `${p.path} and the paths it matches`;
  const who = `the group for ${groupLabel(group)}`;
  return {
    line: p.line,
    severity: 'info',
    code: p.vocabulary === 'content-usage' ? 'content-usage' : 'content-signal',
    message:
      `${NAME[p.vocabulary]} for ${scope} in ${who}: ${what}. ` +
      (p.vocabulary === 'content-usage'
        ? 'An IETF AI Preferences line (draft-ietf-aipref-attach-05, vocabulary draft-ietf-aipref-vocab-07)'
        : "One of Cloudflare's Content Signals") +
      '; it applies only where the group lets a crawler fetch, and does not stop any crawler from fetching',
    fix: 'Nothing to fix; block crawlers with Disallow where fetching itself must stop.',
  };
}

function lintLine(p: PreferenceLine, group: Group | null, out: Draft[]): void {
  const name = NAME[p.vocabulary];
  if (group === null) {
    out.push({
      line: p.line,
      severity: 'warning',
      code: 'preference-outside-group',
      message: `${name} before any user-agent line belongs to no group, so no crawler reads it (a preference line is part of a group, draft-ietf-aipref-attach-05 §3)`,
      fix: 'Move it into a group, such as below "User-agent: *".',
    });
  }
  if (p.vocabulary === 'content-signal' && p.value.startsWith('/')) {
    out.push({
      line: p.line,
      severity: 'warning',
      code: 'content-signal-path',
      message: 'Content-Signal takes no path, so this line declares nothing',
      fix: 'Drop the path, or write a Content-Usage line, which can be scoped to a path ("Content-Usage: /path train-ai=n").',
    });
    return;
  }
  if (p.vocabulary === 'content-usage' && p.path === null && /^[^\s=,]*\/\S*[ \t]/.test(p.value)) {
    const first = /^\S*/.exec(p.value)![0];
    out.push({
      line: p.line,
      severity: 'warning',
      code: 'preference-path-not-absolute',
      message: `"${first}" does not start with "/", so it is read as part of the statement, not as a path, and the line declares nothing`,
      fix: `Write "Content-Usage: /${first.replace(/^\/*/, '')} ${p.value.slice(first.length).trim()}".`,
    });
    return;
  }
  if (p.statement === '') {
    out.push({
      line: p.line,
      severity: 'warning',
      code: 'empty-preference',
      message: `the ${name} line ${p.path === null ? 'is empty' : `names ${p.path} but states no preference`}`,
      fix: `Write a statement, such as "${name}: ${p.path === null ? '' : `${p.path} `}${EXAMPLE[p.vocabulary]}".`,
    });
    return;
  }
  const statement = statementOf(p);
  if (statement.error !== null) {
    out.push({
      line: p.line,
      severity: 'warning',
      code: 'preference-syntax',
      message:
        statement.error +
        (/[A-Z]/.test(p.statement) ? '; labels are case-sensitive and lower case' : '') +
        (p.vocabulary === 'content-usage' ? ' (draft-ietf-aipref-vocab-07 §6.5)' : ''),
      fix: `Write it as ${acceptedForm(p.vocabulary)}.`,
    });
    return;
  }
  for (const e of statement.entries) {
    const warning = entryWarning(p, e);
    if (warning !== null) out.push(warning);
  }
  // A line in no group already has its warning; a note on what it would declare adds nothing.
  if (group !== null) out.push(note(p, statement.entries, group));
}

/** The literal path a preference line speaks of, when it has one (no wildcard). */
function literalPath(p: PreferenceLine): string | null {
  if (p.path === null) return '/';
  return /[*$]/.test(p.path) ? null : p.path;
}

/**
 * Preference lines that allow a use on a path their own group keeps crawlers out of: the
 * `Disallow: /` with `search=yes` case. Checked for the group's first token, so merged groups
 * count, within DISALLOWED_CHECKS lines and DISALLOWED_CHECK_BUDGET work units.
 */
function lintDisallowed(parsed: ParsedRobots, out: Draft[]): void {
  const checks: { p: PreferenceLine; token: string; path: string }[] = [];
  for (const g of parsed.groups) {
    const token = g.user_agents.find((u) => u.token !== '')?.token;
    if (token === undefined) continue;
    for (const p of g.preferences) {
      if (checks.length >= DISALLOWED_CHECKS) break;
      const path = literalPath(p);
      const statement = statementOf(p);
      if (path === null || statement.error !== null) continue;
      if (!statement.entries.some((e) => e.valid && (e.value === 'y' || e.value === 'yes'))) continue;
      checks.push({ p, token, path });
    }
  }
  if (checks.length === 0) return;
  const cost = evaluationCost(parsed, [...new Set(checks.map((c) => c.token))], [...new Set(checks.map((c) => c.path))]);
  if (cost > DISALLOWED_CHECK_BUDGET) return;
  for (const { p, token, path } of checks) {
    const verdict = evaluate(parsed, token, path);
    if (verdict.allowed) continue;
    const allows = statementOf(p)
      .entries.filter((e) => e.valid && (e.value === 'y' || e.value === 'yes'))
      .map((e) => `${e.key}=${e.value}`);
    out.push({
      line: p.line,
      severity: 'warning',
      code: 'preference-on-disallowed-path',
      message: `the group disallows ${path} for ${token}${verdict.deciding ? ` (line ${verdict.deciding.line})` : ''}, yet this line allows ${allows.join(', ')} there: a crawler kept out cannot use the content, and preferences do not apply to paths it may not fetch (draft-ietf-aipref-attach-05 §3.1)`,
      fix: `Allow ${path} in this group if you want that use, or write the refusal (n / no) to say what you mean.`,
    });
  }
}

// A group's span runs from its first user-agent line to its last line of any kind it holds.
function spans(parsed: ParsedRobots): { first: number; last: number; group: Group }[] {
  return parsed.groups.map((g) => {
    const first = g.user_agents[0]!.line;
    const last = Math.max(
      g.user_agents[g.user_agents.length - 1]!.line,
      g.rules.length > 0 ? g.rules[g.rules.length - 1]!.line : 0,
      g.preferences.length > 0 ? g.preferences[g.preferences.length - 1]!.line : 0,
    );
    return { first, last, group: g };
  });
}

function groupAround(sorted: readonly { first: number; last: number; group: Group }[], line: number): Group | null {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = sorted[mid]!;
    if (line < s.first) hi = mid - 1;
    else if (line > s.last) lo = mid + 1;
    else return s.group;
  }
  return null;
}

function lintLicenses(parsed: ParsedRobots, out: Draft[]): void {
  const sorted = spans(parsed);
  for (const l of parsed.licenses) {
    const absolute = /^https?:\/\/[^\s/?#]+/i.test(l.url);
    if (l.url === '' || !absolute) {
      out.push({
        line: l.line,
        severity: 'warning',
        code: 'license-not-absolute',
        message:
          l.url === ''
            ? 'the License line has no URL'
            : `"${l.url}" is not a full URL; RSL 1.0 requires the licence's absolute URL, with scheme and host, and crawlers cannot resolve a relative one`,
        fix: 'Write the full URL of the RSL licence, such as "License: https://example.com/license.xml".',
      });
    } else {
      out.push({
        line: l.line,
        severity: 'info',
        code: 'rsl-license',
        message: `an RSL licence (Really Simple Licensing 1.0): every crawler is asked to read the terms at ${l.url} before using the site's content; the line is global and does not change what may be fetched`,
        fix: 'Nothing to fix; keep the licence file reachable at that URL.',
      });
    }
    const group = groupAround(sorted, l.line);
    if (group !== null) {
      out.push({
        line: l.line,
        severity: 'warning',
        code: 'license-in-group',
        message: `License is global in RSL 1.0: it applies to every crawler, although it sits inside the group for ${groupLabel(group)} and reads as if it were that group's`,
        fix: 'Move the License line above the first group (or below the last), where it is clearly global.',
      });
    }
  }
}

function lintManaged(parsed: ParsedRobots, out: Draft[]): void {
  for (const b of parsed.managed_blocks) {
    out.push({
      line: b.begin,
      severity: b.end === null ? 'warning' : 'info',
      code: b.end === null ? 'cloudflare-managed-unclosed' : 'cloudflare-managed-block',
      message:
        `lines ${b.begin} to ${b.end ?? 'the end of the file'} are a Cloudflare-managed block: Cloudflare writes them in front of the site's own file at its edge when its managed robots.txt is on, so editing the file on your server does not change them` +
        (b.end === null ? '; no "# END Cloudflare Managed Content" line closes it, so everything after it is counted as managed here' : ''),
      fix: 'Change or turn off the managed rules in the Cloudflare dashboard; see the override findings for where they meet your own groups.',
    });
  }
  for (const o of managedOverrides(parsed, '/')) {
    if (o.decided_by === 'both' && o.kind === 'replaces-star') continue;
    out.push({
      line: o.managed_lines[0]!,
      severity: o.decided_by === 'both' ? 'info' : 'warning',
      code: 'cloudflare-managed-override',
      message: o.message,
      fix:
        o.decided_by === 'managed' || o.kind === 'replaces-star'
          ? `If your own rules for ${o.token} should decide, change the managed setting in Cloudflare; your origin's robots.txt cannot outrank it.`
          : `Make the managed setting for ${o.token} and your own group agree, so every parser reads the same answer.`,
    });
  }
}

/** Every finding about preference, licence and managed-block lines. */
export function lintPreferences(parsed: ParsedRobots, out: Draft[]): void {
  for (const p of parsed.orphan_preferences) lintLine(p, null, out);
  for (const g of parsed.groups) for (const p of g.preferences) lintLine(p, g, out);
  lintDisallowed(parsed, out);
  lintLicenses(parsed, out);
  lintManaged(parsed, out);
}
