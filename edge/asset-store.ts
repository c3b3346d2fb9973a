import type { DocumentStore, StoredDocument } from '../pipeline/http/store.ts';
import type { Ledger, LedgerEntry } from '../pipeline/ledger/ledger.ts';
import { HOST_RULE_FILES } from '../pipeline/render/host-rules.ts';
import { contentTypeOf, href } from '../pipeline/paths.ts';
import { etagOfWeb } from '../pipeline/util/etag-rule.ts';

// The DocumentStore of a Worker: dist/ uploaded as its static assets, read through the assets
// binding. The ledger (dist/documents.json) says which paths are documents and gives each its
// type, ETag and Last-Modified, as the Node snapshot takes them; the bytes are fetched on first
// use and kept for the isolate's life. A deployment swaps the assets and the code together, so
// the ledger and the files always belong to one build, and the bytes need no re-hashing here.

/** What a Workers assets binding offers (a Fetcher); declared here so the code needs no Workers types package. */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

// The binding answers any host name; the path is what selects the file.
const ASSET_ORIGIN = 'https://assets.invalid';

const LEDGER_PATHS = [href('documents'), href('documents_txt')];

export class AssetStore implements DocumentStore {
  private ledger: Promise<{ generatedAt: string; entries: Map<string, LedgerEntry> }> | null = null;
  private readonly documents = new Map<string, Promise<StoredDocument>>();
  // A plain field, not a parameter property: the project keeps to syntax Node can strip (erasableSyntaxOnly).
  private readonly assets: AssetsBinding;

  constructor(assets: AssetsBinding) {
    this.assets = assets;
  }

  async get(path: string): Promise<StoredDocument | null> {
    const { entries, generatedAt } = await this.index();
    const entry = entries.get(path);
    // Cloudflare reads _headers and _redirects as its own settings and keeps them out of the assets.
    if ((entry === undefined && !LEDGER_PATHS.includes(path)) || HOST_RULE_FILES.includes(path)) return null;
    let document = this.documents.get(path);
    if (document === undefined) {
      document = this.load(path, entry, generatedAt);
      this.documents.set(path, document);
      // A failed read is not remembered: the next request tries again.
      document.catch(() => this.documents.delete(path));
    }
    return document;
  }

  async generatedAt(): Promise<string> {
    return (await this.index()).generatedAt;
  }

  private index() {
    if (this.ledger === null) {
      const reading = this.bytes(href('documents')).then((bytes) => {
        const ledger = JSON.parse(new TextDecoder().decode(bytes)) as Ledger;
        return { generatedAt: ledger.generated_at, entries: new Map(ledger.documents.map((entry) => [entry.path, entry])) };
      });
      this.ledger = reading;
      reading.catch(() => {
        this.ledger = null;
      });
    }
    return this.ledger;
  }

  private async load(path: string, entry: LedgerEntry | undefined, generatedAt: string): Promise<StoredDocument> {
    const bytes = await this.bytes(path);
    // The ledger describes every file but itself, so its own validators are computed, as Node does.
    if (entry === undefined) return { path, bytes, type: contentTypeOf(path), etag: await etagOfWeb(bytes), lastModified: generatedAt };
    return { path, bytes, type: entry.type, etag: entry.file_etag ?? entry.etag ?? (await etagOfWeb(bytes)), lastModified: entry.last_modified };
  }

  private async bytes(path: string): Promise<Uint8Array<ArrayBuffer>> {
    const response = await this.assets.fetch(new Request(`${ASSET_ORIGIN}${path}`));
    // A file the ledger lists but the assets lack is a broken deployment, not a 404 to hand a client.
    if (response.status !== 200) throw new Error(`assets: ${path} answered ${response.status}; deploy dist/ and the Worker together`);
    return new Uint8Array(await response.arrayBuffer());
  }
}
