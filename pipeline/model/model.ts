import type {
  CategoryId,
  CategoryRecord,
  ClientRecord,
  PeerList,
  CrawlerRecord,
  OperatorRecord,
  PolicyRecord,
  RecordSet,
  SiteSettings,
  SourceRow,
  DirectoryRow,
  EvidenceLevel,
  Stance,
  SupportingCitation,
  VerificationEntry,
  VerificationMethod,
} from '../records/types.ts';
import { byStrength, evidenceLevel, operatorDocs, strongestMethod, verificationSource, type VerificationSource } from '../records/evidence.ts';
import { peerStanding, type PeerStanding } from '../records/peers.ts';
import type { Corpus } from '../records/corpus.ts';
import { EVIDENCE_LABELS, STANCE_LABELS, verificationLabel } from './labels.ts';
import { neverFetched, type MirrorEntry } from '../upstream/accept.ts';
import { neverFetchedDirectory, type DirectoryEntry, type MirroredKey } from '../upstream/directory.ts';
import type { EventLog } from '../changes/types.ts';
import { href } from '../paths.ts';

/** A crawler as every output shows it: the 23 fields of docs/API.md §2.1, then our documented extras. */
export interface CrawlerView {
  slug: string;
  name: string;
  operator: string;
  operator_slug: string;
  category: CategoryId;
  category_label: string;
  /** Null when the operator documents no token because robots.txt does not apply (robots_token_note says so). */
  robots_token: string | null;
  user_agent_substring: string | null;
  user_agent_example: string | null;
  respects_robots_txt: Stance;
  respects_robots_txt_label: string;
  /** The strongest entry of `verification`. */
  verification_method: VerificationMethod;
  verification_label: string;
  /** Who says how to verify it: the operator, a third party (labelled everywhere), or null with no method. */
  verification_source: VerificationSource;
  published_ip_ranges_url: string | null;
  ip_ranges_endpoint: string | null;
  ipv4_prefix_count: number;
  ipv6_prefix_count: number;
  what_it_is: string;
  cost_of_blocking: string;
  /** The first operator citation; null when the operator publishes no page naming the crawler. */
  operator_docs: string | null;
  html_url: string;
  json_url: string;
  last_reviewed: string;
  // Extras beyond docs/API.md §2.1, always present so that clients never test for a missing key.
  robots_only: boolean;
  robots_token_is_product_token: boolean;
  robots_token_note: string | null;
  /** Why no User-Agent substring identifies a crawler that is not robots-only (it sends a plain browser header). */
  user_agent_note: string | null;
  robots_txt_note: string | null;
  robots_txt_evidence: string | null;
  reverse_dns_hostnames: string[];
  ip_sources: string[];
  markdown_url: string;
  /** Retired tokens whose groups the operator says this crawler still obeys, each with its citation. */
  honoured_tokens: HonouredToken[];
  /** Other names sites write for this crawler, which the operator has not said it obeys. */
  aliases: { name: string; note: string }[];
  /** Other User-Agent forms the crawler sends, each identifying it as its own substring does (records/user-agent-forms.ts). */
  variants: VariantView[];
  /** The whole headers the crawler sends, where others send its substring too; usually empty. */
  user_agent_full_forms: string[];
  /** retired: the operator no longer runs it; the record stays so that its token is explained. */
  status: 'active' | 'retired';
  retired_since: string | null;
  successor: string | null;
  retirement_note: string | null;
  retirement_citation: HonouredToken['citation'] | null;
  /** Every way a request can be checked, strongest first. */
  verification: VerificationView[];
  /** How sure the record is: whether the operator itself names the crawler (records/AUTHORING.md). */
  evidence: EvidenceLevel;
  evidence_label: string;
  citations: CitationView[];
}

/** One verification entry with every key present, so that clients never test for a missing one. */
export interface VerificationView {
  method: VerificationMethod;
  label: string;
  /** published-ranges: this service's mirrored lists; asn: the route list or geofeed, if any. */
  sources: string[];
  hostnames: string[];
  asns: number[];
  directory: string | null;
  /** web-bot-auth: the Signature-Agent URL the operator documents, or null. */
  signature_agent: string | null;
  addresses: string[];
  note: string | null;
}

type CitationView = Omit<SupportingCitation, 'note'> & { note: string | null };

type HonouredToken = NonNullable<CrawlerRecord['honoured_tokens']>[number];

/** One variant with every key present. */
interface VariantView {
  user_agent_substring: string;
  user_agent_example: string;
  note: string | null;
  citation: HonouredToken['citation'];
}

export interface SourceView extends SourceRow {
  mirror: MirrorEntry;
  endpoint: string;
  /** The last fetch that was accepted, whether or not it changed the list (state/checked.ts). */
  last_checked: string | null;
}

/** A key is "expiring" this long before its exp: the change feed warns a week ahead. */
const KEY_EXPIRY_WARNING_DAYS = 7;

export interface PublishedKey extends MirroredKey {
  /** Whether exp falls within KEY_EXPIRY_WARNING_DAYS of the build (or has passed). */
  expires_soon: boolean;
}

export interface DirectoryView extends DirectoryRow {
  mirror: DirectoryEntry;
  keys: PublishedKey[];
  endpoint: string;
}

/** The later of two ISO 8601 times (either may be missing). */
function laterOf(a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

/** What the mirror holds: the prefix lists and the key directories, as of the build's time. */
export interface MirrorSnapshot {
  lists: ReadonlyMap<string, MirrorEntry>;
  directories: ReadonlyMap<string, DirectoryEntry>;
  /** When each list was last fetched and accepted (state/checked.json); absent means none recorded. */
  checked?: ReadonlyMap<string, string>;
  /** The build's time (ISO 8601): keys expiring within a week of it are flagged. */
  now: string;
}

export interface PolicyView extends PolicyRecord {
  crawlers: CrawlerView[];
}

export interface Model {
  site: SiteSettings;
  categories: CategoryRecord[];
  operators: OperatorRecord[];
  crawlers: CrawlerView[];
  policies: PolicyView[];
  sources: SourceView[];
  /** The Web Bot Auth key directories mirrored, by id. */
  directories: DirectoryView[];
  /** HTTP clients that are not one operator's crawler, by id. */
  clients: ClientRecord[];
  /** How the index stands against the peers' AI list. */
  peers: { source: PeerList['source']; names: readonly string[]; standing: PeerStanding };
  /** The change events recorded so far, including this build's. */
  log: EventLog;
  /** The JSON Schemas, by path under schemas/: the published contract (OpenAPI embeds them). */
  schemas: ReadonlyMap<string, Record<string, unknown>>;
  /** The real headers the server configs are measured against (/data/policy-accuracy.json). */
  corpus: Corpus;
}

export function url(site: SiteSettings, path: string): string {
  return site.base_url + path;
}

const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

/** Union of the prefixes of every list that covers a crawler, so counts never double a prefix. */
function prefixCounts(sources: readonly SourceView[]): { ipv4: number; ipv6: number } {
  const v4 = new Set(sources.flatMap((s) => s.mirror.ipv4));
  const v6 = new Set(sources.flatMap((s) => s.mirror.ipv6));
  return { ipv4: v4.size, ipv6: v6.size };
}

function selectsCrawler(policy: PolicyRecord, crawler: CrawlerView): boolean {
  const select = policy.select;
  // A retired crawler fetches nothing: naming it in a policy would block nothing.
  // Nor a crawler with no robots.txt token: there is nothing to write for it.
  if (!select || crawler.status === 'retired' || crawler.robots_token === null) return false;
  if (select.categories && !select.categories.includes(crawler.category)) return false;
  if (select.stances && !select.stances.includes(crawler.respects_robots_txt)) return false;
  return true;
}

export function buildModel(
  records: RecordSet,
  snapshot: MirrorSnapshot,
  log: EventLog,
  schemas: ReadonlyMap<string, Record<string, unknown>>,
  corpus: Corpus,
): Model {
  const { site } = records;
  const operators = new Map(records.operators.map((o) => [o.slug, o]));
  const categories = new Map(records.categories.map((c) => [c.id, c]));
  const sources: SourceView[] = records.sources.map((row) => {
    const mirror = snapshot.lists.get(row.id) ?? neverFetched(row.id, row.url);
    return { ...row, mirror, endpoint: url(site, href('ip_ranges', row.id)), last_checked: laterOf(snapshot.checked?.get(row.id), mirror.last_success) };
  });
  const directories: DirectoryView[] = records.directories.map((row) => {
    const mirror = snapshot.directories.get(row.id) ?? neverFetchedDirectory(row.id, row.url);
    return { ...row, mirror, keys: mirror.keys.map((key) => publishedKey(key, snapshot.now)), endpoint: url(site, href('signature_agent', row.id)) };
  });
  // Network lists (an operator's whole AS) back an asn entry; they never count as the crawler's own ranges.
  const sourcesOf = (slug: string) => sources.filter((s) => s.scope !== 'network' && s.crawlers.includes(slug));

  const crawlers = records.crawlers.map((record): CrawlerView => {
    const own = sourcesOf(record.slug);
    const primary = own[0];
    const counts = prefixCounts(own);
    const checkedBy = verificationSource(record);
    return {
      slug: record.slug,
      name: record.name,
      operator: lookup(operators, record.operator, 'operator').name,
      operator_slug: record.operator,
      category: record.category,
      category_label: lookup(categories, record.category, 'category').label,
      robots_token: record.robots_token,
      user_agent_substring: record.user_agent_substring,
      user_agent_example: record.user_agent_example,
      respects_robots_txt: record.respects_robots_txt,
      respects_robots_txt_label: STANCE_LABELS[record.respects_robots_txt],
      verification_method: strongestMethod(record.verification),
      verification_label: verificationLabel(strongestMethod(record.verification), checkedBy),
      verification_source: checkedBy,
      published_ip_ranges_url: primary?.url ?? null,
      ip_ranges_endpoint: primary?.endpoint ?? null,
      ipv4_prefix_count: counts.ipv4,
      ipv6_prefix_count: counts.ipv6,
      what_it_is: record.what_it_is,
      cost_of_blocking: record.cost_of_blocking,
      operator_docs: operatorDocs(record.citations),
      html_url: url(site, href('crawler_html', record.slug)),
      json_url: url(site, href('crawler', record.slug)),
      last_reviewed: record.last_reviewed,
      robots_only: record.robots_only ?? false,
      robots_token_is_product_token: record.robots_token !== null && PRODUCT_TOKEN.test(record.robots_token),
      robots_token_note: record.robots_token_note ?? null,
      user_agent_note: record.user_agent_note ?? null,
      robots_txt_note: record.robots_txt_note ?? null,
      robots_txt_evidence: record.robots_txt_evidence ?? null,
      reverse_dns_hostnames: reverseDnsHostnames(record.verification),
      ip_sources: own.map((s) => s.id),
      markdown_url: url(site, href('crawler_markdown', record.slug)),
      honoured_tokens: record.honoured_tokens ?? [],
      aliases: record.aliases ?? [],
      variants: (record.variants ?? []).map((v) => ({ ...v, note: v.note ?? null })),
      user_agent_full_forms: record.user_agent_full_forms ?? [],
      status: record.status ?? 'active',
      retired_since: record.retired_since ?? null,
      successor: record.successor ?? null,
      retirement_note: record.retirement_note ?? null,
      retirement_citation: record.retirement_citation ?? null,
      verification: byStrength(record.verification).map((entry) => verificationView(entry, own, checkedBy)),
      evidence: evidenceLevel(record),
      evidence_label: EVIDENCE_LABELS[evidenceLevel(record)],
      citations: record.citations.map((c) => ({ ...c, note: c.note ?? null })),
    };
  });

  const policies = records.policies.map((policy) => ({ ...policy, crawlers: crawlers.filter((c) => selectsCrawler(policy, c)) }));
  return {
    site,
    categories: records.categories,
    operators: records.operators,
    crawlers,
    policies,
    sources,
    directories,
    clients: records.clients,
    peers: { source: records.peers.source, names: records.peers.names, standing: peerStanding(records.peers.names, records.crawlers, records.excluded) },
    log,
    schemas,
    corpus,
  };
}

/** When a key that expires at `expires` starts being flagged expires_soon (epoch ms). */
function keyWarningStarts(expires: string): number {
  return Date.parse(expires) - KEY_EXPIRY_WARNING_DAYS * 86_400_000;
}

function publishedKey(key: MirroredKey, now: string): PublishedKey {
  return { ...key, expires_soon: key.expires !== null && Date.parse(now) >= keyWarningStarts(key.expires) };
}

/**
 * The first moment the model built from the same inputs would differ: when the next key not yet
 * flagged expires_soon gets flagged (epoch ms), or null when no flag can change with time.
 */
export function modelChangesAt(model: Pick<Model, 'directories'>): number | null {
  const starts = model.directories.flatMap((d) => d.keys.flatMap((k) => (k.expires !== null && !k.expires_soon ? [keyWarningStarts(k.expires)] : [])));
  return starts.length === 0 ? null : Math.min(...starts);
}

function reverseDnsHostnames(entries: readonly VerificationEntry[]): string[] {
  return entries.flatMap((entry) => (entry.method === 'reverse-dns' ? entry.hostnames : []));
}

function verificationView(entry: VerificationEntry, own: readonly SourceView[], source: VerificationSource): VerificationView {
  const view: VerificationView = {
    method: entry.method,
    label: verificationLabel(entry.method, source),
    sources: [],
    hostnames: [],
    asns: [],
    directory: null,
    signature_agent: null,
    addresses: [],
    note: entry.note ?? null,
  };
  switch (entry.method) {
    case 'published-ranges':
      return { ...view, sources: own.map((s) => s.id) };
    case 'reverse-dns':
      return { ...view, hostnames: [...entry.hostnames] };
    case 'asn':
      return { ...view, asns: [...entry.asns], sources: entry.source === undefined ? [] : [entry.source] };
    case 'web-bot-auth':
      return { ...view, directory: entry.directory, signature_agent: entry.signature_agent ?? null };
    case 'fixed-ips':
      return { ...view, addresses: [...entry.addresses] };
    case 'none':
      return view;
  }
}

function lookup<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  // Unreachable after checkRecords; kept so a wrong call fails loudly instead of rendering "undefined".
  if (value === undefined) throw new Error(`model: unknown ${what} ${String(key)}`);
  return value;
}
