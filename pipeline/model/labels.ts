import type { Stance, VerificationMethod } from '../records/types.ts';

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
  'reverse-dns': 'Forward-confirmed reverse DNS',
  none: 'No published verification method',
};
