import type { Model } from '../model/model.ts';
import { CLIENT_KIND_LABELS } from '../model/labels.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';
import type { ClientEntry } from '../tools/classify/clients.ts';

/** The non-crawler clients as /data/clients.json publishes them and the classifier reads them. */
export function clientEntries(model: Model): ClientEntry[] {
  return model.clients.map((c) => ({ ...c, kind_label: CLIENT_KIND_LABELS[c.kind], citation: { ...c.citation, note: c.citation.note ?? null } }));
}

/** The non-crawler clients as the classifier reads them: what an unmatched header most likely is. */
export function renderClients(model: Model): RenderedFile[] {
  const body = {
    count: model.clients.length,
    note: "HTTP clients that are not one operator's crawler. classify-ua names one only when no crawler matches; any program can send these headers, so a match says which software made the request, not who ran it.",
    kinds: CLIENT_KIND_LABELS,
    clients: clientEntries(model),
  };
  return [{ path: href('clients'), kind: 'clients', body: canonicalJson(body) }];
}
