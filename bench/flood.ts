// Classify calls beside a flood of the largest valid merge_policy calls (docs/API.md §8.1,
// "Tool calls: lanes and queues"): the same classify requests are timed on an idle server and
// then while FLOOD_CONNECTIONS connections send merge calls back to back, in the same run, on
// loopback. The flood runs in its own process, so that reading its answers never delays the
// classify timings; it stops by itself after the given seconds. Needs no wrk.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { startServerProcess } from './server-process.ts';

export const FLOOD_CONNECTIONS = 64;
/**
 * The flood is another client than the classify calls: its connections come from their own
 * loopback address, as a flood from the network would, and it holds one address's whole share
 * of connections (64, docs/API.md §8) without pushing the classify client out.
 */
const FLOOD_ADDRESS = '127.0.0.2';
/** Classify requests timed per phase, one at a time. */
const CLASSIFY_REQUESTS = 400;
const CLASSIFY_PATH = '/tools/classify-ua?ua=Mozilla%2F5.0%20(compatible%3B%20GPTBot%2F1.2%3B%20%2Bhttps%3A%2F%2Fopenai.com%2Fgptbot)';

/** The path of one merge call: its robots.txt is the POST body. */
const MERGE_PATH = '/tools/policy-merge?policy=block-ai-training';

/** A robots.txt just under the 512,000-byte body limit: the largest valid merge_policy call over HTTP. */
export function mergeCallBody(): string {
  const lines: string[] = ['User-agent: *'];
  let size = lines[0]!.length + 1;
  for (let n = 0; size < 505_000; n++) {
    const line = n % 2 === 0 ? `Disallow: /private/${n}/` : `# section ${n}: pages kept out of every crawler's reach`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

// The flood's process: plain JavaScript, given the origin, the connections, the seconds and the
// body on standard input; prints how many answers of each status it read.
const FLOOD_SCRIPT = `
import { Agent, request } from 'node:http';
const [origin, path, connections, seconds, FLOOD_ADDRESS] = process.argv.slice(1);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const body = Buffer.concat(chunks);
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const until = Date.now() + Number(seconds) * 1000;
const statuses = {};
const headers = { 'content-type': 'text/plain', 'content-length': body.length };
const one = () => new Promise((resolve) => {
  const req = request(origin + path, { method: 'POST', agent, headers, localAddress: FLOOD_ADDRESS }, (res) => {
    res.resume().on('end', () => {
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      resolve();
    });
  });
  req.on('error', () => { statuses.socket = (statuses.socket ?? 0) + 1; resolve(); });
  // A kept-alive socket the server closes between two calls errors outside any request.
  req.on('socket', (socket) => { if (socket.listenerCount('error') === 0) socket.on('error', () => {}); });
  req.end(body);
});
await Promise.all(Array.from({ length: Number(connections) }, async () => { while (Date.now() < until) await one(); }));
agent.destroy();
process.stdout.write(JSON.stringify(statuses));
`;

interface Flood {
  done: Promise<Record<string, number>>;
}

function startFlood(origin: string, seconds: number, body: string): Flood {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', FLOOD_SCRIPT, origin, MERGE_PATH, String(FLOOD_CONNECTIONS), String(seconds), FLOOD_ADDRESS],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  child.stdin.end(body);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const done = new Promise<Record<string, number>>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as Record<string, number>) : reject(new Error(`the flood process exited with ${code}`)),
    );
  });
  return { done };
}

/** Times `count` classify calls, one after another on one keep-alive connection; the latencies in ms. */
async function timeClassify(origin: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  try {
    for (let n = 0; n < count; n++) {
      const start = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(origin + CLASSIFY_PATH, { agent }, (res) => {
          res.resume().on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      if (status !== 200) throw new Error(`classify-ua answered ${status} during the bench`);
      latencies.push(performance.now() - start);
    }
  } finally {
    agent.destroy();
  }
  return latencies;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export interface FloodFigures {
  bodyBytes: number;
  unloaded: { p50: number; p99: number };
  flooded: { p50: number; p99: number };
  /** The answers the flood read, by HTTP status. */
  floodAnswers: Record<string, number>;
  rssIdleMiB: number | null;
  rssPeakMiB: number | null;
}

/** Starts its own server (serve.ts --no-log), measures, and stops it. */
export async function classifyUnderFlood(root: string, seconds: number): Promise<FloodFigures> {
  const server = await startServerProcess(root, ['--no-log']);
  try {
    const body = mergeCallBody();
    // Warm-up: the threads are up, hold the data, and have run both calls.
    await timeClassify(server.origin, 50);
    await startFlood(server.origin, 1, body).done;
    const unloaded = await timeClassify(server.origin, CLASSIFY_REQUESTS);
    const rssIdle = server.rssKiB();
    let rssPeak = rssIdle;
    const sampler = setInterval(() => {
      const rss = server.rssKiB();
      if (rss !== null) rssPeak = Math.max(rssPeak ?? 0, rss);
    }, 100);
    const flood = startFlood(server.origin, seconds, body);
    // The flood's connections are open and its calls queued before the timing starts.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const flooded: number[] = [];
    // Classify calls are timed for as long as the flood lasts (at least CLASSIFY_REQUESTS of them).
    const floodEnds = Date.now() + (seconds - 1.5) * 1000;
    while (flooded.length < CLASSIFY_REQUESTS || Date.now() < floodEnds) flooded.push(...(await timeClassify(server.origin, 50)));
    const floodAnswers = await flood.done;
    clearInterval(sampler);
    const mib = (kib: number | null) => (kib === null ? null : Math.round(kib / 1024));
    return {
      bodyBytes: Buffer.byteLength(body),
      unloaded: { p50: percentile(unloaded, 50), p99: percentile(unloaded, 99) },
      flooded: { p50: percentile(flooded, 50), p99: percentile(flooded, 99) },
      floodAnswers,
      rssIdleMiB: mib(rssIdle),
      rssPeakMiB: mib(rssPeak),
    };
  } finally {
    await server.stop();
  }
}
