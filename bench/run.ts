// npm run bench: our server (serve.ts, its own process) beside nginx serving the same dist/ as
// plain files, both driven by wrk with the same settings in the same run, on loopback. Every
// row prints the target it is judged by; nothing is asserted (timings are not tests).
//
// BENCH_SECONDS (default 10) per row; BENCH_RSS_SECONDS (default 30) per round of the memory
// rows. Progress goes to stderr, the tables (Markdown, for the README) to stdout.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchAddresses, mirroredPrefixes } from './addresses.ts';
import { cleanupOnExit } from './cleanup.ts';
import { coldStarts } from './cold-start.ts';
import { noopBuilds } from './noop-build.ts';
import { findExecutable, type Executable } from './executables.ts';
import { classifyUnderFlood, FLOOD_CONNECTIONS } from './flood.ts';
import { startNginx } from './nginx.ts';
import { describeAnswer, probe } from './probe.ts';
import { largeListRun } from '../test/support/large-list.ts';
import {
  a2aClassify,
  compressed,
  get,
  heaviestToolCalls,
  LARGE_DOCUMENT,
  mcpClassify,
  mcpPathAllowed,
  mcpVerify,
  MISSING_DOCUMENT,
  revalidate,
  SMALL_DOCUMENT,
  verifyCrawler,
} from './requests.ts';
import { settle } from './settle.ts';
import { startScriptProcess, startServerProcess } from './server-process.ts';
import { type Contender, interleaved, type LimitRow, limitTable } from './limit.ts';
import { ENCODED_LINE } from '../pipeline/node/compress.ts';
import { hostileStalls } from './stall.ts';
import { reloadStall } from './reload-stall.ts';
import { rowsTable, rssDrift, rssTable, type Row, type RssRound, type Side, type Target } from './table.ts';
import { toolFigures } from './tools.ts';
import { runWrk, type WrkRequest } from './wrk.ts';

const THREADS = 2;
const CONNECTIONS = 32;
const VERIFY_CONNECTIONS = 16;
const VERIFY_ADDRESSES = 500;
/** Connections of the MCP and A2A rows: their targets (README.md, Performance) are set at 16. */
const PROTOCOL_CONNECTIONS = 16;
/** Addresses in the small verify_batch call. */
const SMALL_BATCH = 10;
/** Distinct missing paths of the last one-process-limit row: more than the server remembers (256). */
const DISTINCT_MISSES = 1_000;
const HEAVY_CONNECTIONS = 4;
const RSS_ROUNDS = 3;
/**
 * Slices per server in each row of the one-process limit, each of 2 × BENCH_SECONDS ÷ this (at
 * least 1 s): 2 s at the default. Odd, so that the median of the rounds' ratios is one round's.
 * On this shared machine one server's rate moved by 15 % between consecutive 1-second slices.
 */
const LIMIT_ROUNDS = 9;
/** A page: served with the request log's live counters written in. */
const PAGE = '/crawler/gptbot.html';

function wholeSeconds(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of seconds, 1 or more (got "${raw}")`);
  return n;
}

const root = process.cwd();
const dist = join(root, 'dist');
const seconds = wholeSeconds('BENCH_SECONDS', 10);
const rssSeconds = wholeSeconds('BENCH_RSS_SECONDS', 30);
const limitSlice = Math.max(1, Math.round((2 * seconds) / LIMIT_ROUNDS));
const progress = (line: string) => process.stderr.write(`${line}\n`);
const print = (line = '') => process.stdout.write(`${line}\n`);

async function measureServers(wrk: Executable, nginx: Executable | null): Promise<void> {
  const cleanup = cleanupOnExit(progress);
  try {
    const scratch = await mkdtemp(join(tmpdir(), 'bench-wrk-'));
    cleanup.add(() => rm(scratch, { recursive: true, force: true }));
    const interrupted = new AbortController();
    const load = (origin: string, requests: readonly WrkRequest[], connections: number, duration: number) =>
      runWrk(wrk.path, { origin, requests, threads: THREADS, connections, seconds: duration }, { scratchDir: scratch, signal: interrupted.signal });

    progress(
      'starting the server twice, as npm start runs it (bin/serve.mjs): with the request log on,  and with --no-log; each is measured once its documents are compressed ...',
    );
    // The log goes to the scratch folder, not the project's state/: a bench leaves nothing behind.
    // One after the other, and measured only once compressing is done: until then a server spends a core on it.
    const ours = await startServerProcess(root, ['--log-db', join(scratch, 'requests.db')], { readyLine: ENCODED_LINE, timeoutMs: 300_000 });
    cleanup.add(() => ours.stop());
    const oursNoLog = await startServerProcess(root, ['--no-log'], { readyLine: ENCODED_LINE, timeoutMs: 300_000 });
    cleanup.add(() => oursNoLog.stop());
    progress('starting the bare node:http server, which replays what --no-log answers ...');
    const bare = await startScriptProcess(root, 'bench/bare-server.ts', [oursNoLog.origin, SMALL_DOCUMENT, MISSING_DOCUMENT]);
    cleanup.add(() => bare.stop());

    let anchor: string | null = null;
    let anchorNote = '';
    if (nginx === null) {
      anchorNote = 'nginx is not installed (Debian: apt-get install nginx): the nginx columns are empty.';
    } else {
      try {
        const started = await startNginx(nginx.path, dist);
        cleanup.add(() => started.stop());
        anchor = started.origin;
        anchorNote = `nginx: ${nginx.version}, 1 worker, sendfile on, access_log off, keepalive, root ${dist}.`;
      } catch (error) {
        anchorNote = `nginx could not be started, so the nginx columns are empty: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    progress(anchorNote);
    // Registered after the servers, so it runs before their stops: wrk ends first.
    cleanup.add(async () => interrupted.abort());

    const measure = async (origin: string, request: WrkRequest, connections: number): Promise<Side> => {
      const answer = describeAnswer(await probe(origin, request));
      return { answer, result: await load(origin, [request], connections, seconds) };
    };
    const etagOf = async (origin: string): Promise<string> => {
      const etag = (await probe(origin, get(SMALL_DOCUMENT))).headers['etag'];
      if (etag === undefined) throw new Error(`${origin}${SMALL_DOCUMENT} sent no ETag, so the 304 row cannot be measured`);
      return etag;
    };

    const ourRevalidation = revalidate(SMALL_DOCUMENT, await etagOf(ours.origin));
    const addresses = benchAddresses(mirroredPrefixes(JSON.parse(await readFile(join(dist, 'ip-ranges', 'all.json'), 'utf8'))), VERIFY_ADDRESSES);
    const verify = verifyCrawler(addresses);
    const mixed = [get(SMALL_DOCUMENT), ourRevalidation, get(LARGE_DOCUMENT), compressed(LARGE_DOCUMENT), verify, mcpClassify()];

    // Warm-up: every path of ours runs before it is measured, so no row pays for JIT compilation.
    // Both of our servers are asked the same, so that log on ÷ --no-log differs by the log alone;
    // then every server is left to finish collecting the warm-up's garbage (bench/settle.ts).
    const warmSeconds = Math.min(seconds, 3);
    progress(`warming up for ${warmSeconds} s each ...`);
    await load(ours.origin, [...mixed, get(PAGE)], CONNECTIONS, warmSeconds);
    await load(oursNoLog.origin, [...mixed, get(PAGE)], CONNECTIONS, warmSeconds);
    if (anchor !== null) await load(anchor, [get(SMALL_DOCUMENT)], CONNECTIONS, 1);
    const rest = await settle([ours.pid, oursNoLog.pid, bare.pid]);
    progress(
      rest.quiet
        ? `the servers were at rest ${rest.waitedMs} ms after the warm-up`
        : `the servers were not at rest after ${rest.waitedMs} ms; measuring anyway`,
    );

    const row = async (
      label: string,
      target: Target,
      connections: number,
      ourRequest: WrkRequest,
      theirRequest: WrkRequest | null,
      server = ours,
    ): Promise<Row> => {
      const compared = anchor !== null && theirRequest !== null ? { origin: anchor, request: theirRequest } : null;
      progress(`measuring: ${label} (${seconds} s${compared === null ? '' : ' each'}, after ${warmSeconds} s of the same requests) ...`);
      const nginxSide = compared === null ? null : await measure(compared.origin, compared.request, connections);
      // The rows before leave a path idle for minutes, and a thread that has been idle answers
      // its first seconds slower (README: the verify rows); each row measures the steady state.
      await load(server.origin, [ourRequest], connections, warmSeconds);
      return { label, connections, target, ours: await measure(server.origin, ourRequest, connections), nginx: nginxSide };
    };
    // The one-process limit: ours (log on and off), the bare replay and nginx, in slices taken in turn.
    const theirRevalidation = anchor === null ? null : revalidate(SMALL_DOCUMENT, await etagOf(anchor));
    const limitRows: LimitRow[] = [];
    // A missing path's 404 is remembered (a bounded number of paths): the last row asks for
    // more distinct ones than are kept, in turn, so that every answer is made afresh.
    const distinctMisses = Array.from({ length: DISTINCT_MISSES }, (_, n) => get(`/crawler/no-such-crawler-${n}.json`));
    const limitPlan: (readonly [string, readonly WrkRequest[], readonly WrkRequest[] | null, number])[] = [
      [`${SMALL_DOCUMENT} 200`, [get(SMALL_DOCUMENT)], [get(SMALL_DOCUMENT)], 0.8],
      [`${SMALL_DOCUMENT} If-None-Match`, [ourRevalidation], theirRevalidation === null ? null : [theirRevalidation], 0.8],
      [`${MISSING_DOCUMENT} 404, the same path`, [get(MISSING_DOCUMENT)], [get(MISSING_DOCUMENT)], 0.5],
      [`404, ${DISTINCT_MISSES.toLocaleString('en-US')} distinct missing paths in turn`, distinctMisses, distinctMisses, 0.5],
    ];
    for (const [label, requests, theirs, minOfBare] of limitPlan) {
      const contenders: Contender[] = [
        { name: 'ours', origin: ours.origin, requests },
        { name: 'ours --no-log', origin: oursNoLog.origin, requests },
        // The bare server replays our bytes and our ETag, so it is asked exactly what we are
        // (every unknown path gets the 404 it recorded).
        { name: 'bare node:http', origin: bare.origin, requests },
        ...(anchor !== null && theirs !== null ? [{ name: 'nginx' as const, origin: anchor, requests: theirs }] : []),
      ];
      const answers = new Map(
        await Promise.all(contenders.map(async (c) => [c.name, describeAnswer(await probe(c.origin, c.requests[0] as WrkRequest))] as const)),
      );
      progress(`measuring: ${label} on ${contenders.length} servers, ${LIMIT_ROUNDS} slices of ${limitSlice} s each, taken in turn ...`);
      const figures = await interleaved(contenders, LIMIT_ROUNDS, limitSlice, (origin, wrkRequests, duration) =>
        load(origin, wrkRequests, CONNECTIONS, duration),
      );
      limitRows.push({ label, answers, figures, minOfBare });
    }
    // A page carries the log's live counters (rewritten once a minute); with --no-log it is the stored file.
    const page = await row(`${PAGE} 200, identity, live counters`, { kind: 'ratio', min: 0.5 }, CONNECTIONS, get(PAGE), get(PAGE));
    const pageNoLog = await row(`${PAGE} 200, identity, server with --no-log`, { kind: 'ratio', min: 0.5 }, CONNECTIONS, get(PAGE), get(PAGE), oursNoLog);
    const large = await row(`${LARGE_DOCUMENT} 200, identity`, { kind: 'ratio', min: 0.6 }, CONNECTIONS, get(LARGE_DOCUMENT), get(LARGE_DOCUMENT));
    // Beside nginx's identity answer from the row above: each coding, encoded once when the build
    // is loaded, is served at least as fast as nginx sends the plain file, in far fewer bytes.
    const largeCodings = [
      await row(`${LARGE_DOCUMENT} Accept-Encoding: br, gzip (nginx: identity)`, { kind: 'ratio', min: 1 }, CONNECTIONS, compressed(LARGE_DOCUMENT), null),
      await row(
        `${LARGE_DOCUMENT} Accept-Encoding: gzip (nginx: identity)`,
        { kind: 'ratio', min: 1 },
        CONNECTIONS,
        get(LARGE_DOCUMENT, { 'accept-encoding': 'gzip' }),
        null,
      ),
    ].map((coded) => ({ ...coded, nginx: large.nginx }));
    const verifyMany = await row(`/tools/verify-crawler, ${VERIFY_ADDRESSES} addresses + ua`, { kind: 'p99', maxMs: 100 }, VERIFY_CONNECTIONS, verify, null);
    // The MCP (docs/API.md §4.6) and A2A (§4.7) calls at the connections their targets name.
    const protocolRows: Row[] = [];
    for (const [label, request, maxMs] of [
      ['POST /mcp tools/call classify_user_agent', mcpClassify(), 50],
      [`POST /netcheck/mcp tools/call verify_batch, ${SMALL_BATCH} addresses`, mcpVerify(addresses.slice(0, SMALL_BATCH)), 50],
      ['POST /robots/mcp tools/call check_path_allowed, 4 paths', mcpPathAllowed(), 50],
      ['POST /a2a message/send, classify skill', a2aClassify(), 50],
      [`POST /netcheck/mcp tools/call verify_batch, ${VERIFY_ADDRESSES} addresses`, mcpVerify(addresses), 100],
    ] as const) {
      protocolRows.push(await row(label, { kind: 'p99', maxMs }, PROTOCOL_CONNECTIONS, request, null));
    }
    // While the heaviest tool calls run back to back, documents stay fast.
    const heavy = heaviestToolCalls();
    const heavyAnswers = await Promise.all(
      heavy.map(async (request) => `${request.method} ${request.path.split('?')[0]}: ${describeAnswer(await probe(ours.origin, request))}`),
    );
    progress(`measuring: ${SMALL_DOCUMENT} while ${HEAVY_CONNECTIONS} connections send the heaviest tool calls (${seconds} s) ...`);
    const [pressed, heavyLoad] = await Promise.all([
      measure(ours.origin, get(SMALL_DOCUMENT), CONNECTIONS - HEAVY_CONNECTIONS),
      load(ours.origin, heavy, HEAVY_CONNECTIONS, seconds),
    ]);
    const underPressure: Row = {
      label: `${SMALL_DOCUMENT} 200 while ${HEAVY_CONNECTIONS} conns send the heaviest tool calls`,
      connections: CONNECTIONS - HEAVY_CONNECTIONS,
      target: { kind: 'p99', maxMs: 100 },
      ours: pressed,
      nginx: null,
    };
    const rows = [page, pageNoLog, large, ...largeCodings, verifyMany, ...protocolRows, underPressure];

    const rounds: RssRound[] = [{ label: 'before the rounds (after the rows above)', result: null, rssKiB: ours.rssKiB() }];
    for (let round = 1; round <= RSS_ROUNDS; round++) {
      progress(`memory: mixed load, round ${round} of ${RSS_ROUNDS} (${rssSeconds} s) ...`);
      const result = await load(ours.origin, mixed, CONNECTIONS, rssSeconds);
      rounds.push({ label: `after round ${round} (${rssSeconds} s of mixed load, ${CONNECTIONS} conns)`, result, rssKiB: ours.rssKiB() });
    }

    const cpu = cpus();
    print(
      `wrk: ${wrk.version}, ${THREADS} threads, ${seconds} s per row, loopback. node ${process.version}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}).`,
    );
    print(anchorNote);
    print(
      `verify-crawler: ${VERIFY_ADDRESSES} addresses in one ip= (half inside the prefixes of dist/ip-ranges/all.json, half random public IPv4), ua=GPTBot.`,
    );
    print(
      `Heaviest tool calls (${heavyAnswers.join('; ')}): ${heavyLoad.requests} answered in ${heavyLoad.seconds} s, p50 ${heavyLoad.latencyMs.p50} ms, p99 ${heavyLoad.latencyMs.p99} ms each.`,
    );
    print('Memory rounds: the requests of the six rows, handed out in turn by each wrk thread.');
    print();
    print(
      `The one-process limit: req/s of each server over ${LIMIT_ROUNDS} slices of ${limitSlice} s each, taken in turn, ${CONNECTIONS} conns. ` +
        "Each ratio is the median of the rounds' own ratios, the lowest and highest in brackets: in a round the servers are asked within seconds of each other, " +
        'so a slow spell of the machine moves one round, not the median. ' +
        "'bare node:http' replays our answers from memory (bench/bare-server.ts); nginx answers with its own ETag and 404 page.",
    );
    print();
    print(limitTable(limitRows));
    print();
    print(rowsTable(rows));
    print();
    print(rssTable(rounds));
    print();
    print(rssDrift(rounds));
  } finally {
    await cleanup.run();
  }
}

const wrk = findExecutable('wrk', '-v');
if (wrk === null) {
  print('wrk is not installed (Debian: apt-get install wrk): the HTTP rows are skipped.');
} else {
  await measureServers(wrk, findExecutable('nginx', '-v', ['/usr/sbin/nginx']));
}

print('\ntools (fastest of several runs; ratio = baseline / ours, above 1 means ours is faster)');
for (const f of toolFigures(root)) print(`${f.task.padEnd(62)} ours ${f.ours.padEnd(22)} baseline ${f.baseline.padEnd(44)} ${f.ratio}`);

// Small tool calls beside a flood of large ones (docs/API.md §8.1): both p99s from this run.
progress(`measuring: classify-ua alone, then under ${FLOOD_CONNECTIONS} connections of merge_policy calls (${seconds} s) ...`);
const flood = await classifyUnderFlood(root, Math.max(seconds, 5));
const answers = Object.entries(flood.floodAnswers)
  .map(([status, count]) => `${count} × ${status}`)
  .join(', ');
print(
  `\nclassify-ua (GET, one at a time on one connection) beside ${FLOOD_CONNECTIONS} connections sending the largest valid merge_policy call (a ${flood.bodyBytes}-byte robots.txt as a POST body) back to back; target: p99 under 100 ms under the flood`,
);
print(`${'unloaded'.padEnd(12)} p50 ${flood.unloaded.p50.toFixed(1)} ms, p99 ${flood.unloaded.p99.toFixed(1)} ms`);
print(`${'under flood'.padEnd(12)} p50 ${flood.flooded.p50.toFixed(1)} ms, p99 ${flood.flooded.p99.toFixed(1)} ms (the flood's answers: ${answers})`);
print(`server RSS: ${flood.rssIdleMiB ?? 'n/a'} MiB before the flood, ${flood.rssPeakMiB ?? 'n/a'} MiB at its peak (sampled every 100 ms)`);

// Hostile inputs beside a small GET on another connection (docs/API.md §4.6): the GET's worst
// latency while each input is answered is how long that input held every other client.
progress('measuring: the worst stall each hostile input causes other clients ...');
const hostile = await hostileStalls(root);
print(
  `\nhostile inputs, each beside GETs of /crawler/gptbot.json sent back to back on another connection; the slowest GET while the input was answered (target: under 50 ms; baseline, the same GETs alone: ${hostile.baselineMs.toFixed(1)} ms)`,
);
for (const s of hostile.stalls) print(`${s.name.padEnd(50)} answer ${describeAnswer(s.answer).padEnd(24)} worst GET ${s.worstMs.toFixed(1)} ms`);

// A new build swapped in while the server answers (bench/reload-stall.ts): what it holds every client.
progress('measuring: the stall of a new build swapped in ...');
const reload = await reloadStall(root);
print(
  `\nnew build swapped in under GETs of /crawler/gptbot.json sent back to back, request log on; the slowest GET in the 4 s after (target: under 50 ms; baseline, the same GETs before it: ${reload.baselineMs.toFixed(1)} ms)`,
);
print(`new /status.json served after: ${reload.reloaded ? 'yes' : 'no (the build was not reloaded)'}; worst GET ${reload.worstMs.toFixed(1)} ms`);
print(
  `then its first tool call, A2A message in words, crawler page and change-feed page (answers ${reload.firstReads.statuses.join(', ')}): worst GET ${reload.firstReads.worstMs.toFixed(1)} ms`,
);
print(
  `then the process's first MCP request, which loads the MCP SDK (answer ${reload.firstMcp.statuses.join(', ')}): worst GET ${reload.firstMcp.worstMs.toFixed(1)} ms`,
);

// A valid list of 500,000 prefixes (about 500 times the largest real one) through refresh, build of
// every document, commit and verify; test/large-list.test.ts proves the same stages on the smallest
// list a spread cannot pass, and this run shows what the full size costs.
const LARGE_LIST = 500_000;
progress(`large list: ${LARGE_LIST} prefixes through refresh, build, commit and verify ...`);
const largeStarted = performance.now();
const large = await largeListRun(LARGE_LIST);
print(
  `\nlarge list: ${LARGE_LIST} prefixes (${(large.bodyBytes / 1e6).toFixed(1)} MB upstream) refreshed, built into every document, committed and verified in ${((performance.now() - largeStarted) / 1000).toFixed(1)} s`,
);

const COLD_RUNS = 5;
// BENCH_NODES adds other Node binaries (paths, separated by ':'), as the README's table has Node 20 and 24.
const coldNodes = [process.execPath, ...(process.env['BENCH_NODES'] ?? '').split(':').filter((path) => path !== '')];
for (const node of coldNodes) {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  progress(`cold starts on node ${version} ...`);
  print(`\ncold start on node ${version}: spawn to the first 200 of /healthz (median of ${COLD_RUNS}, taking turns; target under 1 s)`);
  for (const c of await coldStarts(root, COLD_RUNS, node)) {
    print(`${c.label.padEnd(90)} median ${Math.round(c.medianMs)} ms (${Math.round(c.minMs)}-${Math.round(c.maxMs)})`);
  }
}

const NOOP_RUNS = 3;
progress('builds with nothing to do ...');
print(`\nbuild with nothing to do on node ${process.version}: spawn to exit (median of ${NOOP_RUNS}, taking turns; target under 2 s)`);
for (const c of await noopBuilds(root, NOOP_RUNS)) {
  print(`${c.label.padEnd(72)} median ${Math.round(c.medianMs)} ms (${Math.round(c.minMs)}-${Math.round(c.maxMs)})`);
}
