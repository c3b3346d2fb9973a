// The index's mirror of key directories, as the verifier reads it: which mirrored directory a
// Signature-Agent names. An agent names its origin (the directory type, the default) or, in
// older drafts, the directory URL itself; either way the directory is the one on that origin,
// or the one whose documented Signature-Agent is exactly that URL.
import type { MirroredDirectory } from './verify.ts';

export interface MirroredAgent extends MirroredDirectory {
  signature_agent: string;
}

export function findMirroredDirectory(agents: readonly MirroredAgent[], agentUrl: string): MirroredDirectory | null {
  const sent = parse(agentUrl);
  if (sent === null) return null;
  const byAgent = agents.find((a) => parse(a.signature_agent)?.href === sent.href);
  if (byAgent !== undefined) return byAgent;
  // A bare origin or the directory URL itself, never another path on the origin: a jwks_uri or
  // cimd document elsewhere on the host is not this directory.
  return (
    agents.find((a) => {
      const directory = parse(a.directory_url);
      return directory !== null && directory.origin === sent.origin && (sent.pathname === '/' || sent.href === directory.href);
    }) ?? null
  );
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    // A value that is no URL names no directory.
    return null;
  }
}
