import { contentTypeOf, href } from '../paths.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from '../render/output.ts';
import { compareText } from '../util/compare.ts';
import { etagOf } from '../util/sha256.ts';
import { carriesLiveCounters } from '../site/live.ts';

export interface LedgerEntry {
  path: string;
  kind: string;
  type: string;
  bytes: number;
  /** The ETag the server sends; null for a page, whose live counters make each answer differ from the file. */
  etag: string | null;
  /** The ETag of the stored file where it is not `etag` (pages); what a static host serves. */
  file_etag: string | null;
  last_modified: string;
}

export interface Ledger {
  generated_at: string;
  counts: { documents: number; bytes: number; by_kind: Record<string, number> };
  documents: LedgerEntry[];
}

export interface StampedFile {
  path: string;
  kind: string;
  bytes: Uint8Array;
  entry: LedgerEntry;
}

export const LEDGER_JSON = href('documents');
export const LEDGER_TXT = href('documents_txt');

const encoder = new TextEncoder();

/**
 * Gives every file its bytes and Last-Modified. A file whose bytes equal the previous build's
 * keeps the previous date; a file that shows its own stamp is first rendered with the previous
 * stamp, so it too keeps its date (and its bytes) unless something else in it changed.
 */
export function stampFiles(files: readonly RenderedFile[], previous: ReadonlyMap<string, LedgerEntry>, now: string): StampedFile[] {
  return files.map((file) => {
    const before = previous.get(file.path);
    const render = (stamp: string) => encoder.encode(typeof file.body === 'string' ? file.body : file.body(stamp));
    let lastModified = before?.last_modified ?? now;
    let bytes = render(lastModified);
    let etag = etagOf(bytes);
    if (fileEtagOf(before) !== etag && lastModified !== now) {
      // Changed since the previous build: rendered again with this build's stamp (a new file
      // already has it).
      lastModified = now;
      bytes = render(now);
      etag = etagOf(bytes);
    }
    return {
      path: file.path,
      kind: file.kind,
      bytes,
      entry: ledgerEntry(file.path, file.kind, bytes.length, etag, lastModified),
    };
  });
}

function ledgerEntry(path: string, kind: string, bytes: number, etag: string, lastModified: string): LedgerEntry {
  const type = contentTypeOf(path);
  const live = carriesLiveCounters(type);
  return { path, kind, type, bytes, etag: live ? null : etag, file_etag: live ? etag : null, last_modified: lastModified };
}

/** The ETag of the stored bytes an entry describes, whether or not the server sends it. */
export function fileEtagOf(entry: Pick<LedgerEntry, 'etag' | 'file_etag'> | undefined): string | null | undefined {
  return entry === undefined ? undefined : (entry.file_etag ?? entry.etag);
}

export function buildLedger(files: readonly StampedFile[], fallbackTime: string): Ledger {
  const documents = files.map((f) => f.entry).sort((a, b) => compareText(a.path, b.path));
  const byKind: Record<string, number> = {};
  for (const doc of documents) byKind[doc.kind] = (byKind[doc.kind] ?? 0) + 1;
  const sortedKinds = Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => compareText(a, b)));
  // generated_at is when the newest document last changed, so an unchanged rebuild keeps it.
  const newest = documents.reduce<string | null>((max, d) => (max === null || d.last_modified > max ? d.last_modified : max), null);
  return {
    generated_at: newest ?? fallbackTime,
    counts: { documents: documents.length, bytes: documents.reduce((sum, d) => sum + d.bytes, 0), by_kind: sortedKinds },
    documents,
  };
}

export function ledgerJson(ledger: Ledger): string {
  return canonicalJson(ledger);
}

export function ledgerText(ledger: Ledger, siteName: string): string {
  const lines = [
    `# ${siteName} document ledger. generated_at ${ledger.generated_at}`,
    '# Fields, tab-separated: path, kind, bytes, etag, last-modified. "-" means no validator is published.',
    '# etag: first 32 hex characters of the sha-256 of the exact bytes served. The ledger itself is not listed in the ledger.',
    ...ledger.documents.map((d) => [d.path, d.kind, String(d.bytes), d.etag ?? '-', d.last_modified].join('\t')),
  ];
  return lines.join('\n') + '\n';
}

/**
 * Reads a previous documents.json. An unreadable one means "no previous build" (every file is
 * then dated now), and the warning says so rather than losing the dates silently.
 */
export function parsePreviousLedger(text: string | null): { entries: Map<string, LedgerEntry>; warning: string | null } {
  if (text === null) return { entries: new Map(), warning: null };
  try {
    const parsed = JSON.parse(text) as Partial<Ledger>;
    return { entries: new Map((parsed.documents ?? []).map((d) => [d.path, d])), warning: null };
  } catch (error) {
    return { entries: new Map(), warning: `the previous documents.json is not valid JSON (${(error as Error).message}); every document is dated now` };
  }
}
