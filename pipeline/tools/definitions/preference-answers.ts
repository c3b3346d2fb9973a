// The usage-preference part of the robots.txt tools' answers: what applies to one crawler at a
// path, the file-wide facts (RSL licences, Cloudflare-managed blocks, a Content-Usage header),
// contradictions, and the JSON Schemas that document every field.

import {
  contradictionsOf,
  managedOverrides,
  readContentUsageHeader,
  resolvePreferences,
  selectedGroups,
  type ParsedRobots,
  type Reading,
  type Resolved,
  type Statement,
} from '../robots/index.ts';
import type { ParamSpec } from '../registry/types.ts';
import { CONTENT_SIGNAL_KEYS, CONTENT_USAGE_KEYS } from '../robots/vocabulary.ts';

export const CONTENT_USAGE_HEADER = {
  name: 'content_usage_header',
  kind: 'string',
  required: false,
  maxBytes: 1024,
  description:
    'Optional: the value of the Content-Usage response header your server sends with the page at path (draft-ietf-aipref-attach-05 §2), such as "train-ai=n". It is combined with the file\'s Content-Usage lines, the refusal winning.',
  accepted: 'a Content-Usage header value: labels and values separated by commas, such as "train-ai=n, search=y", at most 1024 bytes',
  example: 'train-ai=n',
} as const satisfies ParamSpec;

/** The preferences declared for one crawler (token) at `path`, from the groups that decide for it. */
export function preferencesFor(parsed: ParsedRobots, token: string, reading: Reading, path: string, allowed: boolean, header: Statement | null): Resolved {
  return resolvePreferences(parsed.groups, selectedGroups(parsed, token, reading), path, allowed, header);
}

/** The header given with the call, read; null when none was given. */
export function headerOf(value: string | undefined): { value: string; statement: Statement } | null {
  return value === undefined || value === '' ? null : { value, statement: readContentUsageHeader(value) };
}

/** Short text of what applies, for summaries and reports: "train-ai=n (line 4); Content-Signal ai-train=no (line 5)". */
export function preferenceText(r: Resolved): string {
  const u = r.content_usage;
  const s = r.content_signal;
  const usage = CONTENT_USAGE_KEYS.filter((k) => u[k] !== 'unknown').map((k) => `${k}=${u[k] === 'allowed' ? 'y' : 'n'}`);
  const signal = CONTENT_SIGNAL_KEYS.filter((k) => s[k] !== null).map((k) => `${k}=${s[k]}`);
  const where = (lines: number[], header = false) =>
    [lines.length === 0 ? '' : `line${lines.length === 1 ? '' : 's'} ${lines.join(', ')}`, header ? 'the header' : ''].filter((x) => x !== '').join(' and ');
  const parts = [
    ...(usage.length > 0 ? [`Content-Usage ${usage.join(', ')} (${where(u.lines, u.header)})`] : []),
    ...(signal.length > 0 ? [`Content-Signal ${signal.join(', ')} (${where(s.lines)})`] : []),
  ];
  if (parts.length === 0) return 'none declared';
  return r.applies ? parts.join('; ') : `none apply (may not fetch); the lines say ${parts.join('; ')}`;
}

/** The file-wide preference facts of an ai-access answer. */
export function usagePreferencesOf(
  parsed: ParsedRobots,
  path: string,
  header: { value: string; statement: Statement } | null,
  crawlers: readonly { slug: string; category: string; token: string; matchedOwnGroup: boolean; preferences: Resolved }[],
) {
  const byCategory: Record<string, Record<string, string[]>> = {};
  const contradictions: { slug: string; code: string; lines: number[]; message: string }[] = [];
  const starHasPreferences = parsed.groups.some((g) => g.preferences.length > 0 && g.user_agents.some((u) => u.token === '*'));
  const notReached: string[] = [];
  for (const c of crawlers) {
    const r = c.preferences;
    for (const x of contradictionsOf(c.token, path, r)) contradictions.push({ slug: c.slug, code: x.code, lines: x.lines, message: x.message });
    // Only a crawler that may fetch is missing anything.
    if (starHasPreferences && r.applies && c.matchedOwnGroup && r.content_usage.lines.length === 0 && r.content_signal.lines.length === 0)
      notReached.push(c.slug);
    if (!r.applies) continue;
    const into = (byCategory[c.category] ??= {});
    const add = (key: string) => (into[key] ??= []).push(c.slug);
    for (const k of CONTENT_USAGE_KEYS) if (r.content_usage[k] !== 'unknown') add(`content-usage:${k}=${r.content_usage[k] === 'allowed' ? 'y' : 'n'}`);
    for (const k of CONTENT_SIGNAL_KEYS) if (r.content_signal[k] !== null) add(`content-signal:${k}=${r.content_signal[k]}`);
  }
  return {
    declared: parsed.licenses.length > 0 || header !== null || parsed.orphan_preferences.length > 0 || parsed.groups.some((g) => g.preferences.length > 0),
    licenses: parsed.licenses.map((l) => ({ line: l.line, url: l.url })),
    content_usage_header:
      header === null
        ? null
        : {
            value: header.value,
            declared: header.statement.entries.filter((e) => e.valid && e.status === 'current').map((e) => `${e.key}=${e.value}`),
            error: header.statement.error,
          },
    by_category: byCategory,
    contradictions,
    own_group_without_preferences: notReached,
    managed_blocks: parsed.managed_blocks,
    managed_overrides: managedOverrides(parsed, path),
  };
}

const TRI = { enum: ['allowed', 'disallowed', 'unknown'] };
const YES_NO = { enum: ['yes', 'no', null] };
const LINES = { type: 'array', items: { type: 'integer' } };

/** One crawler's preferences at the path (crawler briefs of ai-access, results of robots-allowed). */
export const PREFERENCES_SCHEMA = {
  type: 'object',
  required: ['applies', 'content_usage', 'content_signal'],
  description:
    'The usage preferences the file declares for this crawler at the path, read from the groups that decide for it (docs/usage-preferences.md). They never change whether it may fetch.',
  properties: {
    applies: {
      type: 'boolean',
      description:
        'False when the crawler may not fetch the path: preferences then apply to nothing (draft-ietf-aipref-attach-05 §3.1); the other fields still say what the lines declare.',
    },
    content_usage: {
      type: 'object',
      required: [...CONTENT_USAGE_KEYS, 'lines', 'header'],
      description:
        'IETF AI Preferences (Content-Usage, vocabulary draft-ietf-aipref-vocab-07): the longest matching path wins as a whole, lines of the same length combine with the refusal winning.',
      properties: {
        'train-ai': { ...TRI, description: 'Training or fine-tuning generative AI models: allowed (y), disallowed (n), or unknown (not stated)' },
        search: { ...TRI, description: 'Use in a search application that links to the content, without AI-written summaries' },
        lines: { ...LINES, description: 'The Content-Usage lines that applied' },
        header: { type: 'boolean', description: 'Whether the content_usage_header given with the call was combined in' },
      },
    },
    content_signal: {
      type: 'object',
      required: [...CONTENT_SIGNAL_KEYS, 'lines'],
      description: "Cloudflare's Content Signals of the groups that decide (they take no path); several lines combine with no winning.",
      properties: {
        search: { ...YES_NO, description: 'Search index and results (links and short excerpts); null when not stated' },
        'ai-input': { ...YES_NO, description: 'Input to AI models at answer time (RAG, grounding); null when not stated' },
        'ai-train': { ...YES_NO, description: 'Training or fine-tuning AI models; null when not stated' },
        use: {
          enum: ['immediate', 'reference', 'full', null],
          description: 'How far AI systems may use the content, the narrowest declared; null when not stated',
        },
        lines: { ...LINES, description: 'The Content-Signal lines that applied' },
      },
    },
  },
};

const CONTRADICTIONS_SCHEMA = {
  type: 'array',
  description:
    'Where the preferences and the crawl rules say opposite things: a use allowed (y/yes) on a path the crawler may not fetch, or Content-Usage and Content-Signal answering the same question oppositely. A crawler allowed to fetch where training is refused is not a contradiction.',
  items: {
    type: 'object',
    required: ['slug', 'code', 'lines', 'message'],
    properties: {
      slug: { type: 'string', description: 'The crawler' },
      code: { enum: ['preference-on-disallowed-path', 'vocabularies-disagree'] },
      lines: { ...LINES, description: 'The preference lines involved' },
      message: { type: 'string', description: 'What contradicts what, and what to change' },
    },
  },
};

const MANAGED_OVERRIDE = {
  type: 'object',
  required: ['token', 'kind', 'managed_lines', 'site_lines', 'path', 'allowed', 'site_alone', 'managed_alone', 'decided_by', 'message'],
  properties: {
    token: { type: 'string', description: 'A token the managed block names' },
    kind: {
      enum: ['merged', 'replaces-star'],
      description:
        "merged: the site also has a group for it and RFC 9309 merges both; replaces-star: the managed group is its only group, so it stops reading the site's * group",
    },
    managed_lines: { ...LINES, description: 'User-agent lines naming it in the managed block' },
    site_lines: { ...LINES, description: "The site's own user-agent lines it meets (its groups, or the * groups)" },
    path: { type: 'string' },
    allowed: { type: 'boolean', description: 'The verdict for the whole file' },
    site_alone: { type: 'boolean', description: "The verdict of the site's own groups alone" },
    managed_alone: { type: 'boolean', description: 'The verdict of the managed block alone' },
    decided_by: { enum: ['managed', 'site', 'both'], description: 'Which part decides; both: they agree' },
    message: { type: 'string' },
  },
};

/** The file-wide part of an ai-access answer. */
export const USAGE_PREFERENCES_SCHEMA = {
  type: 'object',
  required: [
    'declared',
    'licenses',
    'content_usage_header',
    'by_category',
    'contradictions',
    'own_group_without_preferences',
    'managed_blocks',
    'managed_overrides',
  ],
  description: 'Usage preferences, licences and Cloudflare-managed blocks in the file (docs/usage-preferences.md).',
  properties: {
    declared: { type: 'boolean', description: 'Whether the file (or the header) states any preference or licence at all' },
    licenses: {
      type: 'array',
      description: 'RSL License lines (RSL 1.0): global, for every crawler',
      items: { type: 'object', required: ['line', 'url'], properties: { line: { type: 'integer' }, url: { type: 'string' } } },
    },
    content_usage_header: {
      description: 'The content_usage_header given with the call, as read; null when none was given',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['value', 'declared', 'error'],
          properties: {
            value: { type: 'string' },
            declared: { type: 'array', items: { type: 'string' }, description: 'The current labels it states, as label=value' },
            error: { type: ['string', 'null'], description: 'Why it declares nothing, when it does not parse' },
          },
        },
      ],
    },
    by_category: {
      type: 'object',
      description:
        'Per category, per stated preference ("content-usage:train-ai=n", "content-signal:search=yes"), the crawlers it applies to (crawlers that may fetch the path only)',
      additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    contradictions: CONTRADICTIONS_SCHEMA,
    own_group_without_preferences: {
      type: 'array',
      items: { type: 'string' },
      description:
        'Crawlers allowed at the path that have a group of their own with no preference lines while the * group has some: a crawler reads only its own group, so the * preferences do not reach it',
    },
    managed_blocks: {
      type: 'array',
      description: 'Cloudflare-managed blocks (# BEGIN Cloudflare Managed content ... # END Cloudflare Managed Content)',
      items: { type: 'object', required: ['begin', 'end'], properties: { begin: { type: 'integer' }, end: { type: ['integer', 'null'] } } },
    },
    managed_overrides: {
      type: 'array',
      items: MANAGED_OVERRIDE,
      description: "Where a managed group meets the site's own groups at the path, and which decides",
    },
  },
};
