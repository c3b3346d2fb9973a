// How long a hostile input holds the server's event loop, as every other client feels it: a
// small GET is sent one after another on its own connection while each input below is sent and
// answered, and the slowest of those GETs is the input's stall. The same GETs with no input
// beside them, in the same run, are the baseline. Target: no input over 50 ms. The server runs in its own process; nothing is asserted.
import { Agent, request } from 'node:http';
import { probe, type Probe } from './probe.ts';
import { startServerProcess } from './server-process.ts';
import type { WrkRequest } from './wrk.ts';

const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROBE_PATH = '/crawler/gptbot.json';
/** How long the GETs run with nothing beside them, for the baseline. */
const BASELINE_MS = 2_000;

const rpc = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const names = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));

/** Words that look like crawler names and product tokens, `chars` characters of them: each is matched against the index. */
function crawlerWords(chars: number): string {
  const words: string[] = [];
  for (let length = 0, i = 0; length < chars; i++) {
    const word = i % 3 === 0 ? `word${i}` : i % 3 === 1 ? `Googlebot-${i}/2.1` : `crawler${i}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/** The hostile inputs, each a request a client can send; named as the table prints them. */
export function hostileInputs(): { name: string; request: WrkRequest }[] {
  const addresses = Array.from({ length: 500 }, (_, i) => `192.0.2.${i % 250}`);
  const wildcards = `User-agent: *\n${Array.from({ length: 3_000 }, (_, i) => `Disallow: /*a*b*c*d*${i}*$`).join('\n')}\n`;
  return [
    {
      name: 'MCP call with 60,000 extra argument names',
      request: {
        method: 'POST',
        path: '/mcp',
        headers: JSON_RPC,
        body: rpc('tools/call', { name: 'classify_user_agent', arguments: { ua: 'GPTBot/1.2', ...names(60_000) } }),
      },
    },
    {
      name: 'MCP call with an argument nested 100,000 deep',
      request: {
        method: 'POST',
        path: '/mcp',
        headers: JSON_RPC,
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"classify_user_agent","arguments":{"ua":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
      },
    },
    {
      name: 'A2A message with a 60,000-name data part',
      request: {
        method: 'POST',
        path: '/a2a',
        headers: JSON_RPC,
        body: rpc('message/send', { message: { role: 'user', messageId: 'm', parts: [{ kind: 'data', data: names(60_000) }] } }),
      },
    },
    {
      name: 'A2A message of 880 KB of words',
      request: {
        method: 'POST',
        path: '/a2a',
        headers: JSON_RPC,
        body: rpc('message/send', { message: { role: 'user', messageId: 'm', parts: [{ kind: 'text', text: crawlerWords(880_000) }] } }),
      },
    },
    {
      name: 'MCP verify of 500 addresses',
      request: {
        method: 'POST',
        path: '/netcheck/mcp',
        headers: JSON_RPC,
        body: rpc('tools/call', { name: 'verify_batch', arguments: { ua: 'Googlebot', ip: addresses } }),
      },
    },
    {
      name: 'MCP call with a 900 KB string argument',
      request: {
        method: 'POST',
        path: '/mcp',
        headers: JSON_RPC,
        body: rpc('tools/call', { name: 'classify_user_agent', arguments: { ua: 'x'.repeat(900_000) } }),
      },
    },
    {
      name: 'robots-allowed over 3,000 wildcard rules',
      request: { method: 'POST', path: '/tools/robots-allowed?ua=GPTBot&path=/abcd', headers: { 'content-type': 'text/plain' }, body: wildcards },
    },
    {
      name: 'robots-lint of a 500 KB robots.txt',
      request: {
        method: 'POST',
        path: '/tools/robots-lint',
        headers: { 'content-type': 'text/plain' },
        body: `User-agent: *\n${'Disallow: /x\n'.repeat(38_000)}`,
      },
    },
    { name: 'classify-ua with an 8 KB query', request: { method: 'GET', path: `/tools/classify-ua?ua=${'Mozilla%2F5.0%20'.repeat(500)}`, headers: {} } },
  ];
}

export interface Stall {
  name: string;
  answer: Probe;
  /** The slowest probe GET while the input was sent and answered, in ms. */
  worstMs: number;
}

/** Probe GETs back to back on one kept-alive connection until `stop`; the slowest, in ms. */
export async function probeWhile(origin: string, agent: Agent, stop: Promise<unknown>): Promise<number> {
  let done = false;
  void stop.finally(() => (done = true));
  let worst = 0;
  const url = new URL(origin);
  while (!done) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: PROBE_PATH, agent }, (res) => res.resume().once('end', resolve).once('error', reject));
      req.once('error', reject);
      req.end();
    });
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}

export async function hostileStalls(root: string): Promise<{ baselineMs: number; stalls: Stall[] }> {
  const server = await startServerProcess(root, ['--no-log']);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // Warm what the first request of each kind loads (the MCP SDK, the tool threads).
    for (const { request: what } of hostileInputs()) await probe(server.origin, what);
    const baselineMs = await probeWhile(server.origin, agent, new Promise((resolve) => setTimeout(resolve, BASELINE_MS)));
    const stalls: Stall[] = [];
    for (const { name, request: what } of hostileInputs()) {
      const sent = probe(server.origin, what);
      const worstMs = await probeWhile(server.origin, agent, sent);
      stalls.push({ name, answer: await sent, worstMs });
    }
    return { baselineMs, stalls };
  } finally {
    agent.destroy();
    await server.stop();
  }
}
