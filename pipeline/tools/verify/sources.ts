// What the prefix index and its linear reference share: the input rows, reading their
// prefixes once, and the shape of an answer. Only the search differs between the two.

import { parseAddress, type AddressErrorCode, type Family } from '../../net/address.ts';
import { parsePrefix, type Prefix } from '../../net/prefix.ts';
import type { CrawlerView } from '../../model/model.ts';

/**
 * crawlers: a list of the crawlers' own addresses (a match verifies them); listed: addresses a
 * crawler record quotes from the operator's page; network: the operator's whole AS, which backs
 * an asn claim (a match shows the address is the operator's, not which service sent it).
 */
type PrefixScope = 'crawlers' | 'listed' | 'network';

/** An IP list row; model.ts's SourceView fits (its `mirror` is a MirrorEntry). */
export interface PrefixSource {
  id: string;
  /** Operator slug. */
  operator: string;
  crawlers: readonly string[];
  scope: PrefixScope;
  mirror: {
    ipv4: readonly string[];
    ipv6: readonly string[];
    /** Mirror state, when known: 'ok' | 'failed' | 'never-fetched'. */
    state?: string;
    confirmed_at?: string | null;
  };
}

export interface PrefixMatch {
  source: string;
  operator: string;
  crawlers: readonly string[];
  scope: PrefixScope;
  prefix: string;
}

export interface SourceInfo {
  id: string;
  operator: string;
  crawlers: readonly string[];
  scope: PrefixScope;
  state: string | null;
  confirmed_at: string | null;
  ipv4_count: number;
  ipv6_count: number;
}

export interface RejectedPrefix {
  source: string;
  prefix: string;
  reason: string;
}

export interface InvalidAddress {
  valid: false;
  input: string;
  code: AddressErrorCode;
  error: string;
}

export interface FoundAddress {
  valid: true;
  input: string;
  /** Canonical text of the address looked up (the IPv4 address for a mapped input). */
  address: string;
  family: Family;
  ipv4_mapped: boolean;
  /** ipaddr.js's name for the block: unicast, private, loopback, linkLocal, ... */
  range: string;
  note: string | null;
  /** Every published prefix containing the address, most specific first, then in source order. */
  matches: PrefixMatch[];
}

export type LookupResult = InvalidAddress | FoundAddress;

export interface PreparedSources {
  sources: SourceInfo[];
  /** Every distinct (source, prefix) pair, in source order then list order. */
  entries: { match: PrefixMatch; prefix: Prefix }[];
  rejected: RejectedPrefix[];
}

export function prepareSources(rows: readonly PrefixSource[]): PreparedSources {
  const sources: SourceInfo[] = [];
  const entries: PreparedSources['entries'] = [];
  const rejected: RejectedPrefix[] = [];
  for (const row of rows) {
    const crawlers = [...row.crawlers];
    const seen = new Set<string>();
    let v4 = 0;
    let v6 = 0;
    for (const raw of [...row.mirror.ipv4, ...row.mirror.ipv6]) {
      const read = parsePrefix(raw);
      if (!read.ok) {
        rejected.push({ source: row.id, prefix: raw, reason: read.reason });
        continue;
      }
      if (seen.has(read.prefix.text)) continue;
      seen.add(read.prefix.text);
      if (read.prefix.family === 'ipv4') v4++;
      else v6++;
      entries.push({ match: { source: row.id, operator: row.operator, crawlers, scope: row.scope, prefix: read.prefix.text }, prefix: read.prefix });
    }
    sources.push({
      id: row.id,
      operator: row.operator,
      crawlers,
      scope: row.scope,
      state: row.mirror.state ?? null,
      confirmed_at: row.mirror.confirmed_at ?? null,
      ipv4_count: v4,
      ipv6_count: v6,
    });
  }
  return { sources, entries, rejected };
}

type ListingCrawler = Pick<CrawlerView, 'slug' | 'operator_slug' | 'last_reviewed' | 'verification'>;

/**
 * Addresses operators list on a page rather than in a file, one row per crawler named after the
 * record they come from, so that verify-crawler checks them like any published list.
 */
export function listedSources(crawlers: readonly ListingCrawler[]): PrefixSource[] {
  return crawlers.flatMap((crawler): PrefixSource[] => {
    const addresses = crawler.verification.flatMap((entry) => (entry.method === 'fixed-ips' ? entry.addresses : []));
    if (addresses.length === 0) return [];
    return [
      {
        id: `record:${crawler.slug}`,
        operator: crawler.operator_slug,
        crawlers: [crawler.slug],
        scope: 'listed',
        // parsePrefix reads either family from either array.
        mirror: { ipv4: addresses, ipv6: [], state: 'ok', confirmed_at: crawler.last_reviewed },
      },
    ];
  });
}

/** Reads the address and answers with whatever `search` finds for it. */
export function answer(input: string, search: (family: Family, bytes: number[]) => PrefixMatch[]): LookupResult {
  const parsed = parseAddress(input);
  if (!parsed.ok) return { valid: false, input, code: parsed.code, error: parsed.error };
  return {
    valid: true,
    input,
    address: parsed.canonical,
    family: parsed.family,
    ipv4_mapped: parsed.ipv4Mapped,
    range: parsed.range,
    note: noteFor(parsed.canonical, parsed.ipv4Mapped, parsed.range),
    matches: search(parsed.family, parsed.bytes),
  };
}

// Blocks no crawler fetches from: seeing one usually means a proxy or load balancer sits in
// front and the client's real address is in a forwarding header.
const NOT_PUBLIC = new Set(['private', 'loopback', 'linkLocal', 'uniqueLocal', 'carrierGradeNat', 'unspecified']);

function noteFor(address: string, mapped: boolean, range: string): string | null {
  const notes: string[] = [];
  if (mapped) notes.push(`An IPv4-mapped IPv6 address; looked up as the IPv4 address ${address} it carries.`);
  if (NOT_PUBLIC.has(range)) {
    notes.push(
      `A ${range} address, not a public one: no crawler reaches a site from it. If it is what your server logged, a proxy probably sits in front and the client's address is in a forwarding header.`,
    );
  }
  return notes.length === 0 ? null : notes.join(' ');
}
