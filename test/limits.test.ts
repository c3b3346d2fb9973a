import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { handleA2a } from '../pipeline/http/a2a/endpoint.ts';
import { handleMcp } from '../pipeline/http/mcp.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import type { SiteSettings } from '../pipeline/records/types.ts';
import { callTool } from '../pipeline/http/tools-http.ts';
import { validatorFor } from '../pipeline/schema/ajv.ts';
import { MCP_SERVERS, toolByName, type ToolData } from '../pipeline/tools/registry/index.ts';
import {
  EVALUATION_BUDGET,
  LISTED_FINDINGS,
  LISTED_UNKNOWN_TOKENS,
  MAX_ANSWER_BYTES,
  MAX_PATH_BYTES,
  MAX_PATHS_TOTAL_BYTES,
  SUGGESTED_TOKENS,
} from '../pipeline/tools/registry/limits.ts';
import { suggestionIndex, suggestToken } from '../pipeline/tools/robots/suggest-token.ts';
import { boundedEditDistance } from '../pipeline/tools/robots/distance.ts';
import { evaluationCost, GROUP_LISTED, parseRobotsTxt } from '../pipeline/tools/robots/index.ts';
import { jsonBounds, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../pipeline/http/jsonrpc.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { relocate } from '../pipeline/util/relocate.ts';
import { serveMini, type ServedMini } from './support/served.ts';
import { inPlace } from './support/tool-data.ts';
import { fillToLimit as fill } from './support/robots-inputs.ts';

// docs/API.md §8: no single call may hold the event loop for long or answer with more
// than a bounded number of bytes. Timings never decide a test: the bounds are asserted as
// counted work units, caps, statuses and messages, over a real socket.

const JSON_HEADERS = JSON_RPC_HEADERS;
const validateError = validatorFor('outputs/error.schema.json');

let served: ServedMini;
let server: RunningServer;
let data: ToolData;

before(async () => {
  // Calls run in place: the limits are the tools' and the transports', the same on a thread
  // (test/tool-threads.test.ts sends the deepest bodies to a server with threads).
  served = await serveMini({ tools: { threads: 0 } });
  ({ server, data } = served);
});
after(() => served.dispose());

// The costliest robots.txt the limits accept (docs/API.md §8): wildcard rules whose literal piece nearly matches everywhere.
const WILDCARDS = fill((i) => `Disallow: /*ab${i}`, 'User-agent: *\n');
const LONG_PATHS = Array.from({ length: 200 }, (_, i) => '/' + `ab${i}b`.repeat(500).slice(0, 1999));

interface Rpc {
  status: number;
  text: string;
  body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };
}

async function rpc(path: string, body: unknown): Promise<Rpc> {
  const response = await raw(server.url, path, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  return { status: response.status, text: response.text, body: JSON.parse(response.text) as Rpc['body'] };
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** The text of an MCP tool result that is an error (isError), which is how refused arguments and limits come back. */
function toolErrorText(answer: Pick<Rpc, 'body' | 'text'>): string {
  const result = answer.body.result as { isError?: boolean; content?: { text: string }[] } | undefined;
  assert.equal(result?.isError, true, answer.text.slice(0, 300));
  return result.content![0]!.text;
}

function errorOf(response: { status: number; text: string }, status: number, field: string): { message: string; accepted: string } {
  assert.equal(response.status, status, response.text.slice(0, 500));
  const body = JSON.parse(response.text) as { error: { field?: string; message: string; accepted: string } };
  assert.ok(validateError(body), JSON.stringify(validateError.errors));
  assert.equal(body.error.field, field);
  return body.error;
}

describe('check_path_allowed: a work budget on rules x paths x length, counted before matching', () => {
  test("the issue's request is refused up front with a 400 naming its cost and the budget (HTTP POST)", async () => {
    const query = LONG_PATHS.slice(0, 4)
      .map((p) => `path=${encodeURIComponent(p)}`)
      .join('&');
    const response = await raw(server.url, `/tools/robots-allowed?ua=GPTBot&${query}`, { method: 'POST', body: WILDCARDS });
    const error = errorOf(response, 400, 'path');
    const cost = evaluationCost(parseRobotsTxt(WILDCARDS), ['GPTBot'], LONG_PATHS.slice(0, 4));
    assert.ok(cost > EVALUATION_BUDGET);
    assert.match(error.message, new RegExp(`needs ${cost} work units; the budget is ${EVALUATION_BUDGET} per call`));
    assert.match(error.accepted, new RegExp(`at most ${EVALUATION_BUDGET} work units`));
  });

  test('the same over MCP → a tool error (isError) naming the field, the cost and the budget', async () => {
    const answer = await rpc('/robots/mcp', call(1, 'check_path_allowed', { robots_txt: WILDCARDS, ua: 'GPTBot', path: LONG_PATHS }));
    assert.equal(answer.status, 200);
    const text = toolErrorText(answer);
    assert.match(text, /Invalid argument "path" for check_path_allowed/);
    assert.match(text, new RegExp(`the budget is ${EVALUATION_BUDGET} per call`));
  });

  test('the same file with a few short paths fits the budget and is answered', async () => {
    const paths = ['/ab12', '/x/ab3y', '/nothing'];
    assert.ok(evaluationCost(parseRobotsTxt(WILDCARDS), ['GPTBot'], paths) <= EVALUATION_BUDGET);
    const answer = await rpc('/robots/mcp', call(2, 'check_path_allowed', { robots_txt: WILDCARDS, ua: 'GPTBot', path: paths }));
    const results = (answer.body.result!['structuredContent'] as { results: { allowed: boolean }[] }).results;
    assert.deepEqual(
      results.map((r) => r.allowed),
      [false, false, true],
    );
  });

  test('the cost counts each distinct search once: rules of the applying groups x (normalised length + per-comparison units)', () => {
    const parsed = parseRobotsTxt('User-agent: *\nDisallow: /a\nDisallow: /b\n\nUser-agent: GPTBot\nDisallow: /c\n');
    // GPTBot: its own group, searched longest-first and in file order (1 rule each), and the
    // first group in file order (the * group, 2 rules) for the first-group-wins comparison.
    const perPath = (length: number) => length + 40;
    assert.equal(evaluationCost(parsed, ['GPTBot'], ['/x']), (1 + 1 + 2) * perPath(2));
    // A repeated path and a repeated token cost nothing more.
    assert.equal(evaluationCost(parsed, ['GPTBot', 'gptbot'], ['/x', '/x']), (1 + 1 + 2) * perPath(2));
    // Percent-encoding lengthens the path that is matched, and the cost follows it; Google's parser
    // reads that path unencoded, so its reading of GPTBot's group (1 rule) is searched too.
    assert.equal(evaluationCost(parsed, ['GPTBot'], ['/é']), (1 + 1 + 2 + 1) * perPath('/%C3%A9'.length));
  });

  test(`a path over ${MAX_PATH_BYTES} bytes → 400 naming the item and the limit (a POST form); MCP → a tool error`, async () => {
    const long = '/' + 'a'.repeat(MAX_PATH_BYTES);
    const form = `robots_txt=User-agent:%20*&ua=GPTBot&path=/ok,${long}`;
    const error = errorOf(
      await raw(server.url, '/tools/robots-allowed', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }),
      400,
      'path',
    );
    assert.match(error.message, new RegExp(`path item 2 is larger than ${MAX_PATH_BYTES} bytes`));
    assert.match(error.accepted, new RegExp(`at most ${MAX_PATH_BYTES} bytes each`));
    const answer = await rpc('/robots/mcp', call(3, 'check_path_allowed', { robots_txt: 'User-agent: *\n', ua: 'GPTBot', path: [long] }));
    assert.match(toolErrorText(answer), new RegExp(`larger than ${MAX_PATH_BYTES} bytes`));
    // Exactly at the limit is accepted; multi-byte characters count as bytes.
    const atLimit = '/' + 'a'.repeat(MAX_PATH_BYTES - 1);
    assert.equal(
      (await rpc('/robots/mcp', call(4, 'check_path_allowed', { robots_txt: 'User-agent: *\n', ua: 'GPTBot', path: [atLimit] }))).body.result?.['isError'],
      undefined,
    );
    const wide = '/' + 'é'.repeat(MAX_PATH_BYTES / 2);
    assert.match(
      toolErrorText(await rpc('/robots/mcp', call(5, 'check_path_allowed', { robots_txt: 'User-agent: *\n', ua: 'GPTBot', path: [wide] }))),
      /larger than/,
    );
  });

  test(`a merged group of thousands of user-agent lines is listed by its first ${GROUP_LISTED} lines and counted whole`, async () => {
    const stars = fill(() => 'User-agent: *\nDisallow: /private');
    const groups = parseRobotsTxt(stars).groups.length;
    const answer = await rpc('/robots/mcp', call(6, 'check_path_allowed', { robots_txt: stars, ua: 'GPTBot', path: ['/private/x', '/public'] }));
    const results = (
      answer.body.result!['structuredContent'] as {
        results: { allowed: boolean; group: { lines: number[]; tokens: string[]; line_count: number; token_count: number } }[];
      }
    ).results;
    assert.deepEqual(
      results.map((r) => r.allowed),
      [false, true],
    );
    assert.equal(results[0]!.group.lines.length, GROUP_LISTED);
    assert.equal(results[0]!.group.line_count, groups);
    assert.deepEqual(results[0]!.group.tokens, ['*']);
    assert.ok(answer.text.length < 100_000, `${answer.text.length} bytes`);
  });
});

describe('long paths: accepted in a POST body, a clear 431 in a GET (docs/API.md)', () => {
  // google/robotstxt's long-line test: a rule longer than the 16,663 bytes of a line Google's parser keeps, and a path of 16,656 bytes.
  const rule = `/x/${'a'.repeat(16_649)}/qux`;
  const file = `user-agent: FooBot\ndisallow: ${rule}\n`;
  const path = `/x/${'a'.repeat(16_649)}/fux`;
  const formType = { 'content-type': 'application/x-www-form-urlencoded' };

  test('a 16,656-byte path in a POST form is answered by RFC 9309, with the cut line Google would read said in a note', async () => {
    const form = new URLSearchParams({ robots_txt: file, ua: 'FooBot', path }).toString();
    const response = await raw(server.url, '/tools/robots-allowed', { method: 'POST', headers: formType, body: form });
    assert.equal(response.status, 200, response.text.slice(0, 300));
    const [result] = (JSON.parse(response.text) as { results: { allowed: boolean; disagreements: { google_parser: boolean }; notes: string[] }[] }).results;
    assert.equal(result?.allowed, true, 'the whole rule does not match');
    assert.equal(result.disagreements.google_parser, true);
    assert.ok(result.notes.some((n) => /first 16663 bytes of line 2/.test(n)));
  });

  test('the same path in a GET → 431 headers_too_large, JSON naming the limit and the POST alternative', async () => {
    const response = await raw(server.url, `/tools/robots-allowed?robots_txt=${encodeURIComponent(file.slice(0, 40))}&ua=FooBot&path=${path}`);
    assert.equal(response.status, 431);
    const body = JSON.parse(response.text) as { error: { code: string; message: string } };
    assert.ok(validateError(body), JSON.stringify(validateError.errors));
    assert.equal(body.error.code, 'headers_too_large');
    assert.match(body.error.message, /larger than 16384 bytes/);
    assert.match(body.error.message, /POST body.*long paths as form fields/);
  });

  test(`paths of ${MAX_PATHS_TOTAL_BYTES} bytes together are answered; one byte more is refused naming both limits (MCP)`, async () => {
    const paths = (last: number) => [...Array.from({ length: 12 }, (_, i) => `/${i}`.padEnd(MAX_PATH_BYTES, 'a')), '/'.padEnd(last, 'b')];
    const fits = paths(MAX_PATHS_TOTAL_BYTES - 12 * MAX_PATH_BYTES);
    const answer = await rpc('/robots/mcp', call(7, 'check_path_allowed', { robots_txt: 'User-agent: *\nDisallow: /1\n', ua: 'GPTBot', path: fits }));
    assert.equal(answer.body.result?.['isError'], undefined, answer.text.slice(0, 300));
    const over = await rpc(
      '/robots/mcp',
      call(8, 'check_path_allowed', { robots_txt: 'User-agent: *\n', ua: 'GPTBot', path: paths(MAX_PATHS_TOTAL_BYTES - 12 * MAX_PATH_BYTES + 1) }),
    );
    assert.match(toolErrorText(over), new RegExp(`13 paths hold ${MAX_PATHS_TOTAL_BYTES + 1} bytes together; one call takes at most ${MAX_PATHS_TOTAL_BYTES}`));
  });

  test("the tool's specification lists 431 and the per-item path limit", async () => {
    const spec = JSON.parse((await raw(server.url, '/tools/robots-allowed')).text) as {
      http: { statuses: number[]; post_body: string; parameters: { name: string; max_item_bytes?: number }[] };
    };
    assert.ok(spec.http.statuses.includes(431));
    assert.match(spec.http.post_body, /431 headers_too_large/);
    assert.equal(spec.http.parameters.find((p) => p.name === 'path')?.max_item_bytes, MAX_PATH_BYTES);
  });
});

describe('did you mean: bounded suggestions with a cheap pre-filter', () => {
  // Distinct unknown tokens first, then a misspelling of a known crawler past the suggestion limit.
  const unknown = Array.from({ length: 3000 }, (_, i) => `Unknownbot${i.toString(36)}`);
  const file = ['User-agent: GPTBott', ...unknown.map((t) => `User-agent: ${t}`), 'User-agent: PerplexityBott', 'Disallow: /'].join('\n') + '\n';

  test(`ai-access lists ${LISTED_UNKNOWN_TOKENS} unknown lines, suggests for the first ${SUGGESTED_TOKENS} distinct tokens and says so`, async () => {
    const response = await raw(server.url, '/tools/ai-access', { method: 'POST', body: file });
    assert.equal(response.status, 200, response.text.slice(0, 300));
    const body = JSON.parse(response.text) as {
      unknown_tokens: { token: string; did_you_mean: string | null }[];
      unknown_token_counts: { lines: number; listed: number; distinct: number; suggested_for: number; note: string | null };
    };
    assert.deepEqual(
      { ...body.unknown_token_counts, note: null },
      { lines: 3002, listed: LISTED_UNKNOWN_TOKENS, distinct: 3002, suggested_for: SUGGESTED_TOKENS, note: null },
    );
    assert.match(body.unknown_token_counts.note ?? '', /for the first 50 distinct tokens only/);
    assert.equal(body.unknown_tokens.length, LISTED_UNKNOWN_TOKENS);
    assert.equal(body.unknown_tokens[0]!.did_you_mean, 'GPTBot');
    assert.ok(body.unknown_tokens.slice(SUGGESTED_TOKENS).every((t) => t.did_you_mean === null));
  });

  test('site_check over MCP carries the same limits and a bounded lint', async () => {
    const answer = await rpc('/mcp/doctor', call(7, 'site_check', { robots_txt: file }));
    const output = answer.body.result?.['structuredContent'] as {
      ai_access: { unknown_token_counts: { suggested_for: number } };
      lint: { findings: unknown[]; findings_omitted: number };
    };
    assert.equal(output.ai_access.unknown_token_counts.suggested_for, SUGGESTED_TOKENS);
    assert.ok(output.lint.findings.length <= LISTED_FINDINGS);
  });

  test('the bounded distance fills no cell for strings whose length or letters differ too much, and at most a band otherwise', () => {
    const cells = { count: 0 };
    assert.equal(boundedEditDistance('x'.repeat(100_000), 'gptbot', 2, cells), 3);
    assert.equal(boundedEditDistance('qqqqzzzz', 'gptbotab', 2, cells), 3);
    assert.equal(cells.count, 0);
    assert.equal(boundedEditDistance('gtpbot', 'gptbot', 2, cells), 1);
    assert.ok(cells.count <= 6 * (2 * 2 + 1), `${cells.count} cells`);
    const index = suggestionIndex(['Googlebot', 'GPTBot'].map((name) => ({ name, token: name })));
    assert.equal(suggestToken('GPTBott', index)?.token, 'GPTBot');
    assert.equal(suggestToken('x'.repeat(100_000), index), null);
  });
});

describe('robots-lint: linear, with a bounded list of findings', () => {
  test(`512 KB of unknown keys → the first ${LISTED_FINDINGS} findings listed, the rest counted`, async () => {
    const file = fill((i) => `key${i}: x`, 'User-agent: *\n');
    const lines = file.split('\n').length - 2;
    const response = await raw(server.url, '/tools/robots-lint', { method: 'POST', body: file });
    assert.equal(response.status, 200);
    const body = JSON.parse(response.text) as { counts: Record<string, number>; findings: { line: number }[]; findings_omitted: number };
    assert.equal(body.findings.length, LISTED_FINDINGS);
    assert.equal(body.counts['info'], lines);
    assert.equal(body.findings_omitted, lines - LISTED_FINDINGS);
    assert.deepEqual(
      body.findings.slice(0, 2).map((f) => f.line),
      [2, 3],
    );
  });

  test('a key that is a member of every object (constructor, __proto__) is an unknown directive, not a crash', async () => {
    const response = await raw(server.url, '/tools/robots-lint', { method: 'POST', body: 'User-agent: *\nconstructor: x\n__proto__: y\nhasOwnProperty: z\n' });
    const body = JSON.parse(response.text) as { findings: { code: string; severity: string }[] };
    assert.deepEqual(
      body.findings.map((f) => [f.code, f.severity]),
      [
        ['unknown-directive', 'info'],
        ['unknown-directive', 'info'],
        ['unknown-directive', 'info'],
      ],
    );
  });
});

describe('MCP and A2A: one request per POST', () => {
  test('a JSON-RPC batch (100 verify_batch calls, docs/API.md §4.6) → HTTP 400, -32600, one request per POST', async () => {
    const ips = Array.from({ length: 500 }, (_, i) => `66.249.${i % 256}.${(i * 7) % 256}`);
    const batch = Array.from({ length: 100 }, (_, i) => call(i + 1, 'verify_batch', { ip: ips.slice(0, 10), ua: 'Googlebot' }));
    const answer = await rpc('/mcp/netcheck', batch);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error?.code, -32600);
    assert.equal(answer.body.id, null);
    assert.match(answer.body.error.message, /batches .* are not accepted.*one JSON-RPC request per POST/);
    assert.ok(answer.text.length < 1000, `${answer.text.length} bytes answered`);
    // Two plain requests in an array, on every MCP path.
    for (const spec of MCP_SERVERS) {
      const pair = await rpc(spec.path, [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]);
      assert.equal(pair.status, 400, spec.path);
      assert.equal(pair.body.error?.code, -32600, spec.path);
    }
  });

  test('A2A refuses a batch the same way', async () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { role: 'user', messageId: '1', parts: [{ kind: 'text', text: 'who am I' }] } },
    };
    const answer = await rpc('/a2a', [message, message]);
    assert.equal(answer.body.error?.code, -32600);
    assert.match(answer.body.error.message, /one JSON-RPC request per POST/);
  });
});

describe(`JSON-RPC bodies nested at most ${MAX_JSON_DEPTH} levels`, () => {
  /** A tool call whose argument is an array nested `levels` deep, as text (JSON.stringify would recurse). */
  const nested = (levels: number, wrap: (value: string) => string) => wrap('['.repeat(levels) + ']'.repeat(levels));
  const mcpCall = (value: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"classify_user_agent","arguments":{"ua":${value}}}}`;
  const a2aCall = (value: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","messageId":"m","parts":[{"kind":"data","data":{"skill":"classify_user_agent","input":{"ua":${value}}}}]}}}`;
  const post = (path: string, body: string) => raw(server.url, path, { method: 'POST', headers: JSON_HEADERS, body });

  test('A2A: a data part nested 100,000 deep → -32700 naming the limit, not a 500', async () => {
    const answer = await post('/a2a', nested(100_000, a2aCall));
    assert.equal(answer.status, 200);
    const body = JSON.parse(answer.text) as Rpc['body'];
    assert.equal(body.error?.code, -32700);
    assert.match(body.error.message, new RegExp(`more than ${MAX_JSON_DEPTH} levels deep`));
  });

  test(`${MAX_JSON_DEPTH} levels are read; brackets inside strings do not count`, async () => {
    const text = '{"a": "[[[[{{{{", "b": [[]], "c": "\\"["}';
    assert.equal(jsonBounds(text, 3), null);
    assert.equal(jsonBounds(text, 2), 'too-deep');
    // The envelope, params and arguments take 3 levels: at the limit the argument is refused by
    // the tool (a tool error a model can read), one level more by the parser.
    const atLimit = await post('/mcp', nested(MAX_JSON_DEPTH - 3, mcpCall));
    const body = JSON.parse(atLimit.text) as { result?: { isError?: boolean } };
    assert.equal(body.result?.isError, true, atLimit.text.slice(0, 300));
    const over = JSON.parse((await post('/mcp', nested(MAX_JSON_DEPTH - 2, mcpCall))).text) as Rpc['body'];
    assert.equal(over.error?.code, -32700);
  });
});

describe(`JSON-RPC bodies hold at most ${MAX_JSON_VALUES} values`, () => {
  const post = (path: string, body: string) => raw(server.url, path, { method: 'POST', headers: JSON_HEADERS, body });
  /** A classify call whose arguments carry `extra` names besides ua, as text. */
  const crowded = (extra: number) =>
    `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"classify_user_agent","arguments":{"ua":"GPTBot/1.2"${Array.from({ length: extra }, (_, i) => `,"k${i}":"v"`).join('')}}}}`;

  test('MCP: a call whose arguments carry 60,000 extra names → -32700 naming the limit, before any schema walks them', async () => {
    const answer = await post('/mcp', crowded(60_000));
    assert.equal(answer.status, 400);
    const body = JSON.parse(answer.text) as Rpc['body'];
    assert.equal(body.error?.code, -32700);
    assert.match(body.error.message, new RegExp(`more than ${MAX_JSON_VALUES} values`));
  });

  test('A2A: a data part with 60,000 names → -32700 naming the limit', async () => {
    const names = Array.from({ length: 60_000 }, (_, i) => `"k${i}":"v"`).join(',');
    const answer = await post(
      '/a2a',
      `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","messageId":"m","parts":[{"kind":"data","data":{${names}}}]}}}`,
    );
    const body = JSON.parse(answer.text) as Rpc['body'];
    assert.equal(body.error?.code, -32700);
    assert.match(body.error.message, new RegExp(`more than ${MAX_JSON_VALUES} values`));
  });

  test('the largest lists a tool takes fit: 500 addresses and a few extra names are read, and counted values inside strings are not values', async () => {
    // Two members and two items: four separators, and those inside the string are text.
    assert.equal(jsonBounds('{"a": "::,,::", "b": [1, 2]}', 64, 4), null);
    assert.equal(jsonBounds('{"a": "::,,::", "b": [1, 2, 3]}', 64, 4), 'too-many-values');
    const addresses = Array.from({ length: 500 }, (_, i) => `"192.0.2.${i % 250}"`).join(',');
    const answer = await post(
      '/netcheck/mcp',
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"verify_batch","arguments":{"ua":"Googlebot","ip":[${addresses}]}}}`,
    );
    const body = JSON.parse(answer.text) as { result?: { isError?: boolean; structuredContent?: { results: unknown[] } } };
    assert.equal(body.result?.isError, undefined, answer.text.slice(0, 300));
    assert.equal(body.result?.structuredContent?.results.length, 500, 'every address is judged');
  });
});

describe(`every answer is capped at ${MAX_ANSWER_BYTES} bytes`, () => {
  // No tool answers that much from the mini index, so its data is inflated on purpose: the
  // whole verification tally over 2,000 copies of each crawler, about 5 MB compact (as MCP and
  // A2A carry it) and 7 MB indented (as HTTP sends it), both over the limit; each refusal
  // below names the size it refused, so a tally that fitted would fail these tests, not pass them.
  const inflated = (): ToolData => ({ ...data, crawlers: Array.from({ length: 2_000 }, () => data.crawlers).flat() });
  const caller = { userAgent: null, address: null };

  test('MCP: a tool error naming the limit; nothing of the answer is sent', async () => {
    const spec = MCP_SERVERS.find((s) => s.path === '/netcheck/mcp')!;
    const request = new Request('http://localhost/netcheck/mcp', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(call(1, 'verification_methods', {})),
    });
    const response = await handleMcp(request, spec, inPlace(inflated()));
    const text = await response.text();
    const body = JSON.parse(text) as Rpc['body'];
    assert.match(toolErrorText({ body, text }), new RegExp(`over the limit of ${MAX_ANSWER_BYTES} bytes per call`));
    assert.ok(text.length < 1000);
  });

  test('HTTP tool endpoint: 400 answer_too_large naming the limit', async () => {
    const url = new URL('http://localhost/tools/verification-methods?s=all');
    const result = await callTool({
      tool: toolByName('verification_methods')!,
      request: new Request(url),
      url,
      baseUrl: inflated().baseUrl,
      caller,
      runner: inPlace(inflated()).runner,
      generatedAt: '2026-01-01T00:00:00Z',
      headers: {},
      origin: 'http://localhost',
    });
    assert.ok('response' in result, 'refused, not answered');
    const body = JSON.parse(await result.response.text()) as { error: { code: string; status: number; message: string } };
    assert.ok(validateError(body));
    assert.equal(body.error.status, 400);
    assert.equal(body.error.code, 'answer_too_large');
    assert.match(body.error.message, new RegExp(`over the limit of ${MAX_ANSWER_BYTES} bytes per call`));
  });

  test('A2A: -32602 naming the limit', async () => {
    const site: SiteSettings = {
      name: 'Test',
      base_url: 'http://localhost',
      repository: 'https://example.com/repo',
      license: 'CC0-1.0',
      contact: 'test@example.com',
      security_contact: 'test@example.com',
    };
    const body = {
      jsonrpc: '2.0',
      id: 'a',
      method: 'message/send',
      params: { message: { role: 'user', messageId: '1', parts: [{ kind: 'data', data: { skill: 'verification_methods', input: {} } }] } },
    };
    const response = await handleA2a(
      new Request('http://localhost/a2a', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) }),
      inPlace(inflated()),
      site,
    );
    const answer = JSON.parse(await response.text()) as Rpc['body'];
    assert.equal(answer.error?.code, -32602);
    assert.match(answer.error.message, new RegExp(`limit of ${MAX_ANSWER_BYTES} bytes`));
  });
});

describe(`the ${MAX_ANSWER_BYTES}-byte limit holds for the bytes sent, envelope and origin included`, () => {
  // The tally over `copies` copies of each crawler: about 3,650 bytes of canonical JSON per copy
  // (2,600 without its indentation, as MCP and A2A send it), with three addresses on the build's
  // base URL in each, which the handler rewrites to the origin the client used (http/origin.ts relocate).
  const sized = (copies: number): ToolData => ({ ...data, crawlers: Array.from({ length: copies }, () => data.crawlers).flat() });
  /** A valid origin a client can name with its Host header, far longer than the build's. */
  const LONG_ORIGIN = `http://${Array.from({ length: 4 }, () => 'a'.repeat(40)).join('.')}.example`;
  const caller = { userAgent: null, address: null };
  /** verification_methods over HTTP, on `toolData`, with its addresses naming `origin`. */
  const verificationMethodsOverHttp = (toolData: ToolData, origin: string) => {
    const url = new URL('http://localhost/tools/verification-methods?s=all');
    return callTool({
      tool: toolByName('verification_methods')!,
      request: new Request(url),
      url,
      baseUrl: toolData.baseUrl,
      caller,
      runner: inPlace(toolData).runner,
      generatedAt: '2026-01-01T00:00:00Z',
      headers: {},
      origin,
    });
  };
  const bytesSent = (text: string, from: string, to: string) => Buffer.byteLength(relocate(text, from, to));

  test('MCP: an output of 2.6 MB, sent twice in the answer, is refused as a tool error instead of sent over the limit', async () => {
    const inflated = sized(1_000);
    const spec = MCP_SERVERS.find((s) => s.path === '/netcheck/mcp')!;
    const request = new Request('http://localhost/netcheck/mcp', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(call(1, 'verification_methods', {})),
    });
    const text = await (await handleMcp(request, spec, inPlace(inflated))).text();
    assert.ok(Buffer.byteLength(text) <= MAX_ANSWER_BYTES, `${Buffer.byteLength(text)} bytes sent`);
    assert.match(toolErrorText({ body: JSON.parse(text) as Rpc['body'], text }), new RegExp(`over the limit of ${MAX_ANSWER_BYTES} bytes per call`));
    // The same output fits an HTTP answer, which sends it once: near the limit is still answered.
    const http = await verificationMethodsOverHttp(inflated, inflated.baseUrl);
    assert.ok('document' in http && http.document.bytes.length > 2_000_000, 'answered');
  });

  test('HTTP: an answer that fits before its addresses name a long origin, and not after, is 400 answer_too_large', async () => {
    const inflated = sized(1_145);
    const at = (origin: string) => verificationMethodsOverHttp(inflated, origin);
    const short = await at(inflated.baseUrl);
    assert.ok('document' in short && short.document.bytes.length <= MAX_ANSWER_BYTES, 'answered under its own origin');
    const long = await at(LONG_ORIGIN);
    assert.ok('response' in long, `refused, not ${'document' in long ? long.document.bytes.length : 0} bytes sent`);
    const body = JSON.parse(await long.response.text()) as { error: { code: string; status: number; message: string } };
    assert.ok(validateError(body));
    assert.equal(body.error.code, 'answer_too_large');
  });

  test('A2A: an answer that would cross the limit once its addresses name the origin is refused', async () => {
    const inflated = sized(1_400);
    const context = { ...inPlace(inflated), origin: LONG_ORIGIN };
    const site: SiteSettings = {
      name: 'Test',
      base_url: 'http://localhost',
      repository: 'https://example.com/repo',
      license: 'CC0-1.0',
      contact: 'test@example.com',
      security_contact: 'test@example.com',
    };
    const a2aBody = {
      jsonrpc: '2.0',
      id: 'a',
      method: 'message/send',
      params: { message: { role: 'user', messageId: '1', parts: [{ kind: 'data', data: { skill: 'verification_methods', input: { s: 'all' } } }] } },
    };
    const a2a = await (
      await handleA2a(new Request('http://localhost/a2a', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(a2aBody) }), context, site)
    ).text();
    assert.ok(bytesSent(a2a, inflated.baseUrl, LONG_ORIGIN) <= MAX_ANSWER_BYTES, `${bytesSent(a2a, inflated.baseUrl, LONG_ORIGIN)} bytes sent`);
    assert.equal((JSON.parse(a2a) as Rpc['body']).error?.code, -32602);
    // Without the long origin the same answer is sent: the refusal is the origin's doing.
    const plain = await (
      await handleA2a(new Request('http://localhost/a2a', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(a2aBody) }), inPlace(inflated), site)
    ).text();
    assert.ok((JSON.parse(plain) as Rpc['body']).result !== undefined, plain.slice(0, 300));
  });
});
