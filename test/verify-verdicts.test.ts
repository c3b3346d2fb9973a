import { strict as assert } from 'node:assert';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { build } from '../pipeline/publish/build.ts';
import type { RunningServer } from '../pipeline/node/server.ts';
import { runToolCommand } from '../pipeline/node/tool-commands.ts';
import { toolByName } from '../pipeline/tools/registry/index.ts';
import { serveTree } from './support/served.ts';
import { JSON_RPC_HEADERS, raw } from './support/http.ts';
import { hoursAgo, setMirrorTimes } from './support/mirror-times.ts';
import { tempProject } from './support/project.ts';

// docs/API.md §6.4 through the real server, on the repository's own records: Amazon's lists
// have never been fetched, so "in none of the lists" cannot make an address an impostor. Every
// surface (JSON, the HTML report, MCP, A2A, the command line) says "unverifiable" first.
// The lists' times are set relative to the clock the server judges them by, so the verdicts
// are the same whatever day the test runs.

let project: Awaited<ReturnType<typeof tempProject>>;
let server: RunningServer;
const verify = toolByName('verify_batch')!;
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(verify.outputSchema);

interface Answer {
  claim: { unverifiable_because: string | null; lists: { id: string; usable: boolean }[] };
  summary: { verdicts: Record<string, number> };
  results: { input: string; valid: boolean; verdict?: string; explanation?: string; caveat?: string | null; code?: string; ipv4_mapped?: boolean }[];
}

before(async () => {
  project = await tempProject('repo');
  // Never fetched, whatever the repository's mirror holds by the time this runs.
  for (const id of ['amazon-amazonbot', 'openai-chatgpt-connectors']) await rm(join(project.root, 'state', 'mirror', `${id}.json`), { force: true });
  await setMirrorTimes(project.root, {
    '*': { accepted: hoursAgo(1) },
    'openai-gptbot': { accepted: hoursAgo(30 * 24) },
    'perplexity-perplexitybot': { accepted: hoursAgo(12), state: 'failed', error: 'HTTP 503 from the operator' },
  });
  await build({ root: project.root, now: '2026-01-01T00:00:00Z' });
  // Calls run in place; test/tool-threads.test.ts calls every tool on a thread.
  server = await serveTree(project.root);
});
after(async () => {
  await server.close();
  await project.dispose();
});

async function ask(query: string): Promise<Answer> {
  const response = await raw(server.url, `/tools/verify-crawler?${query}`);
  assert.equal(response.status, 200, response.text);
  const body = JSON.parse(response.text) as Answer;
  assert.ok(validate(body), JSON.stringify(validate.errors));
  return body;
}

describe('verify-crawler over HTTP', () => {
  test('genuine, other operator and no range in one call; an invalid item is reported beside them', async () => {
    // Two current lists (accepted an hour ago): Googlebot's, whose address is claimed, and Bingbot's.
    const firstAddress = async (id: string) =>
      (JSON.parse((await raw(server.url, `/ip-ranges/${id}.json`)).text) as { ipv4: string[] }).ipv4[0]!.split('/')[0]!;
    const [inside, bing] = [await firstAddress('google-googlebot'), await firstAddress('microsoft-bingbot')];
    const answer = await ask(`ip=${inside},${bing}%20192.0.2.1&ip=999.1.1.1&ua=Googlebot`);
    assert.deepEqual(
      answer.results.map((r) => [r.input, r.valid, r.verdict ?? null]),
      [
        [inside, true, 'genuine'],
        [bing, true, 'other-operator'],
        ['192.0.2.1', true, 'not-in-published-ranges'],
        ['999.1.1.1', false, null],
      ],
    );
  });

  test('Amazonbot, whose list was never fetched: unverifiable, naming the list and its reverse DNS suffix, never not-in-published-ranges', async () => {
    const answer = await ask('ip=192.0.2.1&ua=Amazonbot');
    const [item] = answer.results;
    assert.equal(item?.verdict, 'unverifiable', item?.explanation);
    assert.match(item?.explanation ?? '', /^192\.0\.2\.1 could not be checked: .*never fetched list amazon-amazonbot/);
    assert.match(item?.explanation ?? '', /\.crawl\.amazonbot\.amazon/);
    assert.doesNotMatch(item?.explanation ?? '', /not one of Amazonbot's addresses/);
    assert.equal(answer.summary.verdicts['unverifiable'], 1);
    assert.equal(answer.summary.verdicts['not-in-published-ranges'], 0);
    assert.deepEqual(
      answer.claim.lists.map((l) => [l.id, l.usable]),
      [['amazon-amazonbot', false]],
    );
  });

  test('a list over 48 hours old is no evidence; a current one and a failed one within the bound are', async () => {
    const stale = (await ask('ip=192.0.2.1&ua=GPTBot')).results[0];
    assert.equal(stale?.verdict, 'unverifiable');
    assert.match(stale?.explanation ?? '', /list openai-gptbot was last fetched and accepted at .*, more than 48 hours ago/);
    const current = (await ask('ip=192.0.2.1&ua=Googlebot')).results[0];
    assert.equal(current?.verdict, 'not-in-published-ranges');
    assert.equal(current?.caveat, null);
    const failed = (await ask('ip=192.0.2.1&ua=PerplexityBot')).results[0];
    assert.equal(failed?.verdict, 'not-in-published-ranges');
    assert.match(
      failed?.caveat ?? '',
      /^List perplexity-perplexitybot failed its last refresh; its last good copy, last fetched and accepted at .* \(within 48 hours\), is used\.$/,
    );
  });

  test('ChatGPT-User, covered by one fetched and one never-fetched list: an address in neither cannot be ruled out', async () => {
    const item = (await ask('ip=192.0.2.1&ua=ChatGPT-User')).results[0];
    assert.equal(item?.verdict, 'unverifiable');
    assert.match(item?.explanation ?? '', /in none of the prefixes of openai-chatgpt-user, but this service has never fetched list openai-chatgpt-connectors/);
  });

  test('every spelling of a mapped address is judged as the IPv4 address; an IPv4-compatible one is refused in both spellings', async () => {
    const answer = await ask('ip=::ffff:66.249.66.1,::ffff:42f9:4201,0:0:0:0:0:FFFF:42F9:4201,::66.249.66.1,::42f9:4201&ua=Googlebot');
    assert.deepEqual(
      answer.results.map((r) => (r.valid ? `${r.verdict} ${r.ipv4_mapped}` : r.code)),
      ['genuine true', 'genuine true', 'genuine true', 'ipv4-compatible', 'ipv4-compatible'],
    );
  });

  test("a browser's report leads with the unverifiable summary and shows the verdict and the published range in the address's row", async () => {
    const page = await raw(server.url, '/tools/verify-crawler?ip=192.0.2.1&ip=66.249.66.1&ua=Amazonbot', { headers: { accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.match(
      page.text,
      /<div class="summary">Unverifiable: 1 of 2 addresses could not be checked as Amazonbot, because this service has never fetched list amazon-amazonbot;/,
    );
    assert.match(page.text, /<tr><td><code>192\.0\.2\.1<\/code><\/td><td><strong>unverifiable<\/strong><\/td><td><span class="muted">none<\/span><\/td>/);
    // An address in a published range names whose range, which prefix and which list.
    assert.match(
      page.text,
      /<tr><td><code>66\.249\.66\.1<\/code><\/td><td>[^<]+<\/td><td>Google: <code>66\.249\.\d+\.\d+\/\d+<\/code> <span class="muted">\(list google-googlebot\)<\/span><\/td>/,
    );
  });
});

test('whoami books a request the same way: never fetched or stale is unverifiable, a current list outside it is not-genuine', async () => {
  const booked = async (userAgent: string) =>
    (JSON.parse((await raw(server.url, '/tools/whoami', { headers: { 'user-agent': userAgent } })).text) as { booked_as: { verdict: string; label: string } })
      .booked_as;
  const amazon = await booked('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)');
  assert.equal(amazon.verdict, 'unverifiable');
  assert.match(amazon.label, /could not be checked/);
  assert.equal((await booked('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)')).verdict, 'unverifiable');
  assert.equal((await booked('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).verdict, 'not-genuine');
});

test('MCP tools/call (the official SDK client): the summary a model reads first says unverifiable', async () => {
  const client = new Client({ name: 'crawler-index-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  try {
    const result = await client.callTool({ name: 'verify_batch', arguments: { ip: ['192.0.2.1'], ua: 'Amazonbot' } });
    const [summary] = result.content as { type: string; text: string }[];
    assert.match(
      summary?.text ?? '',
      /^Unverifiable: The address could not be checked as Amazonbot, because this service has never fetched list amazon-amazonbot; .* Check it another way: forward-confirmed reverse DNS/,
    );
    const output = result.structuredContent as unknown as Answer;
    assert.equal(output.results[0]?.verdict, 'unverifiable');
  } finally {
    await client.close();
  }
});

test('A2A message/send: the text part leads with unverifiable', async () => {
  const response = await fetch(`${server.url}/a2a`, {
    method: 'POST',
    headers: JSON_RPC_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', role: 'user', messageId: 'v1', parts: [{ kind: 'text', text: 'Is 192.0.2.1 really Amazonbot?' }] } },
    }),
  });
  const body = (await response.json()) as { result: { parts: { kind: string; text?: string; data?: { tool: string } }[] } };
  assert.equal(body.result.parts[1]?.data?.tool, 'verify_batch');
  assert.match(body.result.parts[0]?.text ?? '', /^Unverifiable: The address could not be checked as Amazonbot/);
});

test('the command line prints the unverifiable sentence first, then a line per address', async () => {
  // What `crawler-index verify 192.0.2.1 --ua Amazonbot` prints, from the command's own runner in
  // this process (test/cli.test.ts runs the verify command as a real process).
  const { stdout, exitCode } = await runToolCommand(project.root, 'verify_batch', { ip: ['192.0.2.1'], ua: 'Amazonbot' }, false);
  assert.equal(exitCode, 0);
  assert.match(stdout, /^Unverifiable: The address could not be checked as Amazonbot, because this service has never fetched list amazon-amazonbot;/);
  assert.match(stdout, /Verdicts: 1 unverifiable\.\n192\.0\.2\.1 {2}unverifiable {2}in no published range\n$/, 'then the address on its own line');
});
