import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HtmlValidate, StaticConfigLoader } from 'html-validate';
import { executeTool } from '../pipeline/tools/registry/call.ts';
import { raw } from './support/http.ts';
import { REPO, readTree } from './support/project.ts';
import { serveMini, type ServedMini } from './support/served.ts';
import { publishedToolData } from './support/tool-data.ts';

// Site hygiene: every page is valid HTML (html-validate's recommended rules), also with the
// live counters written in; the service's own robots.txt passes its own linter.

const validator = new HtmlValidate(new StaticConfigLoader({ extends: ['html-validate:recommended'] }));
const dist = await readTree(join(REPO, 'dist'));

async function problems(name: string, html: string): Promise<string[]> {
  const report = await validator.validateString(html, name);
  return report.results.flatMap((r) => r.messages.map((m) => `${name}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
}

test('every page of the committed tree is valid HTML', async () => {
  const pages = [...dist.keys()].filter((path) => path.endsWith('.html'));
  assert.ok(pages.length > 250, `${pages.length} pages`);
  const found: string[] = [];
  for (const path of pages) found.push(...(await problems(path, dist.get(path)!.toString('utf8'))));
  assert.deepEqual(found, []);
});

let served: ServedMini;
before(async () => {
  served = await serveMini('2026-01-01T00:00:00Z', { tools: { threads: 0 }, requestLog: { flushEveryMs: 10 } });
});
after(() => served.dispose());

test('pages stay valid with the live counters written in, and name their icon', async () => {
  for (const path of ['/', '/crawler/gptbot.html', '/reference', '/tools/ai-access.html']) {
    const page = await raw(served.server.url, path);
    assert.equal(page.status, 200, path);
    assert.match(page.text, /<p class="live">[^<]*This server, today/, `${path} carries the counters`);
    assert.deepEqual(await problems(path, page.text), []);
    assert.match(page.text, /<link rel="icon" href="[^"]*favicon\.svg" type="image\/svg\+xml">/);
  }
  const icon = await raw(served.server.url, '/favicon.svg');
  assert.equal(icon.headers['content-type'], 'image/svg+xml');
  assert.match(icon.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
});

test("the service's own robots.txt has no lint finding, keeps crawlers off tool calls and lets them read everything else", async () => {
  const robots = readFileSync(join(REPO, 'dist', 'robots.txt'), 'utf8');
  const data = await publishedToolData(REPO);
  const run = async (tool: string, params: Record<string, unknown>) => {
    const answer = await executeTool({ tool, params: { robots_txt: robots, ...params }, caller: { userAgent: null, address: null }, form: 'json' }, data);
    assert.equal(answer.status, 'answered');
    return JSON.parse(new TextDecoder().decode((answer as { bytes: Uint8Array }).bytes)) as Record<string, unknown>;
  };
  assert.deepEqual(((await run('lint_robots_txt', {})) as { counts: unknown }).counts, { error: 0, warning: 0, info: 0 });
  const verdicts = (await run('check_path_allowed', {
    ua: 'Googlebot',
    path: ['/data/agents.json', '/crawler/gptbot.html', '/tools/ai-access.html', '/tools/classify-ua?ua=GPTBot', '/hits.json'],
  })) as { results: { allowed: boolean }[] };
  assert.deepEqual(
    verdicts.results.map((r) => r.allowed),
    [true, true, true, false, false],
  );
  assert.match(robots, /^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
});

test('policies, operators and categories have pages; a policy says what it leaves out and which policy covers it', () => {
  const text = (path: string) => {
    const bytes = dist.get(path);
    assert.ok(bytes, `dist${path} exists`);
    return bytes.toString('utf8');
  };
  const training = text('/policy/block-ai-training.html');
  const leftOut = training.slice(training.indexOf('<h2>What it leaves out</h2>'), training.indexOf('<h2>Crawlers it names</h2>'));
  assert.match(leftOut, /Open dataset crawler/);
  assert.match(leftOut, />CCBot</, 'CCBot is named where a reader asks why it is not blocked');
  assert.match(leftOut, /href="block-datasets\.html">Block open dataset builders</);
  assert.match(text('/operator/google.html'), /<a href="\.\.\/crawler\/googlebot\.html">Googlebot<\/a>/);
  assert.match(text('/category/dataset.html'), /Named by .*Block open dataset builders/);
  assert.match(text('/policies.html'), /<caption>Which categories each policy names<\/caption>/);
  // The crawler pages and the home page lead to these pages, not to raw JSON.
  assert.match(text('/crawler/gptbot.html'), /operated by <a href="\.\.\/operator\/openai\.html">/);
  assert.match(text('/index.html'), /<a href="policy\/block-ai-training\.html">Block AI model training<\/a>/);
  assert.match(text('/index.html'), /href="tools\/index\.html"|href="tools\/"/);
});

test('a robots.txt tool answers a browser with a valid report page and a program with JSON', async () => {
  const file = 'User-agent: GPTBot\nDisalow: /x\nDisallow: /\n';
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  for (const [tool, heading] of [
    ['ai-access', /<h1>AI access for \/<\/h1>/],
    ['robots-lint', /<h1>robots\.txt lint<\/h1>/],
    ['robots-allowed?ua=GPTBot', /<h1>Paths for GPTBot<\/h1>/],
  ] as const) {
    const page = await raw(served.server.url, `/tools/${tool}`, { method: 'POST', body: file, headers: { accept: browser } });
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    assert.equal(page.headers['vary'], 'Accept, Accept-Encoding');
    assert.match(page.text, heading);
    assert.deepEqual(await problems(tool, page.text), []);
    const program = await raw(served.server.url, `/tools/${tool}`, { method: 'POST', body: file, headers: { accept: '*/*' } });
    assert.match(program.headers['content-type'] ?? '', /^application\/json/);
    JSON.parse(program.text);
  }
  const signals = 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\nContent-Signal: search=yes\n';
  for (const tool of ['ai-access', 'robots-allowed?ua=GPTBot']) {
    const report = await raw(served.server.url, `/tools/${tool}`, { method: 'POST', body: signals, headers: { accept: browser } });
    assert.match(report.text, /<th scope="col">Usage preferences<\/th>/, tool);
    assert.match(report.text, /Contradiction/, tool);
    assert.deepEqual(await problems(tool, report.text), []);
  }
  const lint = await raw(served.server.url, '/tools/robots-lint', { method: 'POST', body: file, headers: { accept: browser } });
  assert.match(lint.text, /<code>Disalow: \/x<\/code>/, 'the finding quotes its line');
  // The specification (no input) stays JSON for a browser too.
  assert.match((await raw(served.server.url, '/tools/ai-access', { headers: { accept: browser } })).headers['content-type'] ?? '', /^application\/json/);
});
