// IP verification: operator-published prefixes in a binary trie, address lists, verdicts on claims.
export { parseAddress } from '../../net/address.ts';
export type { AddressErrorCode, AddressProblem, Family, ParsedAddress } from '../../net/address.ts';
export { buildPrefixIndex, lookup } from './prefix-index.ts';
export type { PrefixIndex } from './prefix-index.ts';
export type { FoundAddress, InvalidAddress, LookupResult, PrefixMatch, PrefixSource, RejectedPrefix, SourceInfo } from './sources.ts';
export { howToVerify } from './how-to-verify.ts';
export type { HowToVerify } from './how-to-verify.ts';
export { MAX_ADDRESSES_PER_CALL, VERDICTS, resolveClaim, verifyBatch } from './verify-batch.ts';
export type { BatchAnswer, BatchItem, BatchMatch, CheckedAddress, Claim, ClaimedCrawler, ClaimVerdict } from './verify-batch.ts';
