import { peerStanding } from '../peers.ts';
import type { Problem, RecordSet } from '../types.ts';

const EXCLUDED_FILE = 'records/excluded.yaml';

/** Every name of the peers' AI list is placed by a record or excluded with a reason, and only those are excluded. */
export function checkPeers(records: RecordSet): Problem[] {
  const standing = peerStanding(records.peers.names, records.crawlers, records.excluded);
  return [
    ...standing.unaccounted.map((name) => ({
      file: EXCLUDED_FILE,
      path: '/',
      message: `"${name}" is in the peers' AI list but no record places it: index it, add it as an alias of the crawler it means, or exclude it with a reason`,
    })),
    ...standing.wronglyExcluded.map((name) => ({
      file: EXCLUDED_FILE,
      path: '/',
      message: `"${name}" is excluded, but a crawler record places it: remove the entry`,
    })),
    ...standing.notPeers.map((name) => ({
      file: EXCLUDED_FILE,
      path: '/',
      message: `"${name}" is not in the peers' AI list (records/peers.yaml): only peer names are excluded`,
    })),
    ...standing.orderProblems.map((problem) => ({ file: EXCLUDED_FILE, path: '/', message: `${problem}; names are listed once, sorted in code-unit order` })),
  ];
}
