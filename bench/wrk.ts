// wrk (the HTTP load generator) driven from TypeScript: a generated Lua script says what to send
// and prints wrk's own summary as one JSON line, which is read back here. wrk runs in its own
// process, so the load generator never shares an event loop or a core's time slice accounting
// with the server it measures.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface WrkRequest {
  method: string;
  /** Origin-form request target: path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface WrkPlan {
  /** Scheme, host and port only; each request names its own path. */
  origin: string;
  /** One request is sent as it is; several are handed out in turn by each wrk thread (mixed load). */
  requests: readonly WrkRequest[];
  threads: number;
  connections: number;
  seconds: number;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Everything read from the sockets: status lines, headers and bodies. */
  bytes: number;
  bytesPerResponse: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Counts as wrk reports them; `status` is answers outside 2xx and 3xx. */
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
}

/** The marker that starts the JSON line printed by the script's `done` hook. */
const REPORT_MARKER = 'WRK_REPORT ';

/** A request slower than this is counted as a timeout by wrk instead of entering the latencies. */
const TIMEOUT_SECONDS = 10;

/**
 * A Lua string literal holding `text` byte for byte: printable ASCII as itself, everything else
 * (quotes, backslashes, control bytes, UTF-8) as a three-digit decimal escape, which Lua 5.1
 * and LuaJIT read the same way.
 */
export function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const plain = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += plain ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

function luaTable(headers: Record<string, string>): string {
  return `{ ${Object.entries(headers)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
    .join(', ')} }`;
}

// wrk reports latencies in microseconds; %.0f rather than %d because LuaJIT's %d would wrap
// byte totals above 2^31.
const DONE_HOOK = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n${REPORT_MARKER}{"requests":%.0f,"duration_us":%.0f,"bytes":%.0f,'
    .. '"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f},'
    .. '"latency_us":{"p50":%.0f,"p90":%.0f,"p99":%.0f,"max":%.0f}}\\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

/**
 * The Lua script for one plan. A single request is set on `wrk` itself, so wrk formats it once
 * and calls no Lua per request (its fastest mode, the same for every server measured); several
 * are formatted once in `init` and handed out in turn by `request`.
 */
export function wrkScript(requests: readonly WrkRequest[]): string {
  const [only, ...rest] = requests;
  if (only === undefined) throw new Error('wrk needs at least one request to send');
  if (rest.length === 0) {
    const lines = [`wrk.method = ${luaString(only.method)}`, `wrk.path = ${luaString(only.path)}`];
    for (const [name, value] of Object.entries(only.headers)) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
    if (only.body !== undefined) lines.push(`wrk.body = ${luaString(only.body)}`);
    return `${lines.join('\n')}\n${DONE_HOOK}`;
  }
  const table = requests
    .map((r) => `  { ${luaString(r.method)}, ${luaString(r.path)}, ${luaTable(r.headers)}, ${r.body === undefined ? 'nil' : luaString(r.body)} },`)
    .join('\n');
  return `local plan = {
${table}
}
local formatted = {}
local turn = 0
init = function(args)
  for i, r in ipairs(plan) do formatted[i] = wrk.format(r[1], r[2], r[3], r[4]) end
end
request = function()
  turn = turn % #formatted + 1
  return formatted[turn]
end
${DONE_HOOK}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(record: Record<string, unknown>, key: string): number {
  const value = record[key];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`wrk report: "${key}" is not a count: ${JSON.stringify(value)}`);
  return value;
}

function section(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = record[key];
  if (!isRecord(value)) throw new Error(`wrk report: "${key}" is not an object`);
  return value;
}

/** Reads the report line out of wrk's standard output. */
export function parseWrkReport(stdout: string): WrkResult {
  const line = stdout.split('\n').find((l) => l.startsWith(REPORT_MARKER));
  if (line === undefined) throw new Error(`wrk printed no report line (${REPORT_MARKER.trim()}); its output was:\n${stdout}`);
  const report: unknown = JSON.parse(line.slice(REPORT_MARKER.length));
  if (!isRecord(report)) throw new Error('wrk report: not a JSON object');
  const requests = count(report, 'requests');
  const seconds = count(report, 'duration_us') / 1e6;
  const bytes = count(report, 'bytes');
  const latency = section(report, 'latency_us');
  const errors = section(report, 'errors');
  const ms = (key: string) => count(latency, key) / 1000;
  return {
    requests,
    seconds,
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    bytes,
    bytesPerResponse: requests > 0 ? bytes / requests : 0,
    latencyMs: { p50: ms('p50'), p90: ms('p90'), p99: ms('p99'), max: ms('max') },
    errors: {
      connect: count(errors, 'connect'),
      read: count(errors, 'read'),
      write: count(errors, 'write'),
      status: count(errors, 'status'),
      timeout: count(errors, 'timeout'),
    },
  };
}

export interface WrkRun {
  /** Where the Lua script is written; the caller owns the folder and removes it. */
  scratchDir: string;
  /** Ends wrk early (SIGTERM) when the benchmark is interrupted. */
  signal?: AbortSignal;
}

/** Runs wrk once for `plan.seconds` and returns what it measured. */
export async function runWrk(executable: string, plan: WrkPlan, { scratchDir, signal }: WrkRun): Promise<WrkResult> {
  if (plan.connections < plan.threads)
    throw new Error(`wrk needs at least one connection per thread (${plan.connections} connections, ${plan.threads} threads)`);
  const script = join(scratchDir, `plan-${++scripts}.lua`);
  await writeFile(script, wrkScript(plan.requests));
  const args = [
    '-t',
    String(plan.threads),
    '-c',
    String(plan.connections),
    '-d',
    `${plan.seconds}s`,
    '--timeout',
    `${TIMEOUT_SECONDS}s`,
    '-s',
    script,
    plan.origin,
  ];
  const { code, killedBy, stdout, stderr } = await collect(executable, args, signal);
  if (code !== 0) throw new Error(`wrk ${args.join(' ')} ended with ${code ?? killedBy}: ${stderr.trim() || stdout.trim()}`);
  return parseWrkReport(stdout);
}

let scripts = 0;

function collect(
  executable: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<{ code: number | null; killedBy: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(signal === undefined ? {} : { signal }) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, killedBy) => resolve({ code, killedBy, stdout, stderr }));
  });
}
