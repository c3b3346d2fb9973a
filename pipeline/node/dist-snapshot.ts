import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { etagOf } from '../util/sha256.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { LEDGER_JSON, LEDGER_TXT } from '../ledger/ledger.ts';
import type { DocumentStore, StoredDocument } from '../http/store.ts';
import { contentTypeOf, href } from '../paths.ts';
import { relocateDocuments } from './relocated-snapshot.ts';
import { baseUrlOfIndex } from '../http/served-build.ts';
import { Encoder } from './compress.ts';
import { errnoOf, messageOf } from '../util/errno.ts';
import { inParallel } from '../util/in-parallel.ts';

interface Snapshot {
  identity: string;
  generatedAt: string;
  documents: Map<string, StoredDocument>;
  ledger: Ledger;
}

/**
 * Loads every document listed in dist/documents.json into memory and checks each one's bytes
 * against the ledger's ETag. A tree caught mid-swap or mid-write fails that check, so the
 * snapshot is refused and the previous one keeps serving: a reader never sees half a build.
 */
async function loadSnapshot(dir: string, reads: 'blocking' | 'pooled', only: ReadonlySet<string> | undefined): Promise<Snapshot> {
  const ledgerPath = join(dir, LEDGER_JSON);
  const before = await identityOf(ledgerPath);
  const ledgerBytes = await readFile(ledgerPath);
  let ledger: Ledger;
  try {
    ledger = JSON.parse(ledgerBytes.toString('utf8')) as Ledger;
  } catch (error) {
    throw new Error(`dist snapshot: ${ledgerPath} is not valid JSON (${(error as Error).message}); rebuild with npm run build`);
  }
  const read = reads === 'blocking' ? async (path: string) => readFileSync(path) : readFile;
  const wanted = only === undefined ? ledger.documents : ledger.documents.filter((entry) => only.has(entry.path));
  const loaded = await inParallel(wanted, READS_AT_ONCE, async (entry): Promise<StoredDocument> => {
    const bytes = new Uint8Array(await read(join(dir, entry.path)));
    const etag = etagOf(bytes);
    // A ledger written before pages had live counters has no file_etag; its etag names the file.
    if (etag !== (entry.file_etag ?? entry.etag)) throw new Error(`dist snapshot: ${entry.path} does not match the ledger (the tree is being rewritten)`);
    return { path: entry.path, bytes, type: entry.type, etag, lastModified: entry.last_modified };
  });
  // In the ledger's order, as before: the map's order is the order documents are encoded in.
  const documents = new Map(loaded.map((document) => [document.path, document]));
  // The ledger describes everything but itself, so its own validators are computed here.
  for (const path of [LEDGER_JSON, LEDGER_TXT]) {
    const bytes = path === LEDGER_JSON ? new Uint8Array(ledgerBytes) : new Uint8Array(await readFile(join(dir, path)));
    documents.set(path, { path, bytes, type: contentTypeOf(path), etag: etagOf(bytes), lastModified: ledger.generated_at });
  }
  if ((await identityOf(ledgerPath)) !== before) throw new Error('dist snapshot: the tree changed while it was read');
  return { identity: before, generatedAt: ledger.generated_at, documents, ledger };
}

/**
 * How a build's ~1,300 files are read. Before the server listens nothing waits on the event
 * loop, so they are read synchronously: about 50 ms, where one by one through libuv's thread
 * pool took about 400 ms, most of a cold start (hashing them all is about 20 ms). A reload
 * happens while requests are answered, so its reads go through the pool, this many at once.
 */
const READS_AT_ONCE = 32;

/** The snapshot as served at `to`: relocated when its build was made for another base URL. */
async function relocated(snapshot: Snapshot, to: SnapshotStoreOptions['relocateTo'], log: (line: string) => void): Promise<Snapshot> {
  if (to === undefined) return snapshot;
  const index = snapshot.documents.get(href('site_index'));
  const from = index === undefined ? null : baseUrlOfIndex(index);
  if (from === null) {
    log(`dist: ${href('site_index')} names no base URL (home); documents are served as built, not relocated to ${to.baseUrl}`);
    return snapshot;
  }
  if (from === to.baseUrl) return snapshot;
  const { documents, ledger } = await relocateDocuments(snapshot.documents, snapshot.ledger, { from, to: to.baseUrl, siteName: to.siteName });
  const rewritten = [...documents].filter(([path, document]) => document !== snapshot.documents.get(path)).length;
  log(`dist: built for ${from}, served for ${to.baseUrl}: ${rewritten} of ${documents.size} documents name it instead`);
  return { ...snapshot, documents, ledger };
}

async function identityOf(path: string): Promise<string> {
  const info = await stat(path);
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

export interface SnapshotStoreOptions {
  /** How often a request may trigger a look at dist/ for a new build. */
  checkEveryMs?: number;
  onReload?: (message: string) => void;
  /** Encode documents with brotli and gzip in the background (default true). */
  compress?: boolean;
  /** Runs on a freshly loaded snapshot before it is swapped in (e.g. to build the tools' data). */
  prepare?: (store: DocumentStore) => Promise<void>;
  /**
   * The base URL the server names (BASE_URL): a build made for another one is served with its
   * documents and ledger relocated to this one (relocated-snapshot.ts). `siteName` heads the
   * text ledger, as the build writes it.
   */
  relocateTo?: { baseUrl: string; siteName: string };
  /**
   * Only these documents of the ledger are read (and the ledger): for a reader that needs a few,
   * as the tools on the command line and in a program do (http/tool-data.ts TOOL_SNAPSHOT_PATHS).
   */
  only?: ReadonlySet<string>;
}

export interface SnapshotStore extends DocumentStore {
  peek(path: string): StoredDocument | null;
  /** Looks at dist/ now and swaps in a new build if there is one; resolves when done. */
  refresh(): Promise<void>;
  /** Resolves when the current snapshot's documents have all been encoded (or encoding was stopped). */
  encoded(): Promise<void>;
  /** Stops encoding in the background; documents keep the encodings already made. */
  close(): void;
}

/**
 * A DocumentStore over dist/ that picks up a rebuilt tree without a restart. A request never
 * waits for a reload: it triggers a look (at most every checkEveryMs) and is answered from the
 * snapshot in place; a new build is loaded and verified beside it, then swapped in whole.
 */
export async function snapshotStore(dir: string, options: SnapshotStoreOptions = {}): Promise<SnapshotStore> {
  const checkEveryMs = options.checkEveryMs ?? 1000;
  const log = options.onReload ?? (() => {});
  const encoder = options.compress === false ? null : new Encoder();
  // A relocated snapshot reads the base URL it was built for from the site index, so a reader of a few documents loads that one too.
  const only = options.only !== undefined && options.relocateTo !== undefined ? new Set([...options.only, href('site_index')]) : options.only;
  const load = async (reads: 'blocking' | 'pooled') => relocated(await loadSnapshot(dir, reads, only), options.relocateTo, log);
  let current = await load('blocking');
  let encoding: Promise<void> = Promise.resolve();
  let lastCheck = Date.now();
  let pending: Promise<void> | null = null;

  const storeOf = (snapshot: Snapshot): DocumentStore => ({
    get: async (path) => snapshot.documents.get(path) ?? null,
    generatedAt: async () => snapshot.generatedAt,
  });

  const install = async (snapshot: Snapshot) => {
    if (encoder) {
      for (const document of snapshot.documents.values()) document.encoded = encoder.encodedFor(document);
    }
    await options.prepare?.(storeOf(snapshot));
    current = snapshot;
    if (encoder) {
      encoder.retainOnly(new Set([...snapshot.documents.values()].map((d) => d.etag)));
      encoding = encoder.encodeAll(snapshot.documents.values(), log);
    }
  };

  const reload = async () => {
    const identity = await identityOf(join(dir, LEDGER_JSON)).catch((error: unknown) => {
      // Absent mid-swap: look again later. Anything else is worth a line; the current build keeps serving.
      if (errnoOf(error) !== 'ENOENT') log(`dist: cannot look at ${LEDGER_JSON}: ${messageOf(error)}`);
      return null;
    });
    if (identity === null || identity === current.identity) return;
    try {
      const next = await load('pooled');
      await install(next);
      log(`dist: loaded build of ${current.generatedAt} (${current.documents.size} documents)`);
    } catch (error) {
      // Mid-swap: keep serving the previous build; the next check tries again.
      log(`dist: kept previous build: ${(error as Error).message}`);
    }
  };

  const refresh = () => {
    pending ??= reload().finally(() => {
      pending = null;
    });
    return pending;
  };

  const poll = () => {
    if (Date.now() - lastCheck < checkEveryMs) return;
    lastCheck = Date.now();
    void refresh();
  };

  await install(current);
  return {
    async get(path) {
      poll();
      return current.documents.get(path) ?? null;
    },
    peek(path) {
      poll();
      return current.documents.get(path) ?? null;
    },
    async generatedAt() {
      return current.generatedAt;
    },
    async refresh() {
      lastCheck = Date.now();
      // A look already under way may have started before the caller's change: look again after it.
      if (pending) await pending;
      await refresh();
    },
    encoded: () => encoding,
    close: () => encoder?.stop(),
  };
}
