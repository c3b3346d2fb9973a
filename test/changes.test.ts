import { strict as assert } from 'node:assert';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SimpleGit } from 'simple-git';
import { build } from '../pipeline/publish/build.ts';
import type { EventLog } from '../pipeline/changes/types.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { serveTree } from './support/served.ts';
import { commitAll, initRepo } from './support/git.ts';
import { raw } from './support/http.ts';
import { builtMini } from './support/built-mini.ts';

let project: Awaited<ReturnType<typeof builtMini>>;
let git: SimpleGit;
let server: RunningServer;
const events = async () => JSON.parse(await readFile(join(project.root, 'state', 'events.json'), 'utf8')) as EventLog;
const kinds = (log: EventLog, after = 0) =>
  log.events.filter((e) => e.cursor > after).map((e) => `${e.kind} ${e.subject.id}${e.fields ? ` [${e.fields.join(',')}]` : ''}`);
const edit = async (slug: string, from: string, to: string) => {
  const file = join(project.root, 'records', 'crawlers', `${slug}.yaml`);
  await writeFile(file, (await readFile(file, 'utf8')).replace(from, to));
};

before(async () => {
  project = await builtMini();
  git = await initRepo(project.root);
  // The change feed calls no tool: no tool threads (each loads the pipeline and the tools' data).
  server = await serveTree(project.root);
});
after(async () => {
  await server.close();
  await project.dispose();
});

describe('change events from diffs against HEAD in a real git repository', () => {
  test('a built but uncommitted edit is one event, however often the build runs (crash before commit)', async () => {
    await edit('mj12bot', 'name: MJ12bot', 'name: MJ12bot crawler');
    await build({ root: project.root, now: '2026-01-02T00:00:00Z' });
    const first = await events();
    // A rebuild on the same base takes the same path however many come before it: one proves it.
    await build({ root: project.root, now: '2026-01-03T00:00:00Z' });
    const again = await events();
    assert.deepEqual(kinds(again), ['crawler.edited mj12bot [name]']);
    assert.deepEqual(again, first, 'same base: the batch is replaced, not appended, and keeps its time');
    await commitAll(git, 'edit mj12bot');
  });

  test('after the commit, the same tree yields no new event; later commits add their own', async () => {
    await build({ root: project.root, now: '2026-01-05T00:00:00Z' });
    assert.equal((await events()).head, 1);

    // A later commit withdraws one record and edits another: its own events, after the first's.
    await rm(join(project.root, 'records', 'crawlers', 'mj12bot.yaml'));
    await edit('gptbot', 'category: ai-training', 'category: dataset');
    await edit('gptbot', 'respects_robots_txt: documented', 'respects_robots_txt: undocumented');
    await build({ root: project.root, now: '2026-01-07T00:00:00Z' });
    await commitAll(git, 'withdraw mj12bot, recategorise gptbot');
    const log = await events();
    // One commit's events come in the diff's order (edits before withdrawals); each commit's
    // after the one before it (the cursors below, and the next test's commit).
    assert.deepEqual(kinds(log, 1), [
      'crawler.edited gptbot [category,category_label,respects_robots_txt,respects_robots_txt_label]',
      'crawler.withdrawn mj12bot',
    ]);
    assert.deepEqual(
      log.events.map((e) => e.cursor),
      [1, 2, 3],
      'cursors are consecutive',
    );
  });

  test('a record added in a later commit is crawler.added', async () => {
    const source = await readFile(join(project.root, 'records', 'crawlers', 'googlebot.yaml'), 'utf8');
    await writeFile(
      join(project.root, 'records', 'crawlers', 'googlebot-clone.yaml'),
      source
        .replace('slug: googlebot', 'slug: googlebot-clone')
        .replace('robots_token: Googlebot', 'robots_token: Googlebot-Clone')
        .replace('user_agent_substring: Googlebot/', 'user_agent_substring: Googlebot-Clone/')
        .replace('compatible; Googlebot/2.1', 'compatible; Googlebot-Clone/2.1')
        .replace(/variants:\n( {2}.*\n)+/, '')
        .replace(/verification:\n( {2}.*\n)+/, 'verification:\n  - method: none\n')
        .replace(', verification, what_it_is]', ', what_it_is]'),
    );
    await build({ root: project.root, now: '2026-01-08T00:00:00Z' });
    await commitAll(git, 'add clone');
    assert.deepEqual(kinds(await events(), 3), ['crawler.added googlebot-clone']);
  });
});

describe('GET /changes.json over a socket', () => {
  const validate = validatorFor('outputs/changes.schema.json');

  test('no parameters: the static dist/changes.json naming this server (docs/API.md §1.3), with ETag, Last-Modified and X-Cursor', async () => {
    await server.refresh();
    const response = await raw(server.url, '/changes.json');
    assert.equal(response.status, 200);
    const stored = await readFile(join(project.root, 'dist', 'changes.json'), 'utf8');
    assert.ok(stored.includes('https://index.example/crawler/'), 'the stored page names the build base URL');
    assert.equal(response.text, stored.replaceAll('https://index.example', server.url));
    const page = JSON.parse(response.text) as { cursor: number; changes: { observed_at: string }[] };
    assert.ok(validate(page), JSON.stringify(validate.errors));
    assert.equal(response.headers['x-cursor'], String(page.cursor));
    assert.match(response.headers['etag'] ?? '', /^"[0-9a-f]{32}"$/);
    assert.equal(response.headers['last-modified'], new Date(page.changes.at(-1)!.observed_at).toUTCString());
  });

  test('a cursor at the head: empty, up to date, near 2.5 KB; its ETag answers 304', async () => {
    const head = (await events()).head;
    const response = await raw(server.url, `/changes.json?since=${head}`);
    const page = JSON.parse(response.text) as { count: number; up_to_date: boolean; stale_sources: unknown[] };
    assert.deepEqual([page.count, page.up_to_date], [0, true]);
    assert.ok(Array.isArray(page.stale_sources), 'stale_sources is in every response, empty ones too');
    assert.ok(response.body.length <= 2560, `${response.body.length} bytes`);
    const again = await raw(server.url, `/changes.json?since=${head}`, { headers: { 'if-none-match': response.headers['etag']! } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  test('paging follows next until up to date', async () => {
    let next: string | null = '/changes.json?limit=1';
    const cursors: number[] = [];
    while (next) {
      const response = await raw(server.url, next.replace('https://index.example', ''));
      const page = JSON.parse(response.text) as { next: string | null; changes: { cursor: number }[] };
      cursors.push(...page.changes.map((c) => c.cursor));
      next = page.next;
    }
    assert.deepEqual(cursors, [1, 2, 3, 4]);
  });

  test('every bad since or limit → 400 with a JSON error naming the field and the accepted forms', async () => {
    const validateError = validatorFor('outputs/error.schema.json');
    for (const query of ['since=abc', 'since=-1', 'since=2026-99-01', 'since=9999', 'limit=0', 'limit=401', 'limit=x', 'since=1&since=2']) {
      const response = await raw(server.url, `/changes.json?${query}`);
      assert.equal(response.status, 400, query);
      const body = JSON.parse(response.text) as { error: { code: string; field: string; accepted: string } };
      assert.ok(validateError(body), query);
      assert.equal(body.error.code, 'invalid_parameter');
      assert.equal(body.error.field, query.startsWith('limit') ? 'limit' : 'since', query);
      assert.ok(body.error.accepted.length > 10);
    }
  });
});
