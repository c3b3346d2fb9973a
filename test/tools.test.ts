import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RunningServer } from '../pipeline/node/server.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { TOOLS } from '../pipeline/tools/registry/index.ts';
import { serveTree } from './support/served.ts';
import { seededRandom } from './support/random.ts';
import { raw } from './support/http.ts';
import { REPO } from './support/project.ts';

// The tool endpoints over a real socket, on the committed dist/ (the repository's own records
// and mirror), so the tools see real operator prefixes.
let server: RunningServer;
const spec = validatorFor('outputs/tool-spec.schema.json');
const error = validatorFor('outputs/error.schema.json');
const outputs = new Ajv2020({ strict: false, allErrors: true });
const HTTP_TOOLS = TOOLS.filter((t) => t.path !== null);
/** The base URL the repository's records publish under, which the stored documents name. */
const BUILT_FOR = (parse(readFileSync(join(REPO, 'records', 'site.yaml'), 'utf8')) as { base_url: string }).base_url;

before(async () => {
  // No test here depends on how old a mirrored list is (test/verify-verdicts.test.ts builds a
  // tree with the lists' times set for that), so the committed tree serves them without a build.
  // Calls run in place; test/tool-threads.test.ts calls every tool on a thread.
  server = await serveTree(REPO, { requestLog: { file: null } });
});
after(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => raw(server.url, path, { headers });
const json = <T = Record<string, unknown>>(text: string) => JSON.parse(text) as T;
function assertError(response: { status: number; text: string }, status: number, field?: string) {
  assert.equal(response.status, status, response.text);
  const body = json<{ error: { field?: string; accepted?: string } }>(response.text);
  assert.ok(error(body), JSON.stringify(error.errors));
  if (field) assert.equal(body.error.field, field, response.text);
  if (status === 400) assert.ok((body.error.accepted ?? '').length > 3, 'names the accepted form');
}

describe('every tool endpoint', () => {
  test('no parameters → 200 with its specification (example and whoami answer for real); ?spec=1 → specification', async () => {
    for (const tool of HTTP_TOOLS) {
      const bare = await get(`/tools/${tool.path}`);
      assert.equal(bare.status, 200, tool.name);
      const body = json(bare.text);
      if (tool.runsWithoutParams) assert.equal(body['name'], undefined, `${tool.name} answers for real`);
      else assert.ok(spec(body), `${tool.name}: ${JSON.stringify(spec.errors)}`);
      const explicit = json((await get(`/tools/${tool.path}?spec=1`)).text);
      assert.ok(spec(explicit), tool.name);
      assert.equal(explicit['name'], tool.name);
      // The stored spec names the build's base URL; the live one the origin the client used (docs/API.md §1.3).
      assert.equal(
        (await get(`/tools/${tool.path}.json`)).text.replaceAll(BUILT_FOR, server.url),
        (await get(`/tools/${tool.path}?spec=1`)).text,
        `${tool.name}: the static spec equals the live one, but for the origin`,
      );
      const form = await get(`/tools/${tool.path}.html`);
      assert.equal(form.status, 200);
      // robots.txt tools POST (a large file does not fit a GET's request head) and take an upload; the others GET.
      const tag = tool.postBody
        ? `<form data-needs-server method="post" enctype="multipart/form-data" action="${tool.path}">`
        : `<form data-needs-server method="get" action="${tool.path}">`;
      assert.ok(form.text.includes(tag), `the form sends to the tool, relative to the page: ${tag}`);
    }
  });

  test("each documented example answers 200 with output matching the tool's output schema; s changes nothing", async () => {
    for (const tool of HTTP_TOOLS) {
      const validate = outputs.compile(tool.outputSchema);
      for (const example of tool.examples) {
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(example.input)) for (const v of Array.isArray(value) ? value : [value ?? '']) params.append(name, v);
        const path = `/tools/${tool.path}?${params.toString() || 's=test'}`;
        const response = await get(path, { 'user-agent': 'crawler-index-test' });
        assert.equal(response.status, 200, `${tool.name}: ${response.text.slice(0, 300)}`);
        const body = json(response.text);
        assert.ok(validate(body), `${tool.name}: ${JSON.stringify(validate.errors)}`);
        // verify_signature says when it checked (a verdict holds at a time), to the second: two
        // requests may straddle a second, so its answers are compared without that field.
        const timeless = (text: string) => text.replace(/"checked_at": "[^"]*"/, '"checked_at": "…"');
        const tagged = await get(`${path}&s=campaign`, { 'user-agent': 'crawler-index-test' });
        assert.equal(timeless(tagged.text), timeless(response.text), `${tool.name}: s does not affect the answer`);
        const again = await get(path, { 'user-agent': 'crawler-index-test', 'if-none-match': response.headers['etag']! });
        if (again.status !== 304) {
          assert.equal(again.status, 200, tool.name);
          assert.notEqual(again.text, response.text, `${tool.name}: an unchanged answer is a 304`);
          assert.equal(timeless(again.text), timeless(response.text), `${tool.name}: only the time of the check changed`);
        }
      }
    }
  });

  test('unknown parameters, repeated single parameters and a bad spec value → 400 naming the field', async () => {
    assertError(await get('/tools/classify-ua?ua=x&useragent=y'), 400, 'useragent');
    assertError(await get('/tools/classify-ua?ua=a&ua=b'), 400, 'ua');
    assertError(await get('/tools/robots-lint?spec=2'), 400, 'spec');
    assertError(await get('/tools/example?foo=1'), 400, 'foo');
  });

  test('a method the tool does not take → 405 with Allow', async () => {
    const response = await raw(server.url, '/tools/classify-ua?ua=x', { method: 'POST', body: 'x' });
    assertError(response, 405);
    assert.equal(response.headers['allow'], 'GET, HEAD, OPTIONS');
    assert.equal((await raw(server.url, '/tools/robots-lint', { method: 'PUT', body: 'x' })).headers['allow'], 'GET, HEAD, POST, OPTIONS');
  });
});

describe('robots.txt tools', () => {
  const file = 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /public\nDisallow: /\n\nUser-agent: GPTbott\nDisallow: /\n';
  test('robots-allowed: per path verdict with the deciding line; GET and POST agree', async () => {
    const query = `ua=GPTBot&path=/public/a,/private/b&path=/other`;
    const viaGet = await get(`/tools/robots-allowed?robots_txt=${encodeURIComponent(file)}&${query}`);
    const viaPost = await raw(server.url, `/tools/robots-allowed?${query}`, { method: 'POST', body: file });
    assert.equal(viaPost.status, 200, viaPost.text);
    assert.equal(viaPost.text, viaGet.text);
    const body = json<{ results: { path: string; allowed: boolean; deciding: { line: number; text: string } | null }[] }>(viaGet.text);
    assert.deepEqual(
      body.results.map((r) => [r.path, r.allowed, r.deciding?.line, r.deciding?.text]),
      [
        ['/public/a', true, 5, 'Allow: /public'],
        ['/private/b', false, 6, 'Disallow: /'],
        ['/other', false, 6, 'Disallow: /'],
      ],
    );
  });
  test('robots-allowed: 200 paths are fine, 201 are refused; ua and robots_txt are required', async () => {
    const paths = (n: number) => Array.from({ length: n }, (_, i) => `/p${i}`).join(',');
    assert.equal((await raw(server.url, `/tools/robots-allowed?ua=GPTBot&path=${paths(200)}`, { method: 'POST', body: file })).status, 200);
    assertError(await raw(server.url, `/tools/robots-allowed?ua=GPTBot&path=${paths(201)}`, { method: 'POST', body: file }), 400, 'path');
    assertError(await raw(server.url, '/tools/robots-allowed?path=/', { method: 'POST', body: file }), 400, 'ua');
    assertError(await get('/tools/robots-allowed?ua=GPTBot'), 400, 'robots_txt');
    assertError(await raw(server.url, `/tools/robots-allowed?ua=GPTBot&robots_txt=x`, { method: 'POST', body: file }), 400, 'robots_txt');
  });
  test('POST bodies over the limit → 413', async () => {
    assertError(await raw(server.url, '/tools/robots-lint', { method: 'POST', body: 'Disallow: /x\n'.repeat(50_000) }), 413, 'robots_txt');
  });
  test('ai-access: blocked and allowed AI crawlers, unknown tokens with a suggestion, obedience split', async () => {
    const response = await raw(server.url, '/tools/ai-access', { method: 'POST', body: file });
    const body = json<{
      blocked: { slug: string }[];
      unknown_tokens: { token: string; did_you_mean: string | null }[];
      obedience: { blocked_and_documented: string[] };
    }>(response.text);
    assert.ok(body.blocked.some((b) => b.slug === 'gptbot'));
    assert.ok(body.obedience.blocked_and_documented.includes('gptbot'));
    assert.deepEqual(
      body.unknown_tokens.map((t) => [t.token, t.did_you_mean]),
      [['GPTbott', 'GPTBot']],
    );
  });
  test('ai-access and robots-allowed: the usage preferences that apply, contradictions, a Content-Usage header and a Cloudflare-managed override', async () => {
    const signals = `# BEGIN Cloudflare Managed content
User-Agent: *
Content-Signal: search=yes, ai-train=no
Allow: /

User-agent: ClaudeBot
Disallow: /
# END Cloudflare Managed Content
User-agent: *
Disallow: /private
Content-Usage: train-ai=n

User-agent: CCBot
Disallow: /
Content-Signal: search=yes
`;
    type Prefs = { applies: boolean; content_usage: Record<string, unknown>; content_signal: Record<string, unknown> };
    const body = json<{
      allowed: { slug: string; preferences: Prefs }[];
      usage_preferences: {
        content_usage_header: { declared: string[] } | null;
        by_category: Record<string, Record<string, string[]>>;
        contradictions: { slug: string; code: string }[];
        managed_overrides: { token: string; decided_by: string }[];
      };
    }>((await raw(server.url, '/tools/ai-access?content_usage_header=search%3Dy', { method: 'POST', body: signals })).text);
    const gpt = body.allowed.find((a) => a.slug === 'gptbot')!;
    assert.deepEqual(gpt.preferences.content_signal, { search: 'yes', 'ai-input': null, 'ai-train': 'no', use: null, lines: [3] });
    assert.equal(gpt.preferences.content_usage['train-ai'], 'disallowed', 'the merged * groups carry line 11');
    assert.equal(gpt.preferences.content_usage['search'], 'allowed', 'from the header');
    assert.deepEqual(body.usage_preferences.content_usage_header?.declared, ['search=y']);
    assert.ok(body.usage_preferences.by_category['ai-training']?.['content-signal:ai-train=no']?.includes('gptbot'));
    assert.deepEqual(
      body.usage_preferences.contradictions.map((c) => [c.slug, c.code]),
      [['ccbot', 'preference-on-disallowed-path']],
    );
    assert.deepEqual(
      body.usage_preferences.managed_overrides.map((m) => [m.token, m.decided_by]),
      [
        ['*', 'both'],
        ['ClaudeBot', 'managed'],
      ],
    );
    const paths = json<{ results: { path: string; preferences: Prefs; preference_contradictions: unknown[] }[] }>(
      (await raw(server.url, '/tools/robots-allowed?ua=CCBot&path=/', { method: 'POST', body: signals })).text,
    );
    assert.equal(paths.results[0]!.preferences.applies, false);
    assert.equal(paths.results[0]!.preference_contradictions.length, 1);
    assertError(
      await raw(server.url, `/tools/ai-access?content_usage_header=${'x'.repeat(1100)}`, { method: 'POST', body: signals }),
      400,
      'content_usage_header',
    );
  });
  test('robots-lint: a misspelt directive is found with its line and fix', async () => {
    const body = json<{ findings: { line: number; code: string; fix: string }[] }>(
      (await get(`/tools/robots-lint?robots_txt=${encodeURIComponent('User-agent: *\nDissallow: /x\n')}`)).text,
    );
    const finding = body.findings.find((f) => f.line === 2);
    assert.ok(finding, JSON.stringify(body));
    assert.match(finding.fix, /Disallow/);
  });
  test('robots-lint: a byte-order mark is found whether the file comes as a GET parameter or a POST body', async () => {
    const file = '\uFEFFUser-agent: *\nDisallow: /x\n';
    const codes = (text: string) => json<{ findings: { code: string }[] }>(text).findings.map((f) => f.code);
    const byGet = codes((await get(`/tools/robots-lint?robots_txt=${encodeURIComponent(file)}`)).text);
    const byPost = codes((await raw(server.url, '/tools/robots-lint', { method: 'POST', body: file, headers: { 'content-type': 'text/plain' } })).text);
    assert.ok(byGet.includes('bom'), byGet.join());
    assert.deepEqual(byPost, byGet);
  });
});

describe('crawler and network tools', () => {
  test('classify-ua: identifies GPTBot; a browser is unmatched with a labelled heuristic; bad headers → 400', async () => {
    const gpt = json<{ matched: boolean; crawler: { slug: string } }>(
      (
        await get(
          `/tools/classify-ua?ua=${encodeURIComponent('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot')}`,
        )
      ).text,
    );
    assert.deepEqual([gpt.matched, gpt.crawler.slug], [true, 'gptbot']);
    const browser = json<{ matched: boolean; heuristic: { label: string } }>(
      (await get(`/tools/classify-ua?ua=${encodeURIComponent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')}`)).text,
    );
    assert.equal(browser.matched, false);
    assert.match(browser.heuristic.label, /not an identification/);
    assertError(await get('/tools/classify-ua?ua='), 400, 'ua');
    assertError(await get(`/tools/classify-ua?ua=${'x'.repeat(9000)}`), 400, 'ua');
  });
  test('verify-crawler: 500 addresses are answered, 501 → 400', async () => {
    // The verdicts themselves, which depend on how old each list is, are in test/verify-verdicts.test.ts.
    const many = Array.from({ length: 501 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`).join(',');
    assertError(await get(`/tools/verify-crawler?ip=${many}`), 400, 'ip');
    assert.equal((await get(`/tools/verify-crawler?ip=${many.split(',').slice(0, 500).join(',')}`)).status, 200);
  });
  test('verify-crawler: an empty item between two commas is reported (an address lost in a paste), not dropped', async () => {
    const body = json<{ results: { input: string; valid: boolean; code?: string }[] }>((await get('/tools/verify-crawler?ip=192.0.2.1,,192.0.2.2')).text);
    assert.deepEqual(
      body.results.map((r) => [r.input, r.valid, r.code ?? null]),
      [
        ['192.0.2.1', true, null],
        ['', false, 'empty'],
        ['192.0.2.2', true, null],
      ],
    );
    assertError(await get('/tools/verify-crawler?ip=%20,%20'), 400, 'ip');
  });
  test('verification-methods: one crawler, or the whole tally with any parameter', async () => {
    const one = json<{ matched: number; crawlers: { slug: string; method: string }[] }>((await get('/tools/verification-methods?crawler=googlebot')).text);
    assert.equal(one.crawlers[0]?.slug, 'googlebot');
    const all = json<{ matched: number; tally: Record<string, number> }>((await get('/tools/verification-methods?s=x')).text);
    assert.ok(all.matched > 100);
    // Each crawler once, by its strongest method.
    assert.equal(
      Object.values(all.tally).reduce((a, b) => a + b, 0),
      all.matched,
    );
    // An operator's name gives all its crawlers, also where one of them has the same name.
    const yandex = json<{ matched: number; crawlers: { slug: string; operator: string }[] }>((await get('/tools/verification-methods?crawler=yandex')).text);
    assert.ok(yandex.matched > 1 && yandex.crawlers.every((c) => c.operator === 'Yandex'));
    assert.ok(yandex.crawlers.some((c) => c.slug === 'yandex'));
    // Given but empty is a mistake, not "every crawler whose substring contains nothing".
    assertError(await get('/tools/verification-methods?crawler='), 400, 'crawler');
  });
  test('whoami: the User-Agent and loopback address of this very request; no invented history', async () => {
    const body = json<{ user_agent: string; address: string; recognised: { slug: string } | null; seen_before: { known: boolean } }>(
      (await get('/tools/whoami', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' })).text,
    );
    assert.equal(body.user_agent, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    assert.equal(body.address, '127.0.0.1');
    assert.equal(body.recognised?.slug, 'googlebot');
    assert.equal(body.seen_before.known, false);
  });
  test('the tool index lists every tool and MCP server: a page at /tools/, JSON at /tools/index.json or by Accept', async () => {
    const page = await get('/tools/');
    assert.match(page.headers['content-type'] ?? '', /^text\/html/);
    for (const tool of HTTP_TOOLS) assert.ok(page.text.includes(`href="${tool.path}.html"`), `the page links the ${tool.path} form`);
    for (const [path, accept] of [
      ['/tools/', 'application/json'],
      ['/tools', 'application/json'],
      ['/tools/index.json', '*/*'],
    ] as const) {
      const body = json<{ tools: { name: string }[] }>((await get(path, { accept })).text);
      assert.deepEqual(
        body.tools.map((t) => t.name),
        TOOLS.map((t) => t.name),
        path,
      );
    }
  });
});

test('random bytes, invalid UTF-8 and huge values never produce a 5xx', async () => {
  const random = seededRandom(7);
  for (let i = 0; i < 120; i++) {
    const tool = HTTP_TOOLS[i % HTTP_TOOLS.length]!;
    const length = random.int(3000);
    const bytes = Buffer.from(Array.from({ length }, () => random.int(256)));
    const value = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    const name = tool.params[0]?.name ?? 'x';
    const response = await get(`/tools/${tool.path}?${name}=${value}`);
    assert.ok(response.status < 500, `${tool.name}: ${response.status} ${response.text.slice(0, 200)}`);
    if (tool.postBody) {
      const posted = await raw(server.url, `/tools/${tool.path}?ua=GPTBot`, { method: 'POST', body: bytes });
      assert.ok(posted.status < 500, `${tool.name} POST: ${posted.status}`);
    }
  }
});

test('every route of the route table answers with CORS and the Link header (docs/API.md §5.5)', async () => {
  const { routes } = await import('../pipeline/routes.ts');
  const values: Record<string, string> = { slug: 'gptbot', policy: 'block-all-ai', source: 'openai-gptbot' };
  const operatorOrCategory = (path: string) => (path.startsWith('/operator/') ? 'openai' : path.startsWith('/category/') ? 'ai-training' : undefined);
  for (const route of routes()) {
    const path = route.parameter
      ? route.path.replace(`{${route.parameter.name}}`, operatorOrCategory(route.path) ?? values[route.parameter.name]!)
      : route.path;
    const post = route.methods.includes('POST') && !route.methods.includes('GET');
    const response = post
      ? await raw(server.url, path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        })
      : await get(path);
    assert.ok(response.status < 500, `${path}: ${response.status}`);
    assert.equal(response.headers['access-control-allow-origin'], '*', path);
    assert.match(response.headers['link'] ?? '', /rel="related"/, path);
    assert.match(response.headers['link'] ?? '', /rel="service-desc"/, path);
  }
});
