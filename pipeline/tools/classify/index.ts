// User-Agent classification: the most specific crawler substring wins; no match is labelled a heuristic.
export { buildClassifier, classify } from './classify.ts';
export type { Classification, ClassifiedCrawler, Classifier, Matched } from './classify.ts';
export { HEURISTIC_LABEL, UA_LIMIT_BYTES, inputIssue, utf8Length } from './heuristic.ts';
export type { Heuristic, InputIssue, Unmatched } from './heuristic.ts';
export { buildMatcher, findAll } from './aho-corasick.ts';
export type { Occurrence, SubstringMatcher } from './aho-corasick.ts';
