// Shapes of the hand-reviewed records. The JSON Schemas in schemas/records/ are the contract:
// the record types are generated from them (schema-types.ts, scripts/schema-types.ts), and the
// lists the code needs at run time are checked against the generated types below.

import type {
  CategoriesSchema,
  ClientsSchema,
  CrawlerSchema,
  ExcludedSchema,
  PeersSchema,
  OperatorSchema,
  PoliciesSchema,
  SiteSchema,
  PrefixListRow,
  SignatureDirectoryRow,
} from './schema-types.ts';

export type CrawlerRecord = CrawlerSchema;
export type OperatorRecord = OperatorSchema;
export type CategoryRecord = CategoriesSchema[number];
export type PolicyRecord = PoliciesSchema[number];
export type SourceRow = PrefixListRow;
export type DirectoryRow = SignatureDirectoryRow;
export type SiteSettings = SiteSchema;
export type ClientRecord = ClientsSchema[number];
export type ExcludedName = ExcludedSchema[number];
export type PeerList = PeersSchema;

const CATEGORY_IDS = [
  'ai-training',
  'ai-search',
  'ai-assistant',
  'ai-agent',
  'dataset',
  'search-engine',
  'seo-tool',
  'social-preview',
  'archive',
  'site-monitor',
  'advertising',
  'security-scanner',
  'feed-fetcher',
  'service-agent',
  'web-data',
  'research',
] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

export const STANCES = ['documented', 'partial', 'ignores', 'disputed', 'undocumented'] as const;
export type Stance = (typeof STANCES)[number];

/** Strongest first: a check of the request's address before a signature (only the server sees one), none last. */
export const VERIFICATION_METHODS = ['published-ranges', 'fixed-ips', 'reverse-dns', 'asn', 'web-bot-auth', 'none'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
export type VerificationEntry = CrawlerRecord['verification'][number];

export const EVIDENCE_LEVELS = ['operator', 'third-party', 'observed'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];
export type SupportingCitation = CrawlerRecord['citations'][number];
export type CitedField = SupportingCitation['supports'][number];

export const POLICY_IDS = [
  'allow-all',
  'block-ai-training',
  'block-all-ai',
  'block-datasets',
  'allow-ai-search-only',
  'block-seo-tools',
  'block-disputed',
  'maximum-ai-visibility',
] as const;
export type PolicyId = (typeof POLICY_IDS)[number];

/** Every record, as loaded; sorted by slug/id so that outputs never depend on directory order. */
export interface RecordSet {
  site: SiteSettings;
  crawlers: CrawlerRecord[];
  operators: OperatorRecord[];
  categories: CategoryRecord[];
  policies: PolicyRecord[];
  /** The IP-prefix lists of records/sources.yaml. */
  sources: SourceRow[];
  /** The signature-key directories of records/sources.yaml (kind signature-directory). */
  directories: DirectoryRow[];
  /** Non-crawler HTTP clients the classifier names when no crawler matches. */
  clients: ClientRecord[];
  /** The peers' AI list, and the names of it the index leaves out with the reason. */
  peers: PeerList;
  excluded: ExcludedName[];
}

/** One YAML document and the schema it must satisfy; kept so that errors can name the file. */
export interface RecordFile {
  file: string;
  schema: RecordSchemaName;
  data: unknown;
}

export type RecordSchemaName = 'crawler' | 'operator' | 'categories' | 'policies' | 'sources' | 'site' | 'clients' | 'peers' | 'excluded';

export interface Problem {
  file: string;
  path: string;
  message: string;
}
