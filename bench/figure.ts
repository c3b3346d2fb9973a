/** One measured figure and the baseline measured beside it in the same run. */
export interface BenchFigure {
  name: string;
  ms: number;
  baseline_ms: number;
  note: string;
}

/** Wall time of one run of `fn`, in milliseconds. */
export function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** The fastest of several runs: the least disturbed by the rest of the machine. */
export function fastest(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, time(fn));
  return best;
}
