// How the index stands against the peers' AI list: which names it places, which it leaves out
// (records/excluded.yaml) and which it neither places nor explains. Pure; shared by the record
// check, /data/coverage.json and the tests.

import type { CrawlerRecord, ExcludedName } from './types.ts';

/** A crawler record or its published view: both carry these fields under these names. */
interface Named {
  readonly robots_token: string | null;
  readonly name: string;
  readonly user_agent_substring: string | null;
  readonly honoured_tokens?: readonly { token: string }[] | undefined;
  readonly aliases?: readonly { name: string }[] | undefined;
}

/**
 * Every name a crawler answers to, lower-cased (robots.txt compares tokens ignoring case): its
 * token, its name, the User-Agent name of a crawler with no token, the retired tokens it
 * honours and the aliases sites write for it. The peer check and /data/crosswalk.json both place
 * a peer's name by it.
 */
export function namesOf(crawler: Named): string[] {
  return [
    crawler.robots_token,
    crawler.name,
    crawler.user_agent_substring,
    ...(crawler.honoured_tokens ?? []).map((h) => h.token),
    ...(crawler.aliases ?? []).map((a) => a.name),
  ].flatMap((name) => (name === null ? [] : [name.toLowerCase()]));
}

function placedNames(crawlers: readonly CrawlerRecord[]): Set<string> {
  return new Set(crawlers.flatMap(namesOf));
}

export interface PeerStanding {
  total: number;
  placed: string[];
  excluded: ExcludedName[];
  /** Peer names neither placed nor excluded. */
  unaccounted: string[];
  /** Excluded names the index places after all. */
  wronglyExcluded: string[];
  /** Excluded names the peers do not list. */
  notPeers: string[];
  /** Names excluded twice or out of code-unit order. */
  orderProblems: string[];
}

export function peerStanding(peerNames: readonly string[], crawlers: readonly CrawlerRecord[], excluded: readonly ExcludedName[]): PeerStanding {
  const placed = placedNames(crawlers);
  const listed = new Set(excluded.map((e) => e.name));
  const peers = new Set(peerNames);
  return {
    total: peerNames.length,
    placed: peerNames.filter((name) => placed.has(name.toLowerCase())),
    excluded: excluded.filter((e) => peers.has(e.name) && !placed.has(e.name.toLowerCase())),
    unaccounted: peerNames.filter((name) => !placed.has(name.toLowerCase()) && !listed.has(name)),
    wronglyExcluded: excluded.filter((e) => placed.has(e.name.toLowerCase())).map((e) => e.name),
    notPeers: excluded.filter((e) => !peers.has(e.name)).map((e) => e.name),
    orderProblems: orderProblems(excluded),
  };
}

function orderProblems(list: readonly ExcludedName[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  list.forEach((e, i) => {
    if (seen.has(e.name)) problems.push(`duplicate: ${e.name}`);
    seen.add(e.name);
    const previous = list[i - 1];
    if (previous !== undefined && !(previous.name < e.name) && previous.name !== e.name) problems.push(`out of order: ${previous.name} before ${e.name}`);
  });
  return problems;
}
