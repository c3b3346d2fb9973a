// robots.txt tools: parse (never throws), evaluate under RFC 9309, lint.
export { parseRobotsTxt, PARSE_LIMIT_BYTES } from './parse.ts';
export type {
  Group,
  LineKind,
  ParsedLine,
  ParsedRobots,
  ParseIssue,
  ParseIssueCode,
  Rule,
  SitemapLine,
  UnknownDirective,
  UserAgentLine,
} from './parse.ts';
export { evaluate, evaluateMany, evaluationCost, GROUP_LISTED, normalizeToken, UNITS_PER_COMPARISON } from './evaluate.ts';
export type { DecidingRule, Disagreements, MatchedBy, PathVerdict } from './evaluate.ts';
export { lintParsed, lintRobotsTxt } from './lint.ts';
export type { Finding, Severity } from './lint.ts';
export { normalizePattern, normalizeRequestPath } from './percent-encoding.ts';
