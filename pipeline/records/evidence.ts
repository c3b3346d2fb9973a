// How sure a record is, from its citations alone: the rules records/AUTHORING.md states, as code.
import {
  type CitedField,
  type CrawlerRecord,
  type EvidenceLevel,
  type SupportingCitation,
  VERIFICATION_METHODS,
  type VerificationEntry,
  type VerificationMethod,
} from './types.ts';

/** The fields a record must cite; the others (category, cost_of_blocking) are our own assessment. */
function fieldsToCite(record: CrawlerRecord): CitedField[] {
  const fields: CitedField[] = ['robots_token'];
  if (record.user_agent_example !== null) fields.push('user_agent_example');
  // Nothing to cite for silence or for the absence of a method.
  if (record.respects_robots_txt !== 'undocumented') fields.push('respects_robots_txt');
  if (!record.verification.every((entry) => entry.method === 'none')) fields.push('verification');
  fields.push('what_it_is');
  return fields;
}

export function uncitedFields(record: CrawlerRecord): CitedField[] {
  const cited = new Set(record.citations.flatMap((c) => c.supports));
  return fieldsToCite(record).filter((field) => !cited.has(field));
}

/**
 * operator: the operator itself names the crawler: its token, its User-Agent or how to verify
 * it (for a crawler with neither a token nor a header, what it is); third-party: only public
 * sources other than the operator do; observed: it is known from traffic alone. An operator page
 * cited only for a null token (the page shows no token) names nothing, so it does not make a
 * record the operator's word (records/AUTHORING.md, "Evidence levels").
 */
export function evidenceLevel(record: Pick<CrawlerRecord, 'citations' | 'robots_token' | 'user_agent_example'>): EvidenceLevel {
  const { citations } = record;
  const nameless = record.robots_token === null && record.user_agent_example === null;
  const identifies = (c: SupportingCitation) =>
    c.supports.includes('user_agent_example') ||
    c.supports.includes('verification') ||
    (record.robots_token !== null && c.supports.includes('robots_token')) ||
    (nameless && c.supports.includes('what_it_is'));
  if (citations.some((c) => c.kind === 'operator' && identifies(c))) return 'operator';
  if (citations.some((c) => c.kind === 'third-party')) return 'third-party';
  return 'observed';
}

/**
 * Who says how to verify the crawler: `operator` when an operator citation supports
 * `verification`, `third-party` when only other sources do (a public list of scanners'
 * addresses, a peer dataset), null when there is no method. A check resting on a third party
 * is stated as such wherever it is shown (docs/API.md §2.1).
 */
export function verificationSource(record: Pick<CrawlerRecord, 'citations' | 'verification'>): VerificationSource {
  if (record.verification.every((entry) => entry.method === 'none')) return null;
  return record.citations.some((c) => c.kind === 'operator' && c.supports.includes('verification')) ? 'operator' : 'third-party';
}

export type VerificationSource = 'operator' | 'third-party' | null;

/** The operator's own page that names the crawler, as the record's operator_docs (docs/API.md §2.1); null when there is none. */
export function operatorDocs(citations: readonly SupportingCitation[]): string | null {
  return citations.find((c) => c.kind === 'operator')?.url ?? null;
}

const RANK = new Map<VerificationMethod, number>(VERIFICATION_METHODS.map((m, i) => [m, i]));

/** The entries strongest first; stable, so two entries of one method keep the record's order. */
export function byStrength(entries: readonly VerificationEntry[]): VerificationEntry[] {
  return [...entries].sort((a, b) => (RANK.get(a.method) ?? 0) - (RANK.get(b.method) ?? 0));
}

export function strongestMethod(entries: readonly VerificationEntry[]): VerificationMethod {
  return byStrength(entries)[0]?.method ?? 'none';
}
