// What the build knows about one operator-published prefix list: the last good prefixes and
// the state of the last fetch. Written by the refresh stage into state/mirror/<id>.json; the
// build only reads it, so a build never needs the network.

export type MirrorStateName = 'ok' | 'failed' | 'never-fetched';

export interface MirrorEntry {
  id: string;
  url: string;
  state: MirrorStateName;
  ipv4: string[];
  ipv6: string[];
  upstream_created: string | null;
  upstream_sha256: string | null;
  last_attempt: string | null;
  last_success: string | null;
  last_change: string | null;
  error: string | null;
  findings: string[];
  validators: { etag: string | null; last_modified: string | null };
  via: 'network' | 'upstream-dir' | 'upstream-base' | null;
}

export function neverFetched(id: string, url: string): MirrorEntry {
  return {
    id, url, state: 'never-fetched', ipv4: [], ipv6: [],
    upstream_created: null, upstream_sha256: null,
    last_attempt: null, last_success: null, last_change: null,
    error: null, findings: [], validators: { etag: null, last_modified: null }, via: null,
  };
}
