// The one fetcher that every sources.yaml row drives: fetch → parse → normalise → accept.
// The only I/O is fetchUpstream; the decision is acceptList's.

import { acceptList, DEFAULT_ACCEPT_POLICY } from './accept.ts';
import type { AcceptPolicy, MirrorEntry } from './accept.ts';
import { makeAttempt } from './attempt.ts';
import type { SourceRef, Via } from './attempt.ts';
import { fetchUpstream } from './fetch.ts';
import type { FetchOptions } from './fetch.ts';

export interface RefreshOptions {
  /** ISO 8601 time recorded as this attempt's time. */
  now: string;
  /** Fetch from here instead of `source.url` (a local mirror or a test server). */
  fetchUrl?: string;
  via?: Via;
  fetch?: Omit<FetchOptions, 'validators'>;
  policy?: Partial<AcceptPolicy>;
}

export async function refreshSource(source: SourceRef, previous: MirrorEntry | undefined, options: RefreshOptions): Promise<MirrorEntry> {
  // Conditional requests only make sense when we hold a body the validators belong to.
  const validators =
    previous && previous.last_success !== null ? { etag: previous.validators.etag, lastModified: previous.validators.last_modified } : undefined;
  const outcome = await fetchUpstream(options.fetchUrl ?? source.url, {
    ...options.fetch,
    ...(validators ? { validators } : {}),
  });
  const via = options.via ?? (options.fetchUrl ? 'upstream-base' : 'network');
  const attempt = makeAttempt(options.fetchUrl ? { ...source, url: options.fetchUrl } : source, outcome, via);
  // The entry names the configured URL, whatever address served this attempt.
  return { ...acceptList(previous, attempt, options.now, options.policy ?? DEFAULT_ACCEPT_POLICY), url: source.url };
}
