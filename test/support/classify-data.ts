// Test support, not runtime code: it reads files with node:fs, so only *.test.ts and benchmarks import it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CrawlerView } from '../../pipeline/model/model.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The published crawler records, as the tools receive them at request time. */
export function realCrawlers(): CrawlerView[] {
  const doc = JSON.parse(readFileSync(`${repo}dist/data/agents.json`, 'utf8')) as { crawlers: CrawlerView[] };
  return doc.crawlers;
}

// A copy kept in the repository, which the build also measures the server configs against
// (records/corpus/README.md gives its source and licence).
const PEERS_PATH = `${repo}records/corpus/crawler-user-agents.json`;

export interface PeerEntry {
  pattern: string;
  instances: string[];
}

/** monperrus/crawler-user-agents; a missing copy throws with its path rather than skipping the cross-check. */
export function peerEntries(): PeerEntry[] {
  return JSON.parse(readFileSync(PEERS_PATH, 'utf8')) as PeerEntry[];
}

/** A complete crawler record with test defaults; only what a test is about needs saying. */
export function fixtureCrawler(slug: string, fields: Partial<CrawlerView> = {}): CrawlerView {
  const operatorSlug = fields.operator_slug ?? 'acme';
  return {
    slug,
    name: slug,
    operator: operatorSlug.toUpperCase(),
    operator_slug: operatorSlug,
    category: 'search-engine',
    category_label: 'Search engine crawler',
    robots_token: slug,
    user_agent_substring: slug,
    user_agent_example: `Mozilla/5.0 (compatible; ${slug}/1.0)`,
    respects_robots_txt: 'documented',
    respects_robots_txt_label: 'Operator documents that it obeys robots.txt',
    verification_method: 'none',
    verification_label: 'No published verification method',
    verification_source: null,
    published_ip_ranges_url: null,
    ip_ranges_endpoint: null,
    ipv4_prefix_count: 0,
    ipv6_prefix_count: 0,
    what_it_is: 'A test crawler.',
    cost_of_blocking: 'Nothing; it is a test.',
    operator_docs: 'https://example.com/docs',
    html_url: `https://example.com/crawler/${slug}.html`,
    json_url: `https://example.com/crawler/${slug}.json`,
    last_reviewed: '2026-01-01',
    robots_only: false,
    robots_token_is_product_token: true,
    robots_token_note: null,
    user_agent_note: null,
    robots_txt_note: null,
    robots_txt_evidence: null,
    reverse_dns_hostnames: [],
    ip_sources: [],
    markdown_url: `https://example.com/crawler/${slug}.md`,
    honoured_tokens: [],
    aliases: [],
    variants: [],
    user_agent_full_forms: [],
    status: 'active',
    retired_since: null,
    successor: null,
    retirement_note: null,
    retirement_citation: null,
    verification: [
      {
        method: 'none',
        label: 'No published verification method',
        sources: [],
        hostnames: [],
        asns: [],
        directory: null,
        signature_agent: null,
        addresses: [],
        note: null,
      },
    ],
    evidence: 'operator',
    evidence_label: 'Documented by the operator',
    citations: [
      {
        url: 'https://example.com/docs',
        publisher: operatorSlug.toUpperCase(),
        kind: 'operator',
        retrieved: '2026-01-01',
        supports: ['robots_token', 'user_agent_example', 'respects_robots_txt', 'what_it_is'],
        note: null,
      },
    ],
    ...fields,
  };
}
