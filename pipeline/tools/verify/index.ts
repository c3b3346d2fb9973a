// IP verification: operator-published prefixes in a binary trie, address lists, verdicts on claims.

export { buildPrefixIndex, lookup } from './prefix-index.ts';
export type { PrefixIndex } from './prefix-index.ts';

export { howToVerify } from './how-to-verify.ts';

export { MAX_ADDRESSES_PER_CALL, verifyBatch } from './verify-batch.ts';
