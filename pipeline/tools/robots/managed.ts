// Cloudflare-managed blocks: when a zone turns on Cloudflare's managed robots.txt, Cloudflare
// puts its own groups between `# BEGIN Cloudflare Managed content` and `# END Cloudflare Managed
// Content` ahead of the site's file. Crawlers see one file, so those groups and the site's own
// meet under RFC 9309's rules. This module says, per token the block names, where they meet
// and who decides:
// - `merged`: the site also has a group for the token; RFC 9309 2.2.1 merges both, and the
//   longest rule of the two decides (a tie goes to Allow). A parser that stops at the first
//   group naming the token obeys the managed one, which comes first.
// - `replaces-star`: the site has no group for the token, only `*`; the managed group is now the
//   token's own group, so the crawler no longer reads the site's `*` group at all.

import { evaluate } from './evaluate.ts';
import type { Group, ManagedBlock, ParsedRobots } from './parse.ts';

/** The most tokens of managed groups reported; a block Cloudflare writes names about ten. */
const MANAGED_TOKENS_LISTED = 50;

export interface ManagedOverride {
  token: string;
  kind: 'merged' | 'replaces-star';
  /** User-agent lines naming the token inside the managed block. */
  managed_lines: number[];
  /** The site's own user-agent lines that the managed group meets: its groups for the token, or its `*` groups. */
  site_lines: number[];
  path: string;
  /** The verdict for the whole file, as crawlers read it. */
  allowed: boolean;
  /** The verdict the site's own groups alone would give, and the managed groups alone. */
  site_alone: boolean;
  managed_alone: boolean;
  /** Which part decides at this path: the managed block, the site's own rules, or both agree. */
  decided_by: 'managed' | 'site' | 'both';
  message: string;
}

function inBlock(line: number, blocks: readonly ManagedBlock[]): boolean {
  return blocks.some((b) => line >= b.begin && (b.end === null || line <= b.end));
}

// One view per part and per file, so the evaluator's compiled-pattern cache serves every token.
interface Part {
  parsed: ParsedRobots;
  /** Per lower-cased token: the token as first written and its user-agent line numbers, in file order. */
  lines: Map<string, { token: string; lines: number[] }>;
}

const views = new WeakMap<ParsedRobots, { managed: Part; site: Part }>();

function partOf(parsed: ParsedRobots, groups: Group[]): Part {
  const lines: Part['lines'] = new Map();
  for (const g of groups) {
    for (const ua of g.user_agents) {
      const lower = ua.token.toLowerCase();
      if (lower === '') continue;
      const entry = lines.get(lower);
      if (entry === undefined) lines.set(lower, { token: ua.token, lines: [ua.line] });
      else entry.lines.push(ua.line);
    }
  }
  return { parsed: { ...parsed, groups, google_groups: null }, lines };
}

function split(parsed: ParsedRobots) {
  let v = views.get(parsed);
  if (v === undefined) {
    const isManaged = parsed.groups.map((g) => inBlock(g.user_agents[0]!.line, parsed.managed_blocks));
    v = {
      managed: partOf(
        parsed,
        parsed.groups.filter((_, i) => isManaged[i]),
      ),
      site: partOf(
        parsed,
        parsed.groups.filter((_, i) => !isManaged[i]),
      ),
    };
    views.set(parsed, v);
  }
  return v;
}

const word = (allowed: boolean) => (allowed ? 'allowed' : 'disallowed');

/**
 * Where the managed block's groups override or merge with the site's own, for `path`. At most
 * MANAGED_TOKENS_LISTED tokens; each costs three evaluations of one path, and tokens that select
 * the same groups share their work through the evaluator's memo.
 */
export function managedOverrides(parsed: ParsedRobots, path: string): ManagedOverride[] {
  if (parsed.managed_blocks.length === 0) return [];
  const { managed, site } = split(parsed);
  const out: ManagedOverride[] = [];
  // Map keys keep file order, so the first tokens the block names are the ones reported.
  for (const [lower, { token, lines: managedLines }] of [...managed.lines].slice(0, MANAGED_TOKENS_LISTED)) {
    const siteOwn = site.lines.get(lower)?.lines ?? [];
    const siteStar = lower === '*' ? [] : (site.lines.get('*')?.lines ?? []);
    if (siteOwn.length === 0 && siteStar.length === 0) continue;
    const kind = siteOwn.length > 0 ? 'merged' : 'replaces-star';
    const allowed = evaluate(parsed, token, path).allowed;
    const siteAlone = evaluate(site.parsed, token, path).allowed;
    const managedAlone = evaluate(managed.parsed, token, path).allowed;
    const decidedBy = siteAlone === managedAlone ? 'both' : allowed === managedAlone ? 'managed' : 'site';
    const where = `the managed block (line ${managedLines[0]})`;
    const message =
      kind === 'merged'
        ? `${token} has a group in ${where} and in the site's own rules (line ${siteOwn[0]}): RFC 9309 merges them, so ${path} is ${word(allowed)}` +
          (decidedBy === 'both'
            ? ' and both parts agree.'
            : ` by the ${decidedBy === 'managed' ? 'managed' : "site's own"} rule (the site's rules alone: ${word(siteAlone)}; the managed block alone: ${word(managedAlone)}). A parser that obeys only the first group naming ${token} follows the managed block.`)
        : `${token} has its own group in ${where}, so it no longer reads the site's "*" group (line ${siteStar[0]}): ${path} is ${word(allowed)}` +
          (decidedBy === 'both' ? ', as the "*" group would have decided.' : `, where the site's "*" group says ${word(siteAlone)}.`);
    out.push({
      token,
      kind,
      managed_lines: managedLines,
      site_lines: kind === 'merged' ? siteOwn : siteStar,
      path,
      allowed,
      site_alone: siteAlone,
      managed_alone: managedAlone,
      decided_by: decidedBy,
      message,
    });
  }
  return out;
}
