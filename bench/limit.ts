// The one-process limit (README.md, Performance, gives the targets): the same request sent to our
// server with its request log on, to the same server with --no-log, to a bare node:http server
// replaying our bytes (bare-server.ts) and to nginx. wrk runs each in short slices taken in
// turn, so that a machine whose speed drifts during the run (a shared VM) drifts for all four
// alike; each ratio is the median of the rounds' own ratios (pairedRatio), so that one slow spell
// does not decide it.
import { integer } from './table.ts';
import type { WrkRequest, WrkResult } from './wrk.ts';

export type ContenderName = 'ours' | 'ours --no-log' | 'bare node:http' | 'nginx';

export interface Contender {
  name: ContenderName;
  origin: string;
  /** One request, or several handed out in turn by each wrk thread. */
  requests: readonly WrkRequest[];
}

export interface Throughput {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Answers wrk counted as failed (outside 2xx/3xx are not failures here: a 404 row expects them). */
  socketErrors: number;
  /** Each slice's requests per second, in the order of the rounds. */
  rounds: number[];
}

type Load = (origin: string, requests: readonly WrkRequest[], seconds: number) => Promise<WrkResult>;

/** Sums slices of one contender into one figure. */
export function combine(slices: readonly WrkResult[]): Throughput {
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const seconds = slices.reduce((sum, s) => sum + s.seconds, 0);
  const socketErrors = slices.reduce((sum, s) => sum + s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout, 0);
  return { requests, seconds, requestsPerSecond: seconds === 0 ? 0 : requests / seconds, socketErrors, rounds: slices.map((s) => s.requestsPerSecond) };
}

/** How one server compares with another over the rounds: the median of each round's ratio, and the lowest and highest. */
export interface PairedRatio {
  median: number;
  low: number;
  high: number;
}

/**
 * `a` ÷ `b` round by round. In a round every server is asked within seconds of the others, so a
 * slow spell of a shared machine moves that round's ratio, not the median of all of them; the
 * range shows how much the rounds disagreed. Null when no round can be compared.
 */
export function pairedRatio(a: Throughput, b: Throughput): PairedRatio | null {
  const ratios: number[] = [];
  for (let round = 0; round < Math.min(a.rounds.length, b.rounds.length); round++) {
    const below = b.rounds[round] as number;
    if (below > 0) ratios.push((a.rounds[round] as number) / below);
  }
  if (ratios.length === 0) return null;
  ratios.sort((x, y) => x - y);
  const middle = ratios.length >> 1;
  const median = ratios.length % 2 === 1 ? (ratios[middle] as number) : ((ratios[middle - 1] as number) + (ratios[middle] as number)) / 2;
  return { median, low: ratios[0] as number, high: ratios[ratios.length - 1] as number };
}

/** The order of round `round`: each contender leads in turn, so none always follows the same one. */
export function rotation<T>(items: readonly T[], round: number): T[] {
  const start = round % Math.max(1, items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

/** `rounds` slices of `sliceSeconds` for every contender, taken in turn. */
export async function interleaved(contenders: readonly Contender[], rounds: number, sliceSeconds: number, load: Load): Promise<Map<ContenderName, Throughput>> {
  const slices = new Map<ContenderName, WrkResult[]>(contenders.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const contender of rotation(contenders, round)) slices.get(contender.name)?.push(await load(contender.origin, contender.requests, sliceSeconds));
  }
  return new Map([...slices].map(([name, results]) => [name, combine(results)]));
}

export interface LimitRow {
  label: string;
  /** What each contender answered to one probe (status and size). */
  answers: ReadonlyMap<ContenderName, string>;
  figures: ReadonlyMap<ContenderName, Throughput>;
  /** The least ours ÷ bare node:http this row asks for. */
  minOfBare: number;
}

/** The smallest log on ÷ --no-log any row asks for: the request log costs at most 15 %. */
const LOG_COST_MIN = 0.85;

const COLUMNS: readonly ContenderName[] = ['ours', 'ours --no-log', 'bare node:http', 'nginx'];

function ratioOf(a: Throughput | undefined, b: Throughput | undefined): PairedRatio | null {
  return a === undefined || b === undefined ? null : pairedRatio(a, b);
}

function judged(ratio: PairedRatio | null, min: number): string {
  if (ratio === null) return '—';
  return `${ratio.median.toFixed(2)} (${ratio.low.toFixed(2)}–${ratio.high.toFixed(2)}; ≥ ${min}: ${ratio.median >= min ? 'yes' : 'no'})`;
}

/** The rows as a Markdown table: req/s of each contender over all its slices, then the two ratios (median and range of the rounds) with their targets. */
export function limitTable(rows: readonly LimitRow[]): string {
  const header = ['request', ...COLUMNS.map((c) => `${c} req/s`), 'log on ÷ --no-log', 'ours ÷ bare'];
  const lines = rows.map((row) => {
    const cell = (name: ContenderName) => {
      const figure = row.figures.get(name);
      if (figure === undefined) return '—';
      const errors = figure.socketErrors > 0 ? ` (${integer(figure.socketErrors)} socket errors)` : '';
      return `${integer(figure.requestsPerSecond)}${errors}`;
    };
    const ours = row.figures.get('ours');
    return [
      `${row.label} (${[...new Set(row.answers.values())].join(' / ')})`,
      ...COLUMNS.map(cell),
      judged(ratioOf(ours, row.figures.get('ours --no-log')), LOG_COST_MIN),
      judged(ratioOf(ours, row.figures.get('bare node:http')), row.minOfBare),
    ];
  });
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), `|---|${COLUMNS.map(() => '---:').join('|')}|---:|---:|`, ...lines.map(line)].join('\n');
}
