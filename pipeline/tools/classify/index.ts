// User-Agent classification: the most specific crawler substring wins; no match is labelled a heuristic.
export { buildClassifier, classify, crawlerNamedBy } from './classify.ts';
export type { Classification, Classifier } from './classify.ts';
export { UA_LIMIT_BYTES, inputIssue } from './heuristic.ts';
