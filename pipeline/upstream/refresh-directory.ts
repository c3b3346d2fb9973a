// The fetcher for a signature-directory row of sources.yaml: the same fetchUpstream as the
// prefix lists, under the Web Bot Auth protocol draft's discovery rules (only a 200 counts,
// redirects are never followed) and, for the directory's own URL, public addresses only: a
// directory's host is the agent operator's, and nothing it resolves to may reach inside.
import { acceptDirectory, DIRECTORY_MEDIA_TYPE, DIRECTORY_SIGNATURE_HEADERS, MAX_DIRECTORY_RESPONSE_BYTES, type DirectoryEntry } from './directory.ts';
import { fetchUpstream, type FetchOptions } from './fetch.ts';

export interface DirectoryRefreshOptions {
  now: string;
  /**
   * Fetch from here instead of the directory's URL (a local mirror or a test server). Like
   * --upstream-base for the lists, an address the maintainer configured is trusted as given.
   */
  fetchUrl?: string;
  fetch?: Omit<FetchOptions, 'validators' | 'maxRedirects' | 'publicOnly' | 'keepHeaders' | 'accept'>;
}

export async function refreshDirectory(
  source: { id: string; url: string },
  previous: DirectoryEntry | undefined,
  options: DirectoryRefreshOptions,
): Promise<DirectoryEntry> {
  const outcome = await fetchUpstream(options.fetchUrl ?? source.url, {
    maxBytes: MAX_DIRECTORY_RESPONSE_BYTES,
    ...options.fetch,
    maxRedirects: 0,
    publicOnly: options.fetchUrl === undefined,
    keepHeaders: DIRECTORY_SIGNATURE_HEADERS,
    accept: DIRECTORY_MEDIA_TYPE,
  });
  return acceptDirectory(previous, source, outcome, options.now);
}
