// The usage-preference vocabularies a robots.txt can carry, as one table: every label the
// index knows, what it declares, which document defines it, and whether that definition is
// still current. The linter, the preference resolver and docs/usage-preferences.md all read
// this table, so a label is described once.
//
// Versions were read from the documents themselves (docs/usage-preferences.md lists where):
// - Content-Usage labels: draft-ietf-aipref-vocab, -00 (2025-04) to -07 (2026-08-19). Since -05
//   the vocabulary has exactly two labels, train-ai and search, each `y` or `n`; every other
//   label an earlier draft defined is now unknown, and a recipient ignores unknown labels.
// - Content-Signal labels: Cloudflare's Content Signals Policy (contentsignals.org, 2025-09),
//   also submitted as draft-romm-aipref-contentsignals-00 (2025-10-01): search, ai-input and
//   ai-train, each `yes` or `no`. Cloudflare's managed robots.txt added `use` in 2026.

export type Vocabulary = 'content-usage' | 'content-signal';

/**
 * The current keys of each vocabulary, in answer order: the fields an answer reports per label.
 * They name the table's current rows (a test holds the two together), typed so that a resolver
 * or an answer reading a key the table does not define fails the type check.
 */
export const CONTENT_USAGE_KEYS = ['train-ai', 'search'] as const;
export const CONTENT_SIGNAL_KEYS = ['search', 'ai-input', 'ai-train', 'use'] as const;

export interface Label {
  vocabulary: Vocabulary;
  key: string;
  /** What the label declares a preference about, in our words. */
  meaning: string;
  /** The values that state a preference; any other value leaves the preference unknown. */
  values: readonly string[];
  /** The document (and version) that defines the label as read here. */
  source: string;
  /** `legacy`: defined by an earlier draft only; recipients of the current draft ignore it. */
  status: 'current' | 'legacy';
  /** For a legacy label, what to write instead, when anything. */
  instead: string | null;
}

const VOCAB_05_07 = 'draft-ietf-aipref-vocab-05 (2025-12-01) to -07 (2026-08-19)';
const CONTENT_SIGNALS = 'Cloudflare Content Signals Policy (contentsignals.org, 2025-09; draft-romm-aipref-contentsignals-00, 2025-10-01)';

export const LABELS: readonly Label[] = [
  {
    vocabulary: 'content-usage',
    key: 'train-ai',
    meaning: 'using the content to train or fine-tune an AI model that generates text, images, audio or other content',
    values: ['y', 'n'],
    source: VOCAB_05_07,
    status: 'current',
    instead: null,
  },
  {
    vocabulary: 'content-usage',
    key: 'search',
    meaning:
      'using the content in a search application that sends people to where it was found, showing only excerpts that help them choose; AI-written summaries are not part of it',
    values: ['y', 'n'],
    source: VOCAB_05_07,
    status: 'current',
    instead: null,
  },
  legacy('tdm', 'text and data mining of any kind', 'draft-ietf-aipref-vocab-01 (2025-06)', 'train-ai'),
  legacy('ai', 'AI training', 'draft-ietf-aipref-vocab-01 (2025-06)', 'train-ai'),
  legacy('genai', 'training generative AI models', 'draft-ietf-aipref-vocab-01 (2025-06)', 'train-ai'),
  legacy('inference', 'using the content as input to a running AI model', 'draft-ietf-aipref-vocab-01 (2025-06)', null),
  legacy('all', 'any automated processing', 'draft-ietf-aipref-vocab-02 (2025-07)', null),
  legacy('train-genai', 'training generative AI models', 'draft-ietf-aipref-vocab-02 and -03 (2025-07 to 2025-09)', 'train-ai'),
  legacy('ai-use', 'using the content in an AI system', 'draft-ietf-aipref-vocab-02 (2025-07)', null),
  legacy('bots', 'any automated processing', 'draft-ietf-aipref-vocab-03 and -04 (2025-09 to 2025-10)', null),
  legacy('ai-output', 'using the content in what an AI system outputs', 'draft-ietf-aipref-vocab-04 (2025-10)', null),
  {
    vocabulary: 'content-signal',
    key: 'search',
    meaning: 'building a search index and showing results (links and short excerpts); AI-generated search summaries are not part of it',
    values: ['yes', 'no'],
    source: CONTENT_SIGNALS,
    status: 'current',
    instead: null,
  },
  {
    vocabulary: 'content-signal',
    key: 'ai-input',
    meaning: 'feeding the content into an AI model at answer time (retrieval-augmented generation, grounding, AI search answers)',
    values: ['yes', 'no'],
    source: CONTENT_SIGNALS,
    status: 'current',
    instead: null,
  },
  {
    vocabulary: 'content-signal',
    key: 'ai-train',
    meaning: 'training or fine-tuning AI models',
    values: ['yes', 'no'],
    source: CONTENT_SIGNALS,
    status: 'current',
    instead: null,
  },
  {
    vocabulary: 'content-signal',
    key: 'use',
    meaning: 'how far AI systems may go in using the content, from the narrowest `immediate` through `reference` to `full`',
    values: ['immediate', 'reference', 'full'],
    source: "Cloudflare's managed robots.txt and its /crawl endpoint (2026)",
    status: 'current',
    instead: null,
  },
];

function legacy(key: string, meaning: string, source: string, instead: string | null): Label {
  return { vocabulary: 'content-usage', key, meaning, values: ['y', 'n'], source, status: 'legacy', instead };
}

const BY_KEY: ReadonlyMap<string, Label> = new Map(LABELS.map((l) => [`${l.vocabulary} ${l.key}`, l]));

/** The label of a vocabulary with this key, exactly as written (labels are case-sensitive). */
export function labelOf(vocabulary: Vocabulary, key: string): Label | undefined {
  return BY_KEY.get(`${vocabulary} ${key}`);
}

/** The current labels of a vocabulary, in table order. */
export function currentLabels(vocabulary: Vocabulary): Label[] {
  return LABELS.filter((l) => l.vocabulary === vocabulary && l.status === 'current');
}
