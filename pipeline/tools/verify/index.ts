// IP verification: operator-published prefixes in a binary trie, address lists, verdicts on claims.

export { buildPrefixIndex, lookup } from './prefix-index.ts';
export type { PrefixIndex } from './prefix-index.ts';

export { howToVerify, otherMethods } from './how-to-verify.ts';

export { MAX_LIST_AGE_SECONDS } from './evidence.ts';
export { MAX_ADDRESSES_PER_CALL, VERDICTS, verifyBatch } from './verify-batch.ts';
export type { BatchAnswer } from './verify-batch.ts';
