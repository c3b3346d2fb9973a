// The results as Markdown tables, ready to paste into the README. Pure: results in, text out.
import type { WrkResult } from './wrk.ts';

/** What a row is judged by. Printed beside the figures, never asserted. */
export type Target =
  /** Our requests per second over nginx's, at least `min`. */
  | { kind: 'ratio'; min: number }
  /** Our bytes per (compressed) answer against nginx's identity answer: the fewer the better. */
  | { kind: 'fewer-bytes' }
  /** Our 99th percentile latency, under `maxMs`. */
  | { kind: 'p99'; maxMs: number };

export interface Side {
  /** What the server answered to one probe of the same request: status, coding, size. */
  answer: string;
  result: WrkResult;
}

export interface Row {
  label: string;
  connections: number;
  ours: Side;
  /** null where nginx has no equivalent or is not installed. */
  nginx: Side | null;
  target: Target;
}

export interface RssRound {
  label: string;
  /** Load during the round; null for the reading before any load. */
  result: WrkResult | null;
  rssKiB: number | null;
}

/** A whole number as the tables print it (12,345). */
export const integer = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const mib = (kib: number | null) => (kib === null ? 'n/a' : `${(kib / 1024).toFixed(1)} MiB`);
const ratio = (n: number) => `${n.toFixed(2)}×`;

/** Anything wrk counted as failed, or "" when nothing was. */
export function failures(result: WrkResult): string {
  const { connect, read, write, status, timeout } = result.errors;
  const parts = [
    status > 0 ? `${integer(status)} not 2xx/3xx` : '',
    timeout > 0 ? `${integer(timeout)} timed out` : '',
    connect + read + write > 0 ? `socket errors: ${connect} connect, ${read} read, ${write} write` : '',
  ];
  return parts.filter((p) => p !== '').join('; ');
}

function targetText(target: Target): string {
  switch (target.kind) {
    case 'ratio':
      return `≥ ${target.min}× nginx`;
    case 'fewer-bytes':
      return 'far fewer bytes than nginx identity';
    case 'p99':
      return `p99 < ${target.maxMs} ms`;
  }
}

/** The comparison cell and whether the target is met; null where there is nothing to judge by. */
function judge(row: Row): { comparison: string; met: boolean | null } {
  const { target, ours, nginx } = row;
  switch (target.kind) {
    case 'ratio': {
      if (nginx === null || nginx.result.requestsPerSecond === 0) return { comparison: '—', met: null };
      const throughput = ours.result.requestsPerSecond / nginx.result.requestsPerSecond;
      return { comparison: ratio(throughput), met: throughput >= target.min };
    }
    case 'fewer-bytes':
      if (nginx === null || nginx.result.bytesPerResponse === 0) return { comparison: '—', met: null };
      // How many times fewer is "far fewer" is for the reader to say; the figure is here.
      return { comparison: `${ratio(ours.result.bytesPerResponse / nginx.result.bytesPerResponse)} bytes`, met: null };
    case 'p99':
      return { comparison: '—', met: ours.result.latencyMs.p99 < target.maxMs };
  }
}

const metText = (met: boolean | null) => (met === null ? '' : met ? 'yes' : 'no');

function sideCells(side: Side | null): string[] {
  if (side === null) return ['—', '—', '—', '—'];
  const failed = failures(side.result);
  return [
    side.answer + (failed === '' ? '' : ` (${failed})`),
    integer(side.result.requestsPerSecond),
    `${ms(side.result.latencyMs.p50)} / ${ms(side.result.latencyMs.p99)}`,
    integer(side.result.bytesPerResponse),
  ];
}

function markdown(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: ReadonlySet<number>): string {
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  const rule = header.map((_, i) => (rightAligned.has(i) ? '---:' : '---'));
  return [line(header), `|${rule.join('|')}|`, ...rows.map(line)].join('\n');
}

export function rowsTable(rows: readonly Row[]): string {
  const header = [
    'measure',
    'conns',
    'ours: answer',
    'ours req/s',
    'ours p50 / p99 ms',
    'ours bytes/resp',
    'nginx: answer',
    'nginx req/s',
    'nginx p50 / p99 ms',
    'nginx bytes/resp',
    'ours / nginx',
    'target',
    'met',
  ];
  const body = rows.map((row) => {
    const { comparison, met } = judge(row);
    return [row.label, String(row.connections), ...sideCells(row.ours), ...sideCells(row.nginx), comparison, targetText(row.target), metText(met)];
  });
  return markdown(header, body, new Set([1, 3, 4, 5, 7, 8, 9, 10]));
}

export function rssTable(rounds: readonly RssRound[]): string {
  const header = ['server RSS', 'req/s', 'p99 ms', 'failed', 'RSS after'];
  const body = rounds.map((r) => [
    r.label,
    r.result === null ? '' : integer(r.result.requestsPerSecond),
    r.result === null ? '' : ms(r.result.latencyMs.p99),
    r.result === null ? '' : failures(r.result) || 'none',
    mib(r.rssKiB),
  ]);
  return markdown(header, body, new Set([1, 2, 4]));
}

/** Growth from the first loaded round to the last: "flat" is for the reader to judge from it. */
export function rssDrift(rounds: readonly RssRound[]): string {
  const loaded = rounds.filter((r) => r.result !== null && r.rssKiB !== null);
  const first = loaded[0]?.rssKiB;
  const last = loaded.at(-1)?.rssKiB;
  if (first === undefined || last === undefined || first === null || last === null || loaded.length < 2) return 'RSS drift: n/a';
  const delta = last - first;
  const sign = delta >= 0 ? '+' : '-';
  return `RSS drift from the first loaded round to the last: ${sign}${mib(Math.abs(delta))} (${sign}${Math.abs((delta / first) * 100).toFixed(1)}%); target: flat`;
}
