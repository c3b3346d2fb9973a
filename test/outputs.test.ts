import { containsToken } from '../pipeline/tools/classify/token.ts';
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build, type BuildResult } from '../pipeline/publish/build.ts';
import { LEDGER_JSON, LEDGER_TXT, type Ledger } from '../pipeline/ledger/ledger.ts';
import { etagOf } from '../pipeline/util/sha256.ts';
import { LIVE_MARKER } from '../pipeline/site/live.ts';
import type { CrawlerView } from '../pipeline/model/model.ts';
import { SPEC_FIELDS } from '../pipeline/render/data.ts';
import { findRoute, routes } from '../pipeline/routes.ts';
import { describeErrors, validatorFor } from '../pipeline/schema/ajv.ts';
import { BROWSER_USER_AGENTS } from '../pipeline/tools/browser-user-agents.ts';
import { parseCsv } from './support/csv.ts';
import { REPO, readTree, tempProject } from './support/project.ts';
import { POLICY_IDS } from '../pipeline/records/types.ts';

// These tests read the committed dist/: what users download is what is checked.
const dist = await readTree(join(REPO, 'dist'));
const text = (path: string) => {
  const bytes = dist.get(path);
  assert.ok(bytes, `dist${path} exists`);
  return bytes.toString('utf8');
};
const ledger = JSON.parse(text('/documents.json')) as Ledger;
const agents = JSON.parse(text('/data/agents.json')) as {
  count: number;
  crawlers: Omit<CrawlerView, 'citations'>[];
  categories: { id: string; ai: boolean }[];
};

/**
 * The build of the committed records, made once for the file: a dry run against the committed
 * dist/ itself (it reads the ledger there and writes nothing), its files compared with the tree
 * read above in memory instead of over a copy of dist/.
 */
let committedBuild: Promise<BuildResult> | undefined;
function buildCommitted(): Promise<BuildResult> {
  committedBuild ??= (async () => {
    // A copy of records/ and state/ outside git, so that the change log starts from state/ alone
    // whatever this checkout's HEAD holds.
    const project = await tempProject('repo');
    try {
      // At the time of the committed build: later, security.txt would be due for renewal
      // (render/service-terms.ts), which is the cron's job, not a sign of a stale tree.
      return await build({ root: project.root, distDir: join(REPO, 'dist'), now: ledger.generated_at, dryRun: true });
    } finally {
      await project.dispose();
    }
  })();
  return committedBuild;
}

test('the committed dist/ is exactly what the build makes from the committed records', async () => {
  const result = await buildCommitted();
  assert.deepEqual(result.changed, [], 'run `npm run build` and commit dist/');
  // What writeDist checks before it writes nothing: the same paths, each with the same bytes.
  assert.deepEqual(result.files.map((f) => f.path).sort(), [...dist.keys()], 'run `npm run build` and commit dist/');
  const differing = result.files.filter((f) => !Buffer.from(f.bytes).equals(dist.get(f.path)!)).map((f) => f.path);
  assert.deepEqual(differing, [], 'run `npm run build` and commit dist/');
});

// A stored document's route names the module that writes it (`writtenBy`), so a reader goes
// from a URL to its code in one step. Checked here against what the build of the committed
// records renders, so the table cannot go stale.
test('every stored document names the module whose renderer writes it, as the build renders it', async () => {
  const { renderers, files } = await buildCommitted();
  const writers = new Map<string, string>();
  for (const { module, render, paths } of renderers) {
    // The module named is the one that exports the renderer.
    const exports = (await import(pathToFileURL(join(REPO, 'pipeline', module)).href)) as Record<string, unknown>;
    assert.ok(Object.values(exports).includes(render), `${module} exports the renderer the build runs as it`);
    for (const path of paths) writers.set(path, module);
  }
  // The ledger describes the other files, so publish/build.ts writes it last, from ledger/ledger.ts.
  writers.set(LEDGER_JSON, 'ledger/ledger.ts');
  writers.set(LEDGER_TXT, 'ledger/ledger.ts');

  const wrong: string[] = [];
  for (const { path } of files) {
    const route = findRoute(path);
    if (route !== undefined && route.writtenBy !== writers.get(path))
      wrong.push(`${path}: route ${route.key} says ${route.writtenBy}, written by ${writers.get(path)}`);
  }
  assert.deepEqual(wrong, []);
  assert.ok(files.length > 1000, `the build made ${files.length} files`);
});

test('every route of a stored document names its writer; a computed answer names none unless its path is stored too', () => {
  for (const route of routes()) {
    if (route.answer.by === 'document' || route.answer.by === 'agent-card') assert.ok(route.writtenBy, `${route.key} names the module that writes it`);
    else if (route.key !== 'changes') assert.equal(route.writtenBy, undefined, route.key);
  }
});

test('every JSON document in dist/ satisfies its output schema', () => {
  let checked = 0;
  for (const entry of [...ledger.documents, { path: '/documents.json', kind: 'ledger' }]) {
    if (!entry.path.endsWith('.json')) continue;
    const schema = findRoute(entry.path)?.schema;
    assert.ok(schema, `${entry.path} has a route naming its output schema`);
    const validate = validatorFor(`outputs/${schema}.schema.json`);
    assert.ok(validate(JSON.parse(text(entry.path))), `${entry.path}: ${JSON.stringify(describeErrors(validate.errors))}`);
    checked++;
  }
  assert.ok(checked > 100, `checked ${checked} documents`);
});

test('the ledger lists every file with the sha-256 ETag and size of its exact bytes; a page has a null etag and its file_etag instead', () => {
  const listed = new Set(ledger.documents.map((d) => d.path));
  for (const path of dist.keys()) if (path !== '/documents.json' && path !== '/documents.txt') assert.ok(listed.has(path), `${path} is in the ledger`);
  let pages = 0;
  for (const entry of ledger.documents) {
    const bytes = dist.get(entry.path);
    assert.ok(bytes, `${entry.path} exists`);
    if (entry.type.startsWith('text/html')) {
      pages++;
      assert.equal(entry.etag, null, `${entry.path}: the server writes live counters into pages`);
      assert.equal(entry.file_etag, etagOf(bytes), entry.path);
      assert.ok(bytes.toString('utf8').includes(LIVE_MARKER), `${entry.path} has the marker the counters replace`);
    } else {
      assert.equal(entry.etag, etagOf(bytes), entry.path);
      assert.equal(entry.file_etag, null, entry.path);
    }
    assert.equal(entry.bytes, bytes.length, entry.path);
  }
  assert.ok(pages > 250, `${pages} pages`);
  const rows = text('/documents.txt')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  assert.equal(rows.length, ledger.documents.length);
  for (const row of rows) assert.equal(row.split('\t').length, 5, row);
});

test('agents.json holds every crawler with all 23 published fields (docs/API.md §2.1), one file per crawler with the same content and its citations', () => {
  assert.equal(agents.count, agents.crawlers.length);
  for (const crawler of agents.crawlers) {
    for (const field of SPEC_FIELDS) assert.ok(field in crawler, `${crawler.slug}.${field}`);
    assert.ok(!('citations' in crawler), `${crawler.slug}: the bulk list leaves the citations to the crawler's own document`);
    const { citations, ...listed } = JSON.parse(text(`/crawler/${crawler.slug}.json`)) as CrawlerView;
    assert.deepEqual(listed, crawler);
    assert.ok(citations.length > 0, `${crawler.slug} has its citations in its own document`);
    assert.ok(dist.has(`/crawler/${crawler.slug}.html`) && dist.has(`/crawler/${crawler.slug}.md`));
  }
});

test('agents.csv is RFC 4180 with a header row and the same table as agents.json', () => {
  const [header, ...rows] = parseCsv(text('/data/agents.csv'));
  assert.deepEqual(header, [...SPEC_FIELDS]);
  assert.equal(rows.length, agents.crawlers.length);
  rows.forEach((row, index) => {
    const crawler = agents.crawlers[index]!;
    assert.deepEqual(
      row,
      SPEC_FIELDS.map((f) => (crawler[f] === null ? '' : String(crawler[f]))),
    );
  });
});

test('each UA regex compiles, matches every example of its set and no browser', () => {
  const regexes = JSON.parse(text('/data/ua-regex.json')) as { all: string; ai_only: string; by_category: Record<string, string> };
  const ai = new Set(agents.categories.filter((c) => c.ai).map((c) => c.id));
  const sets: [string, string, Omit<CrawlerView, 'citations'>[]][] = [
    ['all', regexes.all, agents.crawlers],
    ['ai_only', regexes.ai_only, agents.crawlers.filter((c) => ai.has(c.category))],
    ...Object.entries(regexes.by_category).map(([id, source]): [string, string, Omit<CrawlerView, 'citations'>[]] => [
      id,
      source,
      agents.crawlers.filter((c) => c.category === id),
    ]),
  ];
  for (const [name, source, members] of sets) {
    const regex = new RegExp(source);
    // A crawler with no substring (ChatGPT agent sends a plain Chrome header) is in no regex by design.
    for (const crawler of members)
      if (crawler.user_agent_example && crawler.user_agent_substring) assert.match(crawler.user_agent_example, regex, `${name} matches ${crawler.slug}`);
    for (const browser of BROWSER_USER_AGENTS) assert.doesNotMatch(browser, regex, `${name} must not match a browser`);
  }
  // The token rule classify-ua and the server configs apply: a substring inside a longer word is no match.
  const all = new RegExp(regexes.all, 'i');
  const substrings = agents.crawlers.flatMap((c) => (c.user_agent_substring ? [c.user_agent_substring] : []));
  for (const header of [
    'Mozilla/5.0 (compatible; Alexabot/1.0)',
    'Mozilla/5.0 (compatible; SomeBot/1.0; +https://commoncrawl.org/faq/)',
    ...agents.crawlers.flatMap((c) => (c.user_agent_example ? [c.user_agent_example] : [])),
  ])
    assert.equal(
      all.test(header),
      substrings.some((s) => containsToken(header, s)),
      `all agrees with the token rule on ${header}`,
    );
  assert.doesNotMatch('Mozilla/5.0 (compatible; Alexabot/1.0)', all);
  const nonAi = agents.crawlers.filter((c) => !ai.has(c.category) && c.user_agent_example && c.user_agent_substring);
  const aiOnly = new RegExp(regexes.ai_only);
  const aiSubstrings = agents.crawlers.filter((c) => ai.has(c.category)).map((c) => c.user_agent_substring);
  for (const crawler of nonAi) {
    // A non-AI crawler's header may still carry an AI crawler's substring only if it really contains it.
    if (!aiSubstrings.some((s) => s && crawler.user_agent_example!.includes(s)))
      assert.doesNotMatch(crawler.user_agent_example!, aiOnly, `ai_only must not match ${crawler.slug}`);
  }
});

test('robots fragments name exactly the crawlers of their policy record, with a dated header', () => {
  for (const policy of POLICY_IDS) {
    const record = JSON.parse(text(`/policy/${policy}.json`)) as { directive: string; crawlers: { robots_token: string }[] };
    const fragment = text(`/robots/${policy}.txt`);
    assert.match(fragment, new RegExp(`^# .*"${policy}".*\\n# Content last changed \\d{4}-\\d{2}-\\d{2}\\. Source: https?://\\S+/policy/${policy}\\.json`));
    const agentsNamed = [...fragment.matchAll(/^User-agent: (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(agentsNamed, record.directive === 'none' ? [] : record.crawlers.map((c) => c.robots_token));
    const rules = [...fragment.matchAll(/^(Allow|Disallow): \/$/gm)].length;
    assert.equal(rules, agentsNamed.length);
  }
});
