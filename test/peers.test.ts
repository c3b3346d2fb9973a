import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { describeErrors, validatorFor } from '../pipeline/schema/ajv.ts';
import { REPO } from './support/project.ts';

// records/excluded.yaml accounts for every name in the peers' AI list (ai.robots.txt) that the
// index does not carry. A name counts as indexed when it equals a crawler record's robots_token,
// ignoring case, as robots.txt matching does. Each check runs on the real data and on a small
// hand-made case that proves it can fail.

interface Excluded {
  name: string;
  reason: string;
  note: string;
}

const EXCLUDED_FILE = join(REPO, 'records', 'excluded.yaml');
const CRAWLERS_DIR = join(REPO, 'records', 'crawlers');
// A copy of the peers' list kept in the repository; test/fixtures/reference/README.md names its source and licence.
const PEERS_FILE = join(REPO, 'test', 'fixtures', 'reference', 'peers', 'ai-robots-txt-robots.json');

const excluded = parse(readFileSync(EXCLUDED_FILE, 'utf8')) as Excluded[];
const crawlers = readdirSync(CRAWLERS_DIR)
  .filter((name) => name.endsWith('.yaml'))
  .map(
    (name) =>
      parse(readFileSync(join(CRAWLERS_DIR, name), 'utf8')) as {
        slug: string;
        name: string;
        robots_token: string | null;
        user_agent_substring: string | null;
        honoured_tokens?: { token: string }[];
        aliases?: { name: string }[];
      },
  );
// A crawler is indexed under its token, the retired tokens it honours, and its name (a crawler with
// no robots.txt token, such as ChatGPT agent, is known by name only).
const tokens = new Set(
  crawlers.flatMap((c) =>
    [c.robots_token, c.user_agent_substring, c.name, ...(c.honoured_tokens ?? []).map((h) => h.token), ...(c.aliases ?? []).map((a) => a.name)].flatMap(
      (name) => (name === null ? [] : [name.toLowerCase()]),
    ),
  ),
);
const peerNames = (): string[] => Object.keys(JSON.parse(readFileSync(PEERS_FILE, 'utf8')) as Record<string, unknown>);

const isIndexed = (name: string, indexed: ReadonlySet<string>) => indexed.has(name.toLowerCase());

/** Peer names that are neither indexed nor listed in excluded.yaml. */
function unaccounted(peers: readonly string[], indexed: ReadonlySet<string>, list: readonly Excluded[]): string[] {
  const listed = new Set(list.map((e) => e.name));
  return peers.filter((name) => !isIndexed(name, indexed) && !listed.has(name));
}

/** Excluded names that a crawler record carries after all. */
function wronglyExcluded(list: readonly Excluded[], indexed: ReadonlySet<string>): string[] {
  return list.filter((e) => isIndexed(e.name, indexed)).map((e) => e.name);
}

/** Names listed twice, and the first name out of code-unit order. */
function orderProblems(list: readonly Excluded[]): string[] {
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

const entry = (name: string, reason = 'no-evidence'): Excluded => ({ name, reason, note: 'A hand-made entry for this test.' });

test('excluded.yaml matches its schema', () => {
  const validate = validatorFor('records/excluded.schema.json');
  assert.ok(validate(excluded), JSON.stringify(describeErrors(validate.errors)));
});

test('the schema rejects an unknown reason, a missing note and an extra field', () => {
  const validate = validatorFor('records/excluded.schema.json');
  assert.equal(validate([{ name: 'X', reason: 'gone', note: 'A hand-made entry for this test.' }]), false);
  assert.equal(validate([{ name: 'X', reason: 'defunct', note: 'A retired crawler is indexed, not excluded.' }]), false);
  assert.equal(validate([{ name: 'X', reason: 'no-evidence' }]), false);
  assert.equal(validate([{ ...entry('X'), extra: true }]), false);
  // A duplicate spelling is an alias in the crawler's record now, not an exclusion.
  assert.equal(validate([entry('X', 'merged-into:gptbot')]), false);
  assert.ok(validate([entry('X', 'not-a-crawler')]));
});

test('every peer name is indexed or excluded, and every excluded name is a peer name', () => {
  const peers = peerNames();
  assert.deepEqual(unaccounted(peers, tokens, excluded), []);
  const known = new Set(peers);
  assert.deepEqual(
    excluded.filter((e) => !known.has(e.name)).map((e) => e.name),
    [],
  );
});

test('unaccounted: a peer name missing from both the index and the list is reported', () => {
  const indexed = new Set(['gptbot']);
  assert.deepEqual(unaccounted(['GPTBot', 'gptbot', 'NewBot', 'OldBot'], indexed, [entry('OldBot')]), ['NewBot']);
  assert.deepEqual(unaccounted(['GPTBOT'], indexed, []), [], 'indexing ignores case');
  assert.deepEqual(unaccounted(['oldbot'], indexed, [entry('OldBot')]), ['oldbot'], 'the list must spell the name as the peers do');
});

test('no excluded name is indexed', () => {
  assert.deepEqual(wronglyExcluded(excluded, tokens), []);
});

test('wronglyExcluded: an excluded name that a record carries, in any case, is reported', () => {
  const indexed = new Set(['gptbot', 'meta-externalagent']);
  assert.deepEqual(wronglyExcluded([entry('Meta-ExternalAgent'), entry('NewBot'), entry('GPTBot')], indexed), ['Meta-ExternalAgent', 'GPTBot']);
});

test('excluded.yaml lists each name once, sorted by name in code-unit order', () => {
  assert.deepEqual(orderProblems(excluded), []);
});

test('orderProblems: a duplicate and an out-of-order name are reported', () => {
  assert.deepEqual(orderProblems([entry('B'), entry('A'), entry('A')]), ['out of order: B before A', 'duplicate: A']);
  assert.deepEqual(orderProblems([entry('Z'), entry('a')]), [], 'upper case sorts before lower case');
});
