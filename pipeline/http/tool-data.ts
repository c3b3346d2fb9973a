import { buildToolData, TOOL_DOCUMENTS, type ToolDocuments } from '../tools/registry/data.ts';
import type { PublishedPolicy, ToolData } from '../tools/registry/types.ts';
import { POLICY_IDS } from '../records/types.ts';
import type { DocumentStore, StoredDocument } from './store.ts';
import { href } from '../paths.ts';
import { DIALECTS } from '../render/server/dialects.ts';

/** The published documents the tools read, named by their ETags: what a tool thread is sent. */
export interface ToolSnapshot {
  key: string;
  bytes: Uint8Array[];
}

// Each policy as published: its JSON, the robots.txt fragment and the server configs a tool
// quotes as they are, then the accuracy table the configs' figures come from.
const CONFIGS = POLICY_IDS.flatMap((id) => DIALECTS.map((dialect) => ({ key: `${id} ${dialect.id}`, path: href(dialect.route, id) })));
/** Every document the tools read: a reader that only runs tools loads these alone. */
export const TOOL_SNAPSHOT_PATHS: readonly string[] = [
  ...TOOL_DOCUMENTS,
  ...POLICY_IDS.map((id) => href('policy', id)),
  ...POLICY_IDS.map((id) => href('robots', id)),
  ...CONFIGS.map((c) => c.path),
  href('policy_accuracy'),
];

/**
 * The tools' documents as served, named by their ETags. Named `built`, the key is the ETags of
 * the files as the build wrote them, where the server serves them relocated to another base URL:
 * what the request log's booking is built from reads no URL of this service, so a relocated copy
 * of a build books as the build itself does, and the log's thread, which read the build's files
 * as it started, need not build it again (node/threaded-log.ts).
 */
export async function toolSnapshotFrom(store: DocumentStore, name: 'served' | 'built' = 'served'): Promise<ToolSnapshot | null> {
  const documents = await Promise.all(TOOL_SNAPSHOT_PATHS.map((path) => store.get(path)));
  if (documents.some((d) => d === null)) return null;
  const tagOf = (d: StoredDocument) => (name === 'built' ? (d.builtEtag ?? d.etag) : d.etag);
  return { key: documents.map((d) => tagOf(d!)).join(','), bytes: documents.map((d) => d!.bytes) };
}

let cached: { key: string; data: ToolData } | null = null;
const decoder = new TextDecoder();

/** The tools' view of these documents, built afresh: the classifier, the prefix index and the rest. Pure. */
export function buildToolDataOf(snapshot: ToolSnapshot): ToolData {
  const json = (index: number) => JSON.parse(decoder.decode(snapshot.bytes[index])) as unknown;
  const docs: ToolDocuments = {
    agents: json(0) as ToolDocuments['agents'],
    ipSources: json(1) as ToolDocuments['ipSources'],
    ranges: json(2) as ToolDocuments['ranges'],
    status: json(3) as ToolDocuments['status'],
    clients: json(4) as ToolDocuments['clients'],
    signatureAgents: json(5) as ToolDocuments['signatureAgents'],
    policies: POLICY_IDS.map((_, i) => ({
      ...(json(TOOL_DOCUMENTS.length + i) as Omit<PublishedPolicy, 'fragment'>),
      fragment: decoder.decode(snapshot.bytes[TOOL_DOCUMENTS.length + POLICY_IDS.length + i]),
    })),
    serverConfigs: new Map(CONFIGS.map((c, i) => [c.key, decoder.decode(snapshot.bytes[TOOL_DOCUMENTS.length + 2 * POLICY_IDS.length + i])])),
    accuracy: json(TOOL_SNAPSHOT_PATHS.length - 1) as ToolDocuments['accuracy'],
  };
  return buildToolData(docs);
}

/**
 * The tools' view of the published tree, built once per set of document ETags: a rebuilt
 * dist/ gives a new classifier and prefix index on the next call, and nothing is parsed twice.
 */
function toolDataOf(snapshot: ToolSnapshot): ToolData {
  if (cached?.key === snapshot.key) return cached.data;
  cached = { key: snapshot.key, data: buildToolDataOf(snapshot) };
  return cached.data;
}

export async function toolDataFrom(store: DocumentStore): Promise<ToolData | null> {
  const snapshot = await toolSnapshotFrom(store);
  return snapshot === null ? null : toolDataOf(snapshot);
}
