import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { executeTool } from '../pipeline/tools/registry/call.ts';
import { htmlProblems } from './support/html-validator.ts';
import { raw } from './support/http.ts';
import { REPO, readTree } from './support/project.ts';
import { serveMini, type ServedMini } from './support/served.ts';
import { publishedToolData } from './support/tool-data.ts';

// Site hygiene: every page is valid HTML (html-validate's recommended rules), also with the
// live counters written in; the service's own robots.txt passes its own linter.

const problems = htmlProblems();
const dist = await readTree(join(REPO, 'dist'));

test('every page of the committed tree is valid HTML', async () => {
  const pages = [...dist.keys()].filter((path) => path.endsWith('.html'));
  assert.ok(pages.length > 250, `${pages.length} pages`);
  const found: string[] = [];
  for (const path of pages) found.push(...(await problems(path, dist.get(path)!.toString('utf8'))));
  assert.deepEqual(found, []);
});

let served: ServedMini;
before(async () => {
  served = await serveMini({ tools: { threads: 0 }, requestLog: { flushEveryMs: 10 } });
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
    // The audit says, crawler by crawler, whether its operator says it obeys robots.txt.
    if (tool === 'ai-access')
      assert.match(page.text, /<td>GPTBot <code>GPTBot<\/code><\/td><td>OpenAI<\/td><td>[^<]+<\/td><td>Operator documents that it obeys robots\.txt<\/td>/);
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

test('every other tool answers a browser with its summary and the whole answer folded below; a merged policy shows the merged file', async () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  for (const [path, heading, summary] of [
    ['/tools/classify-ua?ua=Mozilla%2F5.0%20(compatible%3B%20GPTBot%2F1.2)', 'Which crawler is this User-Agent?', /GPTBot by OpenAI/],
    ['/tools/verify-crawler?ip=192.0.2.1&ua=GPTBot', 'Is this address really that crawler?', /1 address checked/],
    ['/tools/whoami', 'Who does this service think I am?', /./],
  ] as const) {
    const page = await raw(served.server.url, path, { headers: { accept: browser } });
    assert.equal(page.status, 200, page.text);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/, path);
    assert.equal(page.headers['vary'], 'Accept, Accept-Encoding');
    assert.ok(page.text.includes(`<h1>${heading.replace(/&/g, '&amp;')}</h1>`), `${path}: ${page.text.slice(0, 300)}`);
    assert.match(page.text, new RegExp(`<div class="summary">[^<]*${summary.source}`), path);
    assert.match(page.text, /<details><summary>The whole answer as JSON<\/summary>\n<pre><code>\{/);
    assert.deepEqual(await problems(path, page.text), []);
    // Programs keep the JSON, byte for byte what they got before.
    const program = await raw(served.server.url, path, { headers: { accept: '*/*' } });
    assert.match(program.headers['content-type'] ?? '', /^application\/json/);
    JSON.parse(program.text);
  }
  const merged = await raw(served.server.url, '/tools/policy-merge?policy=block-ai-training', {
    method: 'POST',
    body: 'User-agent: GPTBot\nAllow: /public\n',
    headers: { accept: browser },
  });
  assert.equal(merged.status, 200, merged.text);
  assert.match(merged.text, /<h1>Your robots\.txt with block-ai-training<\/h1>/);
  assert.match(merged.text, /<pre><code>User-agent: GPTBot\nAllow: \/public\nDisallow: \/\n/);
  assert.deepEqual(await problems('merge', merged.text), []);
});

test('a browser at a missing address reads the 404 page with the way back; programs keep the JSON error', async () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  for (const path of ['/no-such-page', '/crawler/no-such-crawler.html', '/%2e%2e/x']) {
    const page = await raw(served.server.url, path, { headers: { accept: browser } });
    assert.equal(page.status, 404, path);
    assert.match(page.headers['content-type'] ?? '', /^text\/html/, path);
    assert.equal(page.headers['vary'], 'Accept');
    assert.match(page.text, /<h1>No page at this address<\/h1>/);
    // Linked from the site's root: a static host shows this page at any depth.
    assert.match(page.text, /<a href="\/index\.html">Every crawler<\/a>/);
    assert.match(page.text, /<link rel="stylesheet" href="\/site\.css">/);
    assert.deepEqual(await problems(path, page.text), []);
    const head = await raw(served.server.url, path, { method: 'HEAD', headers: { accept: browser } });
    assert.deepEqual([head.status, head.text], [404, '']);
    const program = await raw(served.server.url, path, { headers: { accept: '*/*' } });
    assert.equal(program.status, 404);
    assert.equal((JSON.parse(program.text) as { error: { code: string } }).error.code, 'not_found');
  }
  // Static hosts serve /404.html for their missing addresses; it is not a page to index.
  assert.ok(dist.has('/404.html'));
  assert.doesNotMatch(dist.get('/sitemap.xml')!.toString('utf8'), /404\.html/);
});

test('a tool form fills in only defaults: examples are placeholders, and a fixed set of values is a choice', () => {
  const form = (path: string) => dist.get(path)!.toString('utf8');
  const audit = form('/tools/ai-access.html');
  // An example file in the text box was sent beside an uploaded one and refused; an example header was audited as the site's own.
  assert.match(
    audit,
    /<textarea id="f-robots_txt" name="robots_txt" rows="10" placeholder="User-agent: GPTBot\nDisallow: \/\n" aria-describedby="f-robots_txt-help"><\/textarea>/,
  );
  assert.match(audit, /<input type="text" id="f-content_usage_header" name="content_usage_header" value="" placeholder="train-ai=n"/);
  assert.match(audit, /<input type="text" id="f-path" name="path" value="\/"/, 'a default is what an empty field means anyway');
  assert.match(audit, /<form data-needs-server method="post" enctype="multipart\/form-data"/);
  assert.doesNotMatch(audit, /Run audit_ai_access/);
  const config = form('/tools/server-config.html');
  assert.match(
    config,
    /<select id="f-policy" name="policy" required aria-describedby="f-policy-help"><option value="">choose one<\/option><option>allow-all<\/option>/,
  );
  assert.match(config, /<select id="f-server" name="server" aria-describedby="f-server-help"><option selected>nginx<\/option><option>apache<\/option>/);
  for (const [path, bytes] of dist) {
    if (!path.startsWith('/tools/') || !path.endsWith('.html')) continue;
    assert.doesNotMatch(bytes.toString('utf8'), /<textarea[^>]*>[^<]/, `${path}: no text box is pre-filled`);
  }
});

test('record text written with `code` shows as code on the pages, not with its backquotes', () => {
  const text = (path: string) => dist.get(path)!.toString('utf8');
  assert.match(text('/policies.html'), /keep following your <code>User-agent: \*<\/code> group/);
  assert.match(text('/policy/block-ai-training.html'), /stops reading your <code>User-agent: \*<\/code> group/);
  assert.match(text('/crawler/applebot.html'), /<code>\*<\/code> group/);
  const withBackquote = [...dist.keys()].filter(
    (path) =>
      /^\/(crawler|policy|operator|category)\/.*\.html$|^\/policies\.html$/.test(path) && /<main[\s\S]*`[\s\S]*<\/main>/.test(dist.get(path)!.toString('utf8')),
  );
  assert.deepEqual(withBackquote, []);
});

test('the tools page and an operator page say things in words: one full stop, states readable, addresses of the server shown', () => {
  const tools = dist.get('/tools/index.html')!.toString('utf8');
  assert.doesNotMatch(tools, /\.\.[ <]/, 'no sentence ends with two full stops');
  assert.doesNotMatch(tools, /the answer is JSON\./);
  assert.match(tools, /<code data-built-for="https:\/\/crawler-index\.github\.io">https:\/\/crawler-index\.github\.io\/mcp<\/code>/);
  const openai = dist.get('/operator/openai.html')!.toString('utf8');
  assert.doesNotMatch(openai, /never-fetched|, ok\)/);
  assert.match(openai, /OpenAI OAI-AdsBot<\/a> \(not fetched yet\)/);
  assert.match(openai, /OpenAI GPTBot<\/a> \(\d+ IPv4, \d+ IPv6 prefixes\)/);
  // The home table shows the stance in the words its filter offers, not the identifier.
  const home = dist.get('/index.html')!.toString('utf8');
  assert.match(
    home,
    /data-stance="Operator documents that it obeys robots.txt"[^\n]*<td data-label="Obeys robots.txt">Operator documents that it obeys robots.txt<\/td><\/tr>/,
  );
});

test('a robots.txt form refused by the tool answers a browser with a page saying why, and a program with the JSON error', async () => {
  const form = new FormData();
  form.append('robots_txt', 'User-agent: *\nDisallow: /a\n');
  form.append('robots_txt_file', new Blob(['User-agent: *\nDisallow: /b\n'], { type: 'text/plain' }), 'robots.txt');
  const browser = await fetch(`${served.server.url}/tools/robots-lint`, {
    method: 'POST',
    body: form,
    headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  });
  assert.equal(browser.status, 400);
  assert.match(browser.headers.get('content-type') ?? '', /^text\/html/);
  const page = await browser.text();
  assert.match(page, /<h1>The tool could not answer<\/h1>/);
  assert.match(page, /Both robots_txt and robots_txt_file are filled in/);
  assert.match(page, /<a href="\/tools\/robots-lint\.html">Back to the form<\/a>/);
  assert.deepEqual(await problems('refusal', page), []);
  const program = await fetch(`${served.server.url}/tools/robots-lint`, { method: 'POST', body: form });
  assert.equal(program.status, 400);
  assert.match(program.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(((await program.json()) as { error: { code: string } }).error.code, 'invalid_parameter');
});
