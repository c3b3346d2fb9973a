// The poisoned list of docs/API.md §2.3: Common Crawl's real list plus every public IPv4 /8
// and every public IPv6 /19, each of which passes the per-prefix bounds (public-space.ts) on
// its own. Served as CCBot's list, it would make verify-crawler call 8.8.8.8, 1.1.1.1 and
// 2606:4700::1111 genuine CCBot; the whole-list bound (address-space.ts) must refuse it.

import { readFileSync } from 'node:fs';
import { prefixProblem } from '../../pipeline/upstream/public-space.ts';

const CCBOT = new URL('../fixtures/reference/upstream/commoncrawl-ccbot.json', import.meta.url);

// Both are built once per process: 65,536 prefix checks and a 4 MB document are a second of
// work, and the tests that use them only read them.
let blocks: { ipv4: string[]; ipv6: string[] } | undefined;
let poisoned: string | undefined;

/** Every /8 of IPv4 and every /19 of 2000::/3 that prefixProblem lets through. */
export function publicBlocks(): { ipv4: readonly string[]; ipv6: readonly string[] } {
  blocks ??= everyPublicBlock();
  return blocks;
}

function everyPublicBlock(): { ipv4: string[]; ipv6: string[] } {
  const ipv4 = Array.from({ length: 256 }, (_, i) => `${i}.0.0.0/8`).filter((p) => prefixProblem(p) === null);
  // 2000::/3 holds 2^16 /19s: the first 16 bits are 001 then the 13 bits that vary, then 000.
  const ipv6 = Array.from({ length: 2 ** 13 }, (_, i) => (0x2000 | i).toString(16))
    .flatMap((first) => Array.from({ length: 8 }, (_, j) => `${first}:${(j << 13).toString(16)}::/19`))
    .filter((p) => prefixProblem(p) === null);
  return { ipv4, ipv6 };
}

/** The real Common Crawl file with the public blocks appended, in the operator's own layout. */
export function poisonedCcbotList(): string {
  poisoned ??= withPublicBlocks();
  return poisoned;
}

function withPublicBlocks(): string {
  const real = JSON.parse(readFileSync(CCBOT, 'utf8')) as { prefixes: Record<string, string>[] };
  const { ipv4, ipv6 } = publicBlocks();
  real.prefixes.push(...ipv4.map((p) => ({ ipv4Prefix: p })), ...ipv6.map((p) => ({ ipv6Prefix: p })));
  return JSON.stringify(real, null, 4);
}
