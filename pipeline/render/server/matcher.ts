// What a policy can enforce at a server: the crawlers it names that send a User-Agent the index
// can recognise, each as one regex of the shared token rule (tools/classify/token.ts), and the
// ones no header rule can catch, with the reason. Every server dialect renders this one plan.

import type { CrawlerView, PolicyView } from '../../model/model.ts';
import { userAgentMatchers } from '../../records/user-agent-forms.ts';

/** One regex line: a crawler's pattern (its own substring, a variant's or a full form) and every named crawler that sends it. */
export interface MatcherLine {
  /** What a config shows beside the pattern: the substring, or the full form. */
  label: string;
  pattern: string;
  crawlers: readonly CrawlerView[];
}

interface Unenforceable {
  crawler: CrawlerView;
  why: string;
}

export interface PolicyMatcher {
  policy: PolicyView;
  /** `deny` answers 403 to a match; `mark` only names the crawlers (allow policies block nothing). */
  action: 'deny' | 'mark';
  /** The name of the variable or ACL each config defines, from the policy id. */
  name: string;
  lines: readonly MatcherLine[];
  unenforceable: readonly Unenforceable[];
}

const ROBOTS_ONLY = 'a robots.txt product token only; no request ever carries it as a User-Agent';
const NO_HEADER = 'sends no User-Agent of its own (a browser header), so no header rule can tell it from a visitor';

function reasonOf(crawler: CrawlerView): string | null {
  if (crawler.user_agent_substring !== null) return null;
  if (crawler.robots_only) return ROBOTS_ONLY;
  return crawler.user_agent_note ?? NO_HEADER;
}

export function policyMatcher(policy: PolicyView): PolicyMatcher {
  const named = policy.directive === 'none' ? [] : policy.crawlers;
  const byPattern = new Map<string, MatcherLine>();
  const unenforceable: Unenforceable[] = [];
  for (const crawler of named) {
    const why = reasonOf(crawler);
    if (why !== null) {
      unenforceable.push({ crawler, why });
      continue;
    }
    for (const { label, pattern } of userAgentMatchers(crawler)) {
      const line = byPattern.get(pattern) ?? { label, pattern, crawlers: [] };
      byPattern.set(pattern, { ...line, crawlers: [...line.crawlers, crawler] });
    }
  }
  return {
    policy,
    action: policy.directive === 'disallow' ? 'deny' : 'mark',
    name: `crawler_index_${policy.id.replaceAll('-', '_')}`,
    lines: [...byPattern.values()],
    unenforceable,
  };
}

/** The label a config writes above a line: who sends it. */
export function lineLabel(line: MatcherLine): string {
  return line.crawlers.map((c) => `${c.name} (${c.operator})`).join(', ');
}
