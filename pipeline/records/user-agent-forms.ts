// The User-Agent forms a crawler is known by: its own substring and example, then each cited
// variant's (records/AUTHORING.md, "variants"). The classifier, every published regex, the server
// configs and the record checks read a crawler's headers through this one list, so a variant
// counts wherever the crawler's own substring does.

interface Variant {
  readonly user_agent_substring: string;
  readonly user_agent_example: string;
}

/** A crawler record or its published view: both carry these fields under these names. */
interface WithForms {
  readonly user_agent_substring: string | null;
  readonly user_agent_example: string | null;
  readonly variants?: readonly Variant[] | undefined;
}

export interface UserAgentForm {
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
      : [{ substring: crawler.user_agent_substring, example: crawler.user_agent_example, path: '/user_agent_substring' }];
  const variants = (crawler.variants ?? []).map((variant, index) => ({
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
