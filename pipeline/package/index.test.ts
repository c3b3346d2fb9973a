import { strict as assert } from 'node:assert';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { builtMini } from '../../test/support/built-mini.ts';
import { type CrawlerIndex, openIndex, ToolInputError } from './index.ts';

// The functions a program imports, on the committed dist/ (the one the package ships): each
// answers as its endpoint does, and a refused input throws with the field and the accepted form.

let index: CrawlerIndex;
before(async () => {
  index = await openIndex();
});

const ROBOTS_TXT = 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisalow: /private\n';

test('classify names the crawler a User-Agent header belongs to', async () => {
  const answer = await index.classify('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)');
  assert.equal(answer.matched, true);
  assert.equal(answer.crawler?.slug, 'gptbot');
});

test('allowed, auditAiAccess and lint read a robots.txt as the endpoints do', async () => {
  const paths = await index.allowed(ROBOTS_TXT, { userAgent: 'GPTBot', paths: ['/', '/a'] });
  assert.deepEqual(
    paths.results.map((r) => [r.path, r.allowed]),
    [
      ['/', false],
      ['/a', false],
    ],
  );
  const audit = await index.auditAiAccess(ROBOTS_TXT, { path: '/' });
  assert.ok(audit.blocked.some((crawler) => crawler.slug === 'gptbot'));
  const lint = await index.lint(ROBOTS_TXT);
  assert.ok(
    lint.findings.some((finding) => finding.line === 5 && /Disalow/.test(finding.text ?? '')),
    JSON.stringify(lint.findings),
  );
});

test('verify judges addresses against the shipped mirror of the operators’ lists', async () => {
  const answer = await index.verify(['66.249.66.1', 'nonsense'], { userAgent: 'Googlebot' });
  assert.deepEqual(
    answer.results.map((r) => (r.valid ? r.verdict : 'invalid')),
    ['genuine', 'invalid'],
  );
});

test('an input a tool refuses throws ToolInputError naming the field and the accepted form', async () => {
  const refused = await index.verify([]).then(
    () => null,
    (error: unknown) => error,
  );
  assert.ok(refused instanceof ToolInputError, String(refused));
  assert.equal(refused.field, 'ip');
  assert.match(refused.accepted, /IPv4 or IPv6/);
});

test('a folder without a build is refused with what it lacks', async () => {
  await assert.rejects(openIndex({ dist: '/nonexistent/dist' }), /\/nonexistent\/dist holds no build \(no documents\.json\)/);
});

test('it reads only the documents the tools read, each still checked against the ledger', async (t) => {
  const project = await builtMini();
  t.after(() => project.dispose());
  const dist = join(project.root, 'dist');
  // A page the tools never read, changed on disk, does not stop it: it is not read at all.
  await appendFile(join(dist, 'index.html'), 'changed after the build');
  const answer = await (await openIndex({ dist })).classify('GPTBot/1.2');
  assert.equal(answer.matched, true);
  // A document they do read, changed on disk, is refused as the server refuses it.
  await appendFile(join(dist, 'data', 'agents.json'), ' ');
  await assert.rejects(openIndex({ dist }), /data\/agents\.json does not match the ledger/);
});
