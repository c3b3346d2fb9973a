// robots.txt tools: parse (never throws), evaluate under RFC 9309, lint.
export { parseRobotsTxt } from './parse.ts';
export type { ParsedRobots } from './parse.ts';
export { evaluate, evaluateMany, evaluationCost, GROUP_LISTED, readingForToken, UNITS_PER_COMPARISON } from './evaluate.ts';
export type { PathVerdict } from './evaluate.ts';
export { lintParsed, notRobotsTxt } from './lint.ts';
export type { Finding } from './lint.ts';
