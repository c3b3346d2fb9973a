// One request before each row: what the row is about to measure (status, coding, size), and the
// validator each server gives, since nginx's ETag is not ours. node:http, not fetch, because
// fetch would decode a compressed body and hide its size.
import { request } from 'node:http';
import type { WrkRequest } from './wrk.ts';

export interface Probe {
  status: number;
  headers: Record<string, string>;
  /** Body bytes as sent on the wire (still compressed when the answer is). */
  bodyBytes: number;
}

export function probe(origin: string, what: WrkRequest): Promise<Probe> {
  const url = new URL(origin);
  const headers = { ...what.headers, ...(what.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(what.body)) }) };
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: what.path, method: what.method, headers, agent: false }, (res) => {
      let bodyBytes = 0;
      res.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      res.once('error', reject);
      res.once('end', () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers: flat, bodyBytes });
      });
    });
    req.once('error', reject);
    req.end(what.body);
  });
}

/** "200, 1,635 B", "200 br, 41,210 B", "304": the answer as the table shows it. */
export function describeAnswer(answer: Probe): string {
  const coding = answer.headers['content-encoding'];
  const status = coding === undefined ? String(answer.status) : `${answer.status} ${coding}`;
  return answer.bodyBytes === 0 ? status : `${status}, ${answer.bodyBytes.toLocaleString('en-US')} B`;
}
