import type { CrawlerView, PublishedKey, VerificationView } from '../../model/model.ts';
import { listedSources, type PrefixSource } from '../verify/sources.ts';
import { buildClassifier } from '../classify/index.ts';
import type { ClientEntry } from '../classify/clients.ts';
import { buildPrefixIndex } from '../verify/index.ts';
import type { PublishedAccuracy, PublishedPolicy, SourceSummary, ToolData } from './types.ts';
import { href } from '../../paths.ts';

export interface ToolDocuments {
  agents: {
    crawlers: (Omit<CrawlerView, 'citations'> & Partial<Pick<CrawlerView, 'citations'>>)[];
    categories: { id: string; label: string; ai: boolean }[];
    endpoints: Record<string, { url: string }>;
  };
  ipSources: {
    sources: {
      id: string;
      operator: string;
      crawlers: string[];
      scope?: 'crawlers' | 'network';
      state: string;
      ipv4_count: number;
      ipv6_count: number;
      endpoint: string;
    }[];
  };
  ranges: { sources: { id: string; ipv4: string[]; ipv6: string[] }[] };
  status: { sources: { id: string; last_success: string | null; last_checked?: string | null }[] };
  policies: PublishedPolicy[];
  clients: { clients: ClientEntry[] };
  signatureAgents: { agents: { id: string; signature_agent: string; directory_url: string; state: string; fetched_at: string | null; keys: PublishedKey[] }[] };
  serverConfigs: ReadonlyMap<string, string>;
  accuracy: { policies: PublishedAccuracy[] };
}

/** The paths ToolData is built from; a change to any of their ETags means a rebuild. */
export const TOOL_DOCUMENTS = [href('agents'), href('ip_sources'), href('ip_ranges_all'), href('status'), href('clients'), href('signature_agents')] as const;

/** Builds the classifier and the prefix index once per published tree. Pure. */
export function buildToolData(docs: ToolDocuments): ToolData {
  // A tree published before a field existed lacks it: read as the field's empty value, so new
  // code serving an older dist/ treats every crawler as active with no honoured tokens.
  const crawlers = docs.agents.crawlers.map(
    (c): CrawlerView => ({
      ...c,
      honoured_tokens: c.honoured_tokens ?? [],
      aliases: c.aliases ?? [],
      status: c.status ?? 'active',
      retired_since: c.retired_since ?? null,
      verification: c.verification ?? legacyVerification(c),
      verification_source: c.verification_source ?? (c.verification_method === 'none' ? null : 'operator'),
      // The bulk list carries no citations (docs/API.md §2.2); no tool answers with them.
      citations: c.citations ?? [],
    }),
  );
  const ranges = new Map(docs.ranges.sources.map((s) => [s.id, s]));
  // A list is as fresh as the last fetch that confirmed it: last_checked moves at every accepted
  // fetch, last_success only when the list changed (docs/API.md §2.3); a tree published before
  // last_checked existed has only last_success.
  const fetched = new Map(docs.status.sources.map((s) => [s.id, latest(s.last_checked ?? null, s.last_success)]));
  const sources: SourceSummary[] = docs.ipSources.sources.map((s) => ({
    id: s.id,
    operator: s.operator,
    crawlers: s.crawlers,
    scope: s.scope ?? 'crawlers',
    state: s.state,
    ipv4_count: s.ipv4_count,
    ipv6_count: s.ipv6_count,
    endpoint: s.endpoint,
    confirmed_at: fetched.get(s.id) ?? null,
  }));
  const baseUrl = (docs.agents.endpoints['agents']?.url ?? '').replace(/\/data\/agents\.json$/, '');
  return {
    baseUrl,
    crawlers,
    bySlug: new Map(crawlers.map((c) => [c.slug, c])),
    aiCategories: new Set(docs.agents.categories.filter((c) => c.ai).map((c) => c.id)),
    categories: docs.agents.categories.map(({ id, label, ai }) => ({ id, label, ai })),
    policies: docs.policies,
    serverConfigs: docs.serverConfigs,
    accuracy: docs.accuracy.policies,
    sources,
    classifier: buildClassifier(crawlers, docs.clients.clients),
    clients: docs.clients.clients,
    signatureAgents: docs.signatureAgents.agents.map((a) => ({
      id: a.id,
      signature_agent: a.signature_agent,
      directory_url: a.directory_url,
      state: a.state,
      fetched_at: a.fetched_at,
      keys: a.keys.map((k) => ({ thumbprint: k.thumbprint, kty: k.kty, crv: k.crv, kid: k.kid, jwk: k.jwk as JsonWebKey })),
    })),
    prefixes: buildPrefixIndex([
      ...sources.map(
        (s): PrefixSource => ({
          id: s.id,
          operator: s.operator,
          crawlers: s.crawlers,
          scope: s.scope,
          mirror: { ipv4: ranges.get(s.id)?.ipv4 ?? [], ipv6: ranges.get(s.id)?.ipv6 ?? [], state: s.state, confirmed_at: s.confirmed_at },
        }),
      ),
      ...listedSources(crawlers),
    ]),
  };
}

/** The later of two RFC 3339 times (either may be missing). */
function latest(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

/** A tree published before verification became a list: rebuilt from the one method it named. */
function legacyVerification(c: Pick<CrawlerView, 'verification_method' | 'verification_label' | 'reverse_dns_hostnames' | 'ip_sources'>): VerificationView[] {
  const empty = { sources: [], hostnames: [], asns: [], directory: null, signature_agent: null, addresses: [], note: null };
  const entries: VerificationView[] = [];
  if (c.verification_method === 'published-ranges')
    entries.push({ ...empty, method: 'published-ranges', label: c.verification_label, sources: [...c.ip_sources] });
  if (c.reverse_dns_hostnames.length > 0)
    entries.push({ ...empty, method: 'reverse-dns', label: 'Forward-confirmed reverse DNS', hostnames: [...c.reverse_dns_hostnames] });
  if (entries.length === 0) entries.push({ ...empty, method: 'none', label: c.verification_label });
  return entries;
}
