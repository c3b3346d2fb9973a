import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  latencyP99Ms: number;
  statuses: Record<string, number>;
}

/** Drives one URL on loopback for a fixed time and reports the mean request rate. */
export async function load(label: string, url: string, headers: Record<string, string> = {}, seconds = 5): Promise<LoadResult> {
  const result = await autocannon({ url, connections: 10, pipelining: 1, duration: seconds, headers });
  const statuses: Record<string, number> = {};
  for (const code of ['1xx', '2xx', '3xx', '4xx', '5xx'] as const) if (result[code] > 0) statuses[code] = result[code];
  return { label, requestsPerSecond: Math.round(result.requests.average), latencyP99Ms: result.latency.p99, statuses };
}

export function table(results: readonly LoadResult[]): string {
  const rows = results.map((r) => `${r.label.padEnd(52)} ${String(r.requestsPerSecond).padStart(9)} req/s   p99 ${String(r.latencyP99Ms).padStart(4)} ms   ${JSON.stringify(r.statuses)}`);
  return rows.join('\n');
}
