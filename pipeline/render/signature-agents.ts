// The mirror of Web Bot Auth key directories, published like the IP lists: one document per
// directory with the keys and the response they came from, and an index. A verifier can use
// the keys as they are; the kept response (body and its Signature headers) is what the protocol
// draft asks of redistributed keys before a request may be attributed to the directory's origin.
import type { DirectoryView, Model } from '../model/model.ts';
import { url } from '../model/model.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { href } from '../paths.ts';

/** Why the keys may not be current, in words a verifier's operator can act on. */
function warning(directory: DirectoryView): string | null {
  const { mirror } = directory;
  if (mirror.state === 'failed')
    return `The last fetch failed (${mirror.error ?? 'unknown error'}); these are the last good keys, from ${mirror.last_success ?? 'an earlier fetch'}.`;
  if (mirror.state === 'never-fetched')
    return `This directory has not been fetched yet; it holds no key. Fetch ${directory.url} yourself, or pass it to verify_signature as directory.`;
  return null;
}

function summary(model: Model, directory: DirectoryView) {
  return {
    id: directory.id,
    operator: directory.operator,
    title: directory.title,
    directory_url: directory.url,
    signature_agent: directory.signature_agent ?? new URL(directory.url).origin,
    crawlers: directory.crawlers.map((slug) => ({ slug, json_url: url(model.site, href('crawler', slug)) })),
    state: directory.mirror.state,
    warning: warning(directory),
    key_count: directory.keys.length,
    keys: directory.keys,
    expiring: directory.keys.filter((k) => k.expires_soon).map((k) => k.thumbprint),
    fetched_at: directory.mirror.last_success,
    last_attempt: directory.mirror.last_attempt,
    last_change: directory.mirror.last_change,
    json_url: directory.endpoint,
  };
}

function directoryFile(model: Model, directory: DirectoryView) {
  const { mirror } = directory;
  return {
    ...summary(model, directory),
    error: mirror.error,
    findings: mirror.findings,
    upstream_sha256: mirror.upstream_sha256,
    response: mirror.response,
  };
}

export function renderSignatureAgents(model: Model): RenderedFile[] {
  return [
    ...model.directories.map(
      (d): RenderedFile => ({ path: href('signature_agent', d.id), kind: 'signature-agent', body: canonicalJson(directoryFile(model, d)) }),
    ),
    {
      path: href('signature_agents'),
      kind: 'signature-agents',
      body: canonicalJson({
        note: 'Keys are mirrored from each agent\u2019s /.well-known/http-message-signatures-directory every refresh; a failed fetch keeps the last good keys. Check a signed request with the verify_signature tool.',
        agents: model.directories.map((d) => summary(model, d)),
      }),
    },
  ];
}
