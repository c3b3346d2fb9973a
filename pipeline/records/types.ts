// Shapes of the hand-reviewed records. The JSON Schemas in schemas/records/ are the contract;
// these types mirror them so that code reading validated records is checked by tsc.

import type { PrefixFormat } from '../upstream/parse.ts';

const CATEGORY_IDS = ['ai-training', 'ai-search', 'ai-assistant', 'ai-agent', 'dataset', 'search-engine', 'seo-tool', 'social-preview', 'archive'] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

export const STANCES = ['documented', 'partial', 'ignores', 'disputed', 'undocumented'] as const;
export type Stance = (typeof STANCES)[number];

export const VERIFICATION_METHODS = ['published-ranges', 'reverse-dns', 'none'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

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
type PolicyId = (typeof POLICY_IDS)[number];

export interface CrawlerRecord {
  slug: string;
  name: string;
  operator: string;
  category: CategoryId;
  robots_token: string;
  robots_token_note?: string;
  robots_only?: boolean;
  user_agent_substring: string | null;
  user_agent_example: string | null;
  respects_robots_txt: Stance;
  robots_txt_note?: string;
  robots_txt_evidence?: string;
  verification_method: VerificationMethod;
  reverse_dns_hostnames?: string[];
  what_it_is: string;
  cost_of_blocking: string;
  operator_docs: string;
  last_reviewed: string;
}

export interface OperatorRecord {
  slug: string;
  name: string;
  homepage: string;
  docs_url: string;
  about: string;
  verification_note?: string;
  last_reviewed: string;
}

export interface CategoryRecord {
  id: CategoryId;
  label: string;
  ai: boolean;
  definition: string;
}

export interface PolicyRecord {
  id: PolicyId;
  title: string;
  directive: 'disallow' | 'allow' | 'none';
  select?: { categories?: CategoryId[]; stances?: Stance[] };
  rationale: string;
  caveats: string[];
}

/** The formats of upstream/parse.ts FORMATS, the one table of them. */
type SourceFormat = PrefixFormat;

export interface SourceRow {
  id: string;
  operator: string;
  title: string;
  url: string;
  format: SourceFormat;
  families: ('ipv4' | 'ipv6')[];
  crawlers: string[];
}

export interface SiteSettings {
  name: string;
  base_url: string;
  repository: string;
  license: 'CC0-1.0';
  contact: string;
}

/** Every record, as loaded; sorted by slug/id so that outputs never depend on directory order. */
export interface RecordSet {
  site: SiteSettings;
  crawlers: CrawlerRecord[];
  operators: OperatorRecord[];
  categories: CategoryRecord[];
  policies: PolicyRecord[];
  sources: SourceRow[];
}

/** One YAML document and the schema it must satisfy; kept so that errors can name the file. */
export interface RecordFile {
  file: string;
  schema: RecordSchemaName;
  data: unknown;
}

export type RecordSchemaName = 'crawler' | 'operator' | 'categories' | 'policies' | 'sources' | 'site';

export interface Problem {
  file: string;
  path: string;
  message: string;
}
