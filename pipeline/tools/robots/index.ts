// robots.txt tools: parse (never throws), evaluate under RFC 9309, lint, read usage preferences.
export { parseRobotsTxt } from './parse.ts';
export type { ParsedRobots } from './parse.ts';
export { evaluate, evaluateMany, evaluationCost, GROUP_LISTED, readingForToken, selectedGroups, UNITS_PER_COMPARISON } from './evaluate.ts';
export type { PathVerdict, Reading } from './evaluate.ts';
export { lintParsed, notRobotsTxt } from './lint.ts';
export type { LintIndex, RecordedTokens } from './lint.ts';
export type { Finding } from './finding.ts';
export { managedOverrides } from './managed.ts';
export { contradictionsOf, readContentUsageHeader, resolvePreferences } from './preferences.ts';
export type { Resolved, Statement } from './preferences.ts';
