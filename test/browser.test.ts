import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import type { RunningServer } from '../pipeline/node/server.ts';
import { serveTree } from './support/served.ts';
import { REPO } from './support/project.ts';
import { CHROMIUM, launchChromium } from './support/chromium.ts';
import { parseHeaders, parseRedirects, startStaticHost } from './support/static-host.ts';

// The pages as people meet them, in Debian's headless Chromium: no horizontal scroll on a
// phone, no axe-core violation, and a form that takes a large robots.txt. Served from the
// committed tree with the request log on, so the live counters are in the pages measured.

const skip = CHROMIUM === undefined ? 'no Chromium here (Debian: apt-get install chromium; .ci/run installs it)' : false;
const PAGES = [
  '/',
  '/crawler/gptbot.html',
  '/crawler/googlebot.html',
  '/policies.html',
  '/policy/block-ai-training.html',
  '/operator/google.html',
  '/category/ai-training.html',
  '/tools/',
  '/tools/ai-access.html',
  '/tools/verify-crawler.html',
  '/reference',
];

let server: RunningServer;
let browser: Browser;
/**
 * The one tab every test drives: each tab costs Chromium a renderer's start. A test reads
 * nothing a previous one left: each navigates first, and the reset below puts back scripts on
 * and the default 800 x 600 viewport.
 */
let page: Page;
let scratch: string;

before(async () => {
  if (CHROMIUM === undefined) return; // every test says it is skipped
  scratch = await mkdtemp(join(tmpdir(), 'browser-test-'));
  server = await serveTree(REPO, { requestLog: { file: join(scratch, 'requests.db') } });
  browser = await launchChromium(CHROMIUM);
  page = (await browser.pages())[0] ?? (await browser.newPage());
});
beforeEach(async () => {
  if (skip) return;
  await page.setJavaScriptEnabled(true);
  await page.setViewport({ width: 800, height: 600 });
});
after(async () => {
  if (skip) return;
  await browser.close();
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

// Each page is loaded once: at 390 px it is measured and audited, then widened to 1280 px and
// measured again. No script of the site reads the window's size (dist/site.js), so a page
// widened is laid out as one loaded wide.
test('no page scrolls sideways at 390 px or 1280 px, and axe-core finds no violation on any page', { skip }, async () => {
  const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  for (const path of PAGES) {
    await page.setViewport({ width: 390, height: 900 });
    const response = await page.goto(server.url + path);
    assert.equal(response?.status(), 200, path);
    const narrow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(narrow <= 390, `${path} at 390 px is ${narrow} px wide`);
    // A tool's form comes first: its first field is on a phone's first screen (390 x 844).
    if (/^\/tools\/.+\.html$/.test(path)) {
      const field = await page.$eval('form[data-needs-server] :is(input, textarea, select)', (control) => control.getBoundingClientRect().top);
      assert.ok(field < 844, `${path}: the form's first field starts at ${field} px`);
    }
    await page.evaluate(axe);
    // axe runs every rule on every node either way; asked for violations only, it skips
    // describing each passing node, most of its time on a long page.
    const violations = await page.evaluate(async () => {
      type Axe = { run(options: { resultTypes: string[] }): Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> };
      const { axe } = window as unknown as { axe: Axe };
      return (await axe.run({ resultTypes: ['violations'] })).violations.map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 120)}`);
    });
    assert.deepEqual(violations, [], path);
    await page.setViewport({ width: 1280, height: 900 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 1280, `${path} at 1280 px is ${wide} px wide`);
  }
});

test('the ai-access form takes a 27 KB robots.txt (it was a 431 as a GET) and answers', { skip }, async () => {
  await page.goto(`${server.url}/tools/ai-access.html`);
  const big = Array.from({ length: 900 }, (_, i) => `User-agent: bot${i}\nDisallow: /p${i}/`).join('\n') + '\nUser-agent: GPTBot\nDisallow: /\n';
  assert.ok(big.length > 27_000);
  await page.$eval(
    '#f-robots_txt',
    (area, text) => {
      (area as HTMLTextAreaElement).value = text;
    },
    big,
  );
  const [response] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  assert.equal(response?.status(), 200);
  // A browser gets the answer as a report (programs keep the JSON).
  assert.equal(await page.$eval('h1', (h) => h.textContent), 'AI access for /');
  const blocked = await page.$$eval('h2 + .wide tbody tr td:first-child', (cells) => cells.map((c) => c.textContent ?? ''));
  assert.ok(
    blocked.some((name) => name.startsWith('GPTBot')),
    JSON.stringify(blocked.slice(0, 5)),
  );
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 1280);
});

test("a tool form on a self-hosted server shows its curl command and MCP addresses with that server's address (docs/API.md §1.3)", { skip }, async () => {
  await page.goto(`${server.url}/tools/ai-access.html`);
  const shown = await page.$$eval('code[data-built-for]', (codes) => codes.map((c) => c.textContent ?? ''));
  assert.ok(shown.length >= 2, JSON.stringify(shown));
  assert.ok(
    shown.every((text) => text.includes(server.url) && !text.includes('crawler-index.github.io')),
    JSON.stringify(shown),
  );
  // With scripts off, the page names the address the tree was built for.
  await page.setJavaScriptEnabled(false);
  await page.reload();
  const stored = await page.$$eval('code[data-built-for]', (codes) => codes.map((c) => c.textContent ?? ''));
  assert.ok(
    stored.every((text) => text.includes('https://crawler-index.github.io/')),
    JSON.stringify(stored),
  );
});

/** At 390 px the crawler table of the page shown stacks each crawler into one block of labelled facts within the screen. */
async function assertOneBlockPerCrawler(path: string): Promise<void> {
  const cells = await page.$$eval('table.stack tbody tr:first-child td', (tds) =>
    tds.map((td) => ({ right: td.getBoundingClientRect().right, label: getComputedStyle(td, '::before').content })),
  );
  assert.equal(cells.length, 5, path);
  assert.ok(
    cells.every((c) => c.right <= 390),
    `${path}: ${JSON.stringify(cells)}`,
  );
  assert.deepEqual(
    cells.slice(1).map((c) => c.label),
    ['"Operator: "', '"Category: "', '"robots.txt token: "', '"Obeys robots.txt: "'],
  );
  const caption = await page.$eval('table.stack caption', (c) => c.getBoundingClientRect().width).catch(() => null);
  if (caption !== null) assert.ok(caption > 300, `${path}: the caption spans the column (${caption} px)`);
}

// The home page is the longest of the site to load and filter: one load of it at each width
// serves the search, the filters and the stacked layout's checks.
test('the search box is on the first screen at 1280 and 390 px and filters the crawler table as one types; Enter and ?q= keep the search; with scripts off every crawler is listed; at 390 px each crawler is one block and a filtered-out one takes no room', {
  skip,
}, async () => {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewport({ width, height });
    await page.goto(`${server.url}/`);
    const box = await page.$eval('#crawler-search', (input) => input.getBoundingClientRect().bottom);
    assert.ok(box > 0 && box <= height, `${width} px: the search box ends at ${box} px, within the first ${height}`);
  }
  await assertOneBlockPerCrawler('/');
  const total = await page.$$eval('table[data-filterable] tbody tr', (rows) => rows.length);
  assert.ok(total > 250);
  const shown = () => page.$$eval('table[data-filterable] tbody tr:not([hidden]) td:first-child', (cells) => cells.map((c) => c.textContent));
  await page.type('#crawler-search', 'gptbot');
  const found = await shown();
  assert.ok(found.includes('GPTBot') && found.length < 5, JSON.stringify(found));
  assert.equal(await page.$eval('.find [aria-live]', (p) => p.textContent ?? ''), `${found.length} of ${total} crawlers shown`);
  const heights = await page.$$eval('table.stack tbody tr[hidden]', (rows) => rows.slice(0, 20).map((r) => r.getBoundingClientRect().height));
  assert.ok(heights.length === 20 && heights.every((h) => h === 0), JSON.stringify(heights));
  // Enter keeps the search in the address (a link that can be shared) and goes to the rows.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.search === '?q=gptbot' && location.hash === '#crawlers');
  await page.goto(`${server.url}/?q=googlebot`);
  assert.equal(await page.$eval('#crawler-search', (input) => (input as HTMLInputElement).value), 'googlebot');
  assert.ok((await shown()).includes('Googlebot'), 'the search in the address is applied on load');
  await page.$eval('#crawler-search', (input) => {
    (input as HTMLInputElement).value = '';
  });
  await page.select('#filter-category', 'Open dataset crawler');
  const categories = await page.$$eval('table[data-filterable] tbody tr:not([hidden])', (rows) => [
    ...new Set(rows.map((r) => (r as HTMLElement).dataset['category'])),
  ]);
  assert.deepEqual(categories, ['Open dataset crawler']);
  assert.match(await page.$eval('.find [aria-live]', (p) => p.textContent ?? ''), /^\d+ of \d+ crawlers shown$/);
  await page.setJavaScriptEnabled(false);
  await page.goto(`${server.url}/`);
  assert.equal(await page.$$eval('table[data-filterable] tbody tr:not([hidden])', (rows) => rows.length), total);
  assert.equal(await page.$('.filters'), null);
  // Without scripts the form still goes somewhere useful: the table, on the same page.
  assert.match(await page.$eval('form.find', (form) => (form as HTMLFormElement).action), /\/index\.html#crawlers$/);
});

test('a robots.txt picked as a file is checked as it is: the form holds no example of its own to clash with it', { skip }, async () => {
  const fixture = join(REPO, 'test', 'fixtures', 'robots', 'www.nytimes.com.txt');
  for (const [tool, heading] of [
    ['robots-lint', 'robots.txt lint'],
    ['ai-access', 'AI access for /'],
  ] as const) {
    await page.goto(`${server.url}/tools/${tool}.html`);
    // On the server, the note that the form needs one is hidden once the endpoint answers.
    await page.waitForSelector('.needs-server', { hidden: true });
    const upload = await page.$('#f-upload');
    await (upload as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(fixture);
    const [response] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    assert.equal(response?.status(), 200, tool);
    assert.equal(await page.$eval('h1', (h) => h.textContent), heading);
    // The audit reports only what the site declared: no example Content-Usage header.
    assert.doesNotMatch(await page.$eval('main', (m) => m.textContent ?? ''), /Content-Usage header/);
  }
});

test('at 390 px each crawler of an operator and a policy page is one block with labelled facts (the home page: above)', { skip }, async () => {
  await page.setViewport({ width: 390, height: 900 });
  for (const path of ['/operator/openai.html', '/policy/block-ai-training.html']) {
    await page.goto(server.url + path);
    await assertOneBlockPerCrawler(path);
  }
});

test('on a static host a tool form says it cannot be sent and disables its button, instead of failing', { skip }, async () => {
  const dist = join(REPO, 'dist');
  const rules = {
    headers: parseHeaders(readFileSync(join(dist, '_headers'), 'utf8')),
    redirects: parseRedirects(readFileSync(join(dist, '_redirects'), 'utf8')),
  };
  for (const host of [await startStaticHost(dist), await startStaticHost(dist, rules)]) {
    try {
      await page.goto(`${host.url}/tools/ai-access.html`);
      await page.waitForSelector('.needs-server.no-server');
      assert.match(await page.$eval('.needs-server', (p) => p.textContent ?? ''), /^This form cannot be sent from here\./);
      assert.equal(await page.$eval('button[type=submit]', (b) => (b as HTMLButtonElement).disabled), true);
    } finally {
      await host.close();
    }
  }
});
