// Which non-crawler client a header's default User-Agent names (curl, python-requests, an uptime
// monitor...). Consulted only when no crawler matches: a crawler built on a library often keeps
// the library's name in its header, and the crawler is the better answer.

import { foldAscii } from '../../util/ascii.ts';
import { compareText } from '../../util/compare.ts';
import { buildMatcher, findAll, type SubstringMatcher } from './aho-corasick.ts';

/** A client as /data/clients.json publishes it. */
export interface ClientEntry {
  id: string;
  name: string;
  kind: string;
  kind_label: string;
  maker: string;
  user_agent_substring: string;
  user_agent_example: string;
  what_it_is: string;
  citation: { url: string; publisher: string; kind: string; retrieved: string; note: string | null };
}

export interface ClientMatch {
  id: string;
  name: string;
  kind: string;
  kind_label: string;
  maker: string;
  what_it_is: string;
  matched_substring: string;
  citation: ClientEntry['citation'];
  note: string;
}

export interface ClientMatcher {
  readonly matcher: SubstringMatcher;
  /** By matcher pattern index. */
  readonly entries: readonly ClientEntry[];
}

export function buildClientMatcher(clients: readonly ClientEntry[]): ClientMatcher {
  const entries = [...clients].sort((a, b) => compareText(a.id, b.id));
  return { matcher: buildMatcher(entries.map((c) => foldAscii(c.user_agent_substring))), entries };
}

/** The longest matching substring wins (Apache-HttpClient/ over the Java/ it carries), then the earliest, then the smaller id. */
export function matchClient(clients: ClientMatcher, userAgent: string): ClientMatch | null {
  let best: { entry: ClientEntry; start: number } | null = null;
  for (const { pattern, start } of findAll(clients.matcher, foldAscii(userAgent))) {
    const entry = clients.entries[pattern]!;
    if (
      best === null ||
      entry.user_agent_substring.length > best.entry.user_agent_substring.length ||
      (entry.user_agent_substring.length === best.entry.user_agent_substring.length && start < best.start)
    ) {
      best = { entry, start };
    }
  }
  if (best === null) return null;
  const { entry } = best;
  return {
    id: entry.id,
    name: entry.name,
    kind: entry.kind,
    kind_label: entry.kind_label,
    maker: entry.maker,
    what_it_is: entry.what_it_is,
    matched_substring: entry.user_agent_substring,
    citation: entry.citation,
    note: `Not a crawler of one operator: the header contains "${entry.user_agent_substring}", the default User-Agent of ${entry.name} (${entry.kind_label.toLowerCase()}). Any program built on it, or any client at all, can send this header; it says which software made the request, not who ran it.`,
  };
}
