import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TOOLS } from '../pipeline/tools/registry/index.ts';
import { cliInProcess } from './support/cli.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { serveMini, type ServedMini } from './support/served.ts';

// The mistakes people make when they call the robots.txt tools, over a real socket: each gets
// the right answer or a 400 that says how to send it instead, never a silent wrong answer.

let served: ServedMini;
before(async () => {
  served = await serveMini({ tools: { threads: 0 } });
});
after(() => served.dispose());

const FILE = 'User-agent: GPTBot\nDisallow: /\n';
const FORM = 'application/x-www-form-urlencoded';
const post = (path: string, body: string | Buffer, type: string | null = null) =>
  raw(served.server.url, path, { method: 'POST', body, headers: type === null ? {} : { 'content-type': type } });
const json = <T>(text: string) => JSON.parse(text) as T;
type Audit = { summary: { blocked: number; allowed: number }; path: string; parsed: { not_robots_txt: string | null } };

test('an empty robots.txt allows everything (RFC 9309), by GET or POST, instead of a 400', async () => {
  for (const answer of [await raw(served.server.url, '/tools/ai-access?robots_txt='), await post('/tools/ai-access', '')]) {
    assert.equal(answer.status, 200, answer.text);
    const audit = json<Audit>(answer.text);
    assert.equal(audit.summary.blocked, 0);
    assert.ok(audit.summary.allowed > 0);
  }
  const allowed = await raw(served.server.url, '/tools/robots-allowed?robots_txt=&ua=GPTBot&path=/private');
  assert.equal(json<{ summary: { allowed: number } }>(allowed.text).summary.allowed, 1);
});

test('curl -d @robots.txt (a form body with its line breaks removed) is refused with the command that works', async () => {
  const answer = await post('/tools/ai-access', FILE.replaceAll('\n', ''), FORM);
  assert.equal(answer.status, 400);
  const error = json<{ error: { field: string; message: string; accepted: string } }>(answer.text).error;
  assert.equal(error.field, 'robots_txt');
  assert.match(error.message, /line breaks removed.*curl --data-binary @robots\.txt/);
  // A one-line file that really is one line is read as it is.
  assert.equal((await post('/tools/ai-access', 'User-agent: *', FORM)).status, 200);
});

test('curl --data-binary (the raw file, under curl’s default form content type) is read as the file', async () => {
  const audit = json<Audit>((await post('/tools/ai-access', FILE, FORM)).text);
  assert.equal(audit.summary.blocked, 1);
});

test('an HTML form (urlencoded, with other fields) and a file upload (multipart) are read as forms', async () => {
  const form = new URLSearchParams({ robots_txt: FILE, path: '/x' }).toString();
  const audit = json<Audit>((await post('/tools/ai-access', form, FORM)).text);
  assert.equal(audit.summary.blocked, 1);
  assert.equal(audit.path, '/x');
  const twice = await post('/tools/ai-access?path=/y', form, FORM);
  assert.equal(twice.status, 400);
  assert.match(json<{ error: { message: string } }>(twice.text).error.message, /both in the query string and in the form/);

  const boundary = 'ci-boundary-7';
  const multipart = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="robots_txt"; filename="robots.txt"',
    'Content-Type: text/plain',
    '',
    FILE,
    `--${boundary}`,
    'Content-Disposition: form-data; name="ua"',
    '',
    'GPTBot',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const upload = await post('/tools/robots-allowed', multipart, `multipart/form-data; boundary=${boundary}`);
  assert.equal(upload.status, 200, upload.text);
  assert.equal(json<{ summary: { disallowed: number } }>(upload.text).summary.disallowed, 1);
  // The site's form: a text box and an upload field; the one filled in counts.
  const pageForm = multipart
    .replace('name="robots_txt"; filename', 'name="robots_txt_file"; filename')
    .replace(
      `--${boundary}\r\nContent-Disposition: form-data; name="ua"`,
      `--${boundary}\r\nContent-Disposition: form-data; name="robots_txt"\r\n\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="ua"`,
    );
  const fromPage = await post('/tools/robots-allowed', pageForm, `multipart/form-data; boundary=${boundary}`);
  assert.equal(fromPage.status, 200, fromPage.text);
  assert.equal(json<{ summary: { disallowed: number } }>(fromPage.text).summary.disallowed, 1);
  const noField = await post('/tools/robots-lint', multipart.replace('name="robots_txt"', 'name="file"'), `multipart/form-data; boundary=${boundary}`);
  assert.equal(noField.status, 400);
  assert.match(json<{ error: { message: string } }>(noField.text).error.message, /no field named robots_txt/);
});

test('a whole User-Agent header in ua is read as the token of the crawler it names, with a note', async () => {
  const ua = encodeURIComponent('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)');
  const answer = json<{ token: string; ua_note: string | null; summary: { disallowed: number } }>(
    (await post(`/tools/robots-allowed?ua=${ua}&path=/`, FILE)).text,
  );
  assert.equal(answer.token, 'GPTBot');
  assert.equal(answer.summary.disallowed, 1);
  assert.match(answer.ua_note ?? '', /whole User-Agent header; it names GPTBot/);
  assert.equal(json<{ ua_note: string | null }>((await post('/tools/robots-allowed?ua=GPTBot', FILE)).text).ua_note, null);
});

test('an HTML page posted as robots.txt is named as such, and every lint finding quotes its line', async () => {
  const page = '<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>404</body></html>\n';
  const lint = json<{ findings: { line: number | null; text: string | null; code: string; severity: string }[] }>(
    (await post('/tools/robots-lint', page)).text,
  );
  assert.deepEqual(
    lint.findings.filter((f) => f.code === 'not-robots-txt').map((f) => [f.severity, f.line, f.text]),
    [['error', null, null]],
  );
  for (const finding of lint.findings.filter((f) => f.line !== null)) assert.equal(finding.text, page.split('\n')[finding.line! - 1]);
  const audit = json<Audit>((await post('/tools/ai-access', page)).text);
  assert.match(audit.parsed.not_robots_txt ?? '', /HTML or XML document, not a robots\.txt/);
  assert.equal(json<Audit>((await post('/tools/ai-access', FILE)).text).parsed.not_robots_txt, null);
});

test('a parameter named like a member of every object (constructor, __proto__, toString) is an unknown parameter, by query, form and upload', async () => {
  const origin = served.server.url;
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const multipart = new FormData();
    multipart.append('robots_txt', FILE);
    multipart.append(name, '1');
    const encoded = new Response(multipart);
    const uploadType = encoded.headers.get('content-type');
    const upload = await encoded.arrayBuffer();
    const answers = {
      query: await raw(origin, `/tools/robots-lint?robots_txt=x&${name}=1`),
      urlencoded: await post('/tools/robots-lint', `robots_txt=x&${name}=1`, FORM),
      multipart: await post('/tools/robots-lint', Buffer.from(upload), uploadType),
    };
    for (const [how, answer] of Object.entries(answers)) {
      assert.equal(answer.status, 400, `${name} by ${how}: ${answer.text}`);
      const error = json<{ error: { field: string; message: string } }>(answer.text).error;
      assert.equal(error.field, name, `${name} by ${how}: ${answer.text}`);
      assert.equal(error.message, `robots-lint has no parameter "${name}".`, `${name} by ${how}`);
    }
  }
});

describe('a robots.txt percent-encoded as a whole is refused with the form that works, on every tool that takes one', () => {
  // What an MCP caller sent that got "0 of 120 blocked": the file URL-encoded once too often.
  const ENCODED = encodeURIComponent('User-agent: *\nDisallow: /\n');
  const MESSAGE = /robots_txt is percent-encoded as a whole: .*decodes to 2 robots\.txt lines \(the first directive: "User-agent: \*"\).*real line breaks/;
  const OTHERS: Readonly<Record<string, Record<string, string>>> = { check_path_allowed: { ua: 'GPTBot' }, merge_policy: { policy: 'block-ai-training' } };
  const robotsTools = TOOLS.filter((tool) => tool.params.some((p) => p.name === 'robots_txt'));

  test('the tools that take one are the five expected', () => {
    assert.deepEqual(robotsTools.map((tool) => tool.name).sort(), ['audit_ai_access', 'check_path_allowed', 'lint_robots_txt', 'merge_policy', 'site_check']);
  });

  for (const tool of robotsTools) {
    test(`MCP ${tool.name}: a tool error naming the encoding; the same file sent as text is answered`, async () => {
      const call = async (robots: string) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: tool.name, arguments: { robots_txt: robots, ...OTHERS[tool.name] } },
        });
        const answer = await raw(served.server.url, '/mcp', { method: 'POST', headers: JSON_RPC_HEADERS, body });
        return json<{ result: { isError?: boolean; content: { text: string }[] } }>(answer.text).result;
      };
      const refused = await call(ENCODED);
      assert.equal(refused.isError, true, JSON.stringify(refused).slice(0, 300));
      assert.match(refused.content[0]!.text, MESSAGE);
      assert.notEqual((await call('User-agent: *\nDisallow: /\n')).isError, true);
    });
    if (tool.path === null) continue;
    test(`HTTP /tools/${tool.path}: 400 naming the encoding, as a POST body and as a query value encoded twice`, async () => {
      const query = new URLSearchParams(OTHERS[tool.name] ?? {}).toString();
      const answers = [
        await post(`/tools/${tool.path}?${query}`, ENCODED, 'text/plain'),
        await raw(served.server.url, `/tools/${tool.path}?${query}${query === '' ? '' : '&'}robots_txt=${encodeURIComponent(ENCODED)}`),
      ];
      for (const answer of answers) {
        assert.equal(answer.status, 400, answer.text.slice(0, 300));
        const error = json<{ error: { field: string; message: string } }>(answer.text).error;
        assert.equal(error.field, 'robots_txt');
        assert.match(error.message, MESSAGE);
      }
    });
  }

  test('a one-line file that holds %0A in a path is a file, not an encoded one', async () => {
    const answer = await post('/tools/robots-allowed?ua=GPTBot&path=/a', 'User-agent: *%0ADisallow: /a%0Ab', 'text/plain');
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.equal((await post('/tools/robots-lint', 'Disallow: /a%0Ab', 'text/plain')).status, 200);
  });
});

test('an empty ua is a question, not a mistake (RFC 9309 2.2.1: no group names it, so * applies): GET, POST form, MCP, A2A and the CLI', async () => {
  const file = 'User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n';
  type Verdicts = { token: string; results: { path: string; allowed: boolean; matched_by: string; notes: string[] }[] };
  const expectStar = (answer: Verdicts, how: string) => {
    assert.equal(answer.token, '', how);
    assert.deepEqual(
      answer.results.map((r) => [r.path, r.allowed, r.matched_by]),
      [
        ['/x', true, 'star'],
        ['/private', false, 'star'],
      ],
      how,
    );
    assert.match(answer.results[0]!.notes.join(' '), /no product token was given.*"\*" group applies \(RFC 9309 2\.2\.1\)/, how);
  };
  const query = `robots_txt=${encodeURIComponent(file)}&ua=&path=/x,/private`;
  const get = await raw(served.server.url, `/tools/robots-allowed?${query}`);
  assert.equal(get.status, 200, get.text);
  expectStar(json<Verdicts>(get.text), 'GET');
  // A browser sends the ua field blank; for ua blank is the question itself, not "not given".
  const form = await post('/tools/robots-allowed', new URLSearchParams({ robots_txt: file, ua: '', path: '/x,/private' }).toString(), FORM);
  assert.equal(form.status, 200, form.text);
  expectStar(json<Verdicts>(form.text), 'POST form');
  const rawBody = await post('/tools/robots-allowed?ua=&path=/x,/private', file);
  assert.equal(rawBody.status, 200, rawBody.text);
  expectStar(json<Verdicts>(rawBody.text), 'POST raw body');
  // Leaving ua out is still a 400: a call that forgets it is not taken as asking for no crawler.
  assert.equal((await post('/tools/robots-allowed?path=/x', file)).status, 400);

  const args = { robots_txt: file, ua: '', path: ['/x', '/private'] };
  const mcp = await raw(served.server.url, '/robots/mcp', {
    method: 'POST',
    headers: JSON_RPC_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'check_path_allowed', arguments: args } }),
  });
  const result = json<{ result: { isError?: boolean; structuredContent: Verdicts; content: { text: string }[] } }>(mcp.text).result;
  assert.equal(result.isError, undefined, mcp.text.slice(0, 300));
  expectStar(result.structuredContent, 'MCP');
  // The summary a model reads first names the question, not a blank.
  assert.match(result.content[0]!.text, /^\/x: allowed for an empty user agent \(/, result.content[0]!.text);

  const a2a = await raw(served.server.url, '/a2a', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'message/send',
      params: {
        message: { kind: 'message', role: 'user', messageId: 'empty-ua', parts: [{ kind: 'data', data: { skill: 'check_path_allowed', input: args } }] },
      },
    }),
  });
  const parts = json<{ result: { parts: { kind: string; data?: { output?: Verdicts } }[] } }>(a2a.text).result.parts;
  const output = parts.find((p) => p.kind === 'data')?.data?.output;
  assert.ok(output, a2a.text.slice(0, 300));
  expectStar(output, 'A2A');

  const dir = await mkdtemp(join(tmpdir(), 'empty-ua-'));
  try {
    await writeFile(join(dir, 'robots.txt'), file);
    const ran = await cliInProcess('allowed', join(dir, 'robots.txt'), '--ua', '', '--path', '/x', '/private', '--json');
    assert.equal(ran.code, 0, ran.stderr);
    expectStar(json<Verdicts>(ran.stdout), 'CLI');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a query whose percent-encoded bytes are not UTF-8 is refused naming the parameter, not answered for U+FFFD', async () => {
  // Latin-1 bytes (a client that encoded "café" as ISO-8859-1), a sequence cut short, and a
  // byte that never starts a character: each would otherwise be read as U+FFFD.
  for (const [query, field] of [
    ['ua=caf%E9', 'ua'],
    ['ua=GPTBot%E2%82', 'ua'],
    ['ua=GPTBot&path=/%FF', 'path'],
    ['robots_txt=User-agent:%20*&ua%FF=x', 'ua\uFFFD'],
  ] as const) {
    const answer = await raw(served.server.url, `/tools/robots-allowed?${query}`);
    assert.equal(answer.status, 400, query);
    const error = json<{ error: { code: string; field: string; message: string; accepted: string } }>(answer.text).error;
    assert.equal(error.code, 'invalid_parameter', query);
    assert.equal(error.field, field, query);
    assert.match(error.message, /percent-encoded bytes that are not UTF-8/, query);
    assert.match(error.accepted, /UTF-8 bytes are percent-encoded/, query);
  }
  // UTF-8 percent-encoded, a bare % and an escape that is not one are text as URLSearchParams
  // reads it, and answered.
  for (const query of ['ua=caf%C3%A9', 'ua=GPTBot%20%F0%9F%A4%96', 'ua=100%', 'ua=%ZZ']) {
    assert.equal((await raw(served.server.url, `/tools/classify-ua?${query}`)).status, 200, query);
  }
  // A form's other fields get the same rule; the file is read as a crawler reads it, whatever its
  // bytes (an ISO-8859-1 comment), in a query, in a form and as the raw body alike.
  const latin1File = 'robots_txt=%23%20caf%E9%0AUser-agent:%20GPTBot%0ADisallow:%20/';
  const refused = await post('/tools/robots-allowed', `${latin1File}&ua=caf%E9&path=/`, FORM);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(json<{ error: { field: string } }>(refused.text).error.field, 'ua');
  for (const answer of [
    await raw(served.server.url, `/tools/robots-allowed?${latin1File}&ua=GPTBot&path=/`),
    await post('/tools/robots-allowed', `${latin1File}&ua=GPTBot&path=/`, FORM),
    await post('/tools/robots-allowed?ua=GPTBot&path=/', Buffer.from('# caf\xe9\nUser-agent: GPTBot\nDisallow: /\n', 'latin1')),
  ]) {
    assert.equal(answer.status, 200, answer.text);
    assert.equal(json<{ summary: { disallowed: number } }>(answer.text).summary.disallowed, 1);
  }
});
