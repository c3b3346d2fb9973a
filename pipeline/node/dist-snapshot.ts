import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { etagOf } from '../ledger/etag.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { LEDGER_JSON, LEDGER_TXT } from '../ledger/ledger.ts';
import type { DocumentStore, StoredDocument } from '../http/store.ts';
import { contentTypeOf } from '../routes.ts';

interface Snapshot {
  identity: string;
  generatedAt: string;
  documents: Map<string, StoredDocument>;
}

/**
 * Loads every document listed in dist/documents.json into memory and checks each one's bytes
 * against the ledger's ETag. A tree caught mid-swap or mid-write fails that check, so the
 * snapshot is refused and the previous one keeps serving: a reader never sees half a build.
 */
export async function loadSnapshot(dir: string): Promise<Snapshot> {
  const ledgerPath = join(dir, LEDGER_JSON);
  const before = await identityOf(ledgerPath);
  const ledgerBytes = await readFile(ledgerPath);
  const ledger = JSON.parse(ledgerBytes.toString('utf8')) as Ledger;
  const documents = new Map<string, StoredDocument>();
  for (const entry of ledger.documents) {
    const bytes = new Uint8Array(await readFile(join(dir, entry.path)));
    const etag = etagOf(bytes);
    if (entry.etag !== null && etag !== entry.etag) throw new Error(`dist snapshot: ${entry.path} does not match the ledger (the tree is being rewritten)`);
    documents.set(entry.path, { path: entry.path, bytes, type: entry.type, etag, lastModified: entry.last_modified });
  }
  // The ledger describes everything but itself, so its own validators are computed here.
  for (const path of [LEDGER_JSON, LEDGER_TXT]) {
    const bytes = path === LEDGER_JSON ? new Uint8Array(ledgerBytes) : new Uint8Array(await readFile(join(dir, path)));
    documents.set(path, { path, bytes, type: contentTypeOf(path), etag: etagOf(bytes), lastModified: ledger.generated_at });
  }
  if ((await identityOf(ledgerPath)) !== before) throw new Error('dist snapshot: the tree changed while it was read');
  return { identity: before, generatedAt: ledger.generated_at, documents };
}

async function identityOf(path: string): Promise<string> {
  const info = await stat(path);
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

export interface SnapshotStoreOptions {
  /** How often a request may trigger a look at dist/ for a new build. */
  checkEveryMs?: number;
  onReload?: (message: string) => void;
}

/** A DocumentStore over dist/ that picks up a rebuilt tree without a restart. */
export async function snapshotStore(dir: string, options: SnapshotStoreOptions = {}): Promise<DocumentStore & { refresh(): Promise<void> }> {
  const checkEveryMs = options.checkEveryMs ?? 1000;
  let current = await loadSnapshot(dir);
  let lastCheck = Date.now();
  let pending: Promise<void> | null = null;

  const refresh = async () => {
    const identity = await identityOf(join(dir, LEDGER_JSON)).catch(() => null);
    if (identity === null || identity === current.identity) return;
    try {
      current = await loadSnapshot(dir);
      options.onReload?.(`dist: loaded build of ${current.generatedAt} (${current.documents.size} documents)`);
    } catch (error) {
      // Mid-swap: keep serving the previous build; the next check tries again.
      options.onReload?.(`dist: kept previous build: ${(error as Error).message}`);
    }
  };

  const maybeRefresh = async () => {
    if (Date.now() - lastCheck < checkEveryMs) return;
    lastCheck = Date.now();
    pending ??= refresh().finally(() => { pending = null; });
    await pending;
  };

  return {
    async get(path) {
      await maybeRefresh();
      return current.documents.get(path) ?? null;
    },
    async generatedAt() {
      await maybeRefresh();
      return current.generatedAt;
    },
    refresh: async () => {
      lastCheck = Date.now();
      await refresh();
    },
  };
}
