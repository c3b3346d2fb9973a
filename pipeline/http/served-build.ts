// What the thread that answers requests needs to know of the build it serves, read from small
// documents of that build: the base URL its addresses start with, and a crawler's name. The
// tools' data (the classifier, the prefix index) is built where the tools run, on the tool
// threads (node/tool-pool.ts); building it here held every client for 0.2-0.3 s at the first
// tool call, live page or change-feed page after a start and after each new build
// (docs/API.md §8.1).

import { href } from '../paths.ts';
import { TOOL_SNAPSHOT_PATHS } from './tool-data.ts';
import type { DocumentStore, StoredDocument } from './store.ts';

export interface ServedBuild {
  /** Where the build's documents are published: every address in them starts with it (no trailing slash). */
  baseUrl: string;
}

const decoder = new TextDecoder();

/** A JSON document's top-level string field; null when the document is not JSON or has no such string. */
function stringField(document: StoredDocument, field: string): string | null {
  try {
    const value = (JSON.parse(decoder.decode(document.bytes)) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

// Read once per document object: a snapshot's documents are the same objects for as long as it is served.
const builds = new WeakMap<StoredDocument, ServedBuild | null>();
const names = new WeakMap<StoredDocument, string | null>();

/**
 * The base URL a build was made for, from its site index (`/index.json`): its `home` less the
 * slash, as the build writes it (the base URL and `/`). Null when the index has no such field.
 * The one reading of it: a snapshot relocated to BASE_URL (node/dist-snapshot.ts) and the
 * build served both take it from here.
 */
export function baseUrlOfIndex(index: StoredDocument): string | null {
  const home = stringField(index, 'home');
  return home?.endsWith('/') ? home.slice(0, -1) : null;
}

/**
 * The build being served, where it has every document the tools read; null where it lacks one
 * (the tools then answer not_ready).
 */
export async function servedBuild(store: DocumentStore): Promise<ServedBuild | null> {
  const index = await store.get(href('site_index'));
  if (index === null) return null;
  const known = builds.get(index);
  if (known !== undefined) return known;
  const present = (await Promise.all(TOOL_SNAPSHOT_PATHS.map((path) => store.get(path)))).every((document) => document !== null);
  const baseUrl = baseUrlOfIndex(index);
  const build = present && baseUrl !== null ? { baseUrl } : null;
  builds.set(index, build);
  return build;
}

/** The name of the crawler `slug`, from its own document; null when the build has none. */
export async function crawlerName(store: DocumentStore, slug: string): Promise<string | null> {
  const document = await store.get(href('crawler', slug));
  if (document === null) return null;
  let name = names.get(document);
  if (name === undefined) {
    name = stringField(document, 'name');
    names.set(document, name);
  }
  return name;
}
