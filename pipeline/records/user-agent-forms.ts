// The User-Agent forms a crawler is known by: its own substring and example, then each cited
// variant's (records/AUTHORING.md, "variants"). The classifier, every published regex, the server
// configs and the record checks read a crawler's headers through this one list, so a variant
// counts wherever the crawler's own substring does. Where a record gives full forms
// (`user_agent_full_forms`), its own substring counts only in a header of one of those forms.

import { fullFormPattern, tokenPattern } from '../tools/classify/token.ts';

interface Variant {
  readonly user_agent_substring: string;
  readonly user_agent_example: string;
}

/** A crawler record or its published view: both carry these fields under these names. */
interface WithForms {
  readonly user_agent_substring: string | null;
  readonly user_agent_example: string | null;
  readonly variants?: readonly Variant[] | undefined;
  readonly user_agent_full_forms?: readonly string[] | undefined;
}

export interface UserAgentForm {
  /** The record's own substring, not a variant's. */
  own: boolean;
  substring: string;
  example: string | null;
  /** Where the substring is written in the record, as a JSON pointer (for check messages). */
  path: string;
}

/** Own form first (when the crawler has a substring), then the variants in record order. */
export function userAgentForms(crawler: WithForms): UserAgentForm[] {
  const own: UserAgentForm[] =
    crawler.user_agent_substring === null
      ? []
      : [{ own: true, substring: crawler.user_agent_substring, example: crawler.user_agent_example, path: '/user_agent_substring' }];
  const variants = (crawler.variants ?? []).map((variant, index) => ({
    own: false,
    substring: variant.user_agent_substring,
    example: variant.user_agent_example,
    path: `/variants/${index}/user_agent_substring`,
  }));
  return [...own, ...variants];
}

/** Every substring that identifies the crawler in a header. */
export function userAgentSubstrings(crawler: WithForms): string[] {
  return userAgentForms(crawler).map((form) => form.substring);
}

/**
 * The regex source of each form, as every published regex and server config writes it, with what a
 * config shows beside it: the token rule around the substring, or, for a record with full forms,
 * each full form anchored.
 */
export function userAgentMatchers(crawler: WithForms): { label: string; pattern: string }[] {
  const full = crawler.user_agent_full_forms ?? [];
  return userAgentForms(crawler).flatMap((form) =>
    form.own && full.length > 0
      ? full.map((whole) => ({ label: `the whole header ${whole}`, pattern: fullFormPattern(whole) }))
      : [{ label: form.substring, pattern: tokenPattern(form.substring) }],
  );
}

/** The patterns alone (userAgentMatchers). */
export function userAgentPatterns(crawler: WithForms): string[] {
  return userAgentMatchers(crawler).map((matcher) => matcher.pattern);
}
