import type { ClientRecord, EvidenceLevel, Stance, VerificationMethod } from '../records/types.ts';
import type { VerificationSource } from '../records/evidence.ts';

// Human labels for the enum fields. Identifiers are the contract; labels may be reworded.
export const STANCE_LABELS: Record<Stance, string> = {
  documented: 'Operator documents that it obeys robots.txt',
  partial: 'Operator documents obeying robots.txt, with stated exceptions',
  ignores: 'Operator says robots.txt does not apply to it',
  disputed: 'Documents obedience, but publicly reported ignoring robots.txt',
  undocumented: 'Operator does not say whether it obeys robots.txt',
};

export const VERIFICATION_LABELS: Record<VerificationMethod, string> = {
  'published-ranges': 'Operator publishes its IP prefixes',
  'fixed-ips': 'Operator lists its IP addresses on a page',
  'reverse-dns': 'Forward-confirmed reverse DNS',
  asn: "Sent only from the operator's autonomous system",
  'web-bot-auth': 'Signed requests (Web Bot Auth)',
  none: 'No published verification method',
};

/** The label of a method whose source is a third party, not the operator (verification_source). */
const THIRD_PARTY_VERIFICATION_LABELS: Record<VerificationMethod, string> = {
  'published-ranges': 'IP prefixes the operator publishes, at an address a third party gives',
  'fixed-ips': 'IP addresses from a third-party list, not the operator',
  'reverse-dns': 'Forward-confirmed reverse DNS, with host names a third party gives',
  asn: 'Autonomous system a third party names',
  'web-bot-auth': 'Signed requests (Web Bot Auth), key directory a third party names',
  none: 'No published verification method',
};

export function verificationLabel(method: VerificationMethod, source: VerificationSource): string {
  return (source === 'third-party' ? THIRD_PARTY_VERIFICATION_LABELS : VERIFICATION_LABELS)[method];
}

export const EVIDENCE_LABELS: Record<EvidenceLevel, string> = {
  operator: 'Documented by the operator',
  'third-party': 'Third-party evidence; the operator documents nothing',
  observed: 'Seen in traffic only',
};

export const CLIENT_KIND_LABELS: Record<ClientRecord['kind'], string> = {
  'uptime-monitor': 'Uptime monitor',
  'http-library': 'HTTP library (its default header)',
  'command-line-tool': 'Command-line tool',
  'scraping-framework': 'Scraping framework',
  'headless-browser': 'Headless browser',
  'feed-reader': 'Feed reader',
};
