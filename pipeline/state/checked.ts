// state/checked.json: when each prefix list was last fetched and accepted, whether or not it
// changed. The mirror entries (state/mirror/) are rewritten only when what they publish
// changes, so their times say when a list last changed; this one small file is what a quiet
// refresh rewrites, so that /status.json can tell a list checked an hour ago from one whose
// refresh stopped running (docs/API.md §2.3, "last_checked").

import { readStateJson, restoreFromGit } from './state-file.ts';
import { isRecord } from '../util/guards.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import { readTextIfExists } from '../util/read-if-exists.ts';
import { writeFileAtomic } from '../util/atomic-file.ts';
import { compareText } from '../util/compare.ts';

/** Source id → ISO 8601 time of its last accepted fetch. */
export type CheckedTimes = ReadonlyMap<string, string>;

function isCheckedFile(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** Reads state/checked.json; a missing file means no refresh has recorded a check yet. */
export async function readCheckedTimes(path: string): Promise<CheckedTimes> {
  const value = await readStateJson(path, {
    expected: 'an object mapping source ids to the time of their last accepted fetch',
    is: isCheckedFile,
    remedy: restoreFromGit(path, 'delete it: the next refresh writes it again'),
  });
  return new Map(Object.entries(value ?? {}));
}

/** `times` with `ids` checked at `now`; sources no longer listed in `known` are dropped. */
export function recordChecks(times: CheckedTimes, ids: readonly string[], now: string, known: readonly string[]): Map<string, string> {
  const next = new Map([...times].filter(([id]) => known.includes(id)));
  for (const id of ids) next.set(id, now);
  return new Map([...next].sort(([a], [b]) => compareText(a, b)));
}

/** Writes the file only when its bytes change. */
export async function writeCheckedTimes(path: string, times: CheckedTimes): Promise<boolean> {
  const text = canonicalJson(Object.fromEntries(times));
  if ((await readTextIfExists(path)) === text) return false;
  await writeFileAtomic(path, text);
  return true;
}
