import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

/**
 * A request with the path sent exactly as given: fetch() would resolve `..` and encode
 * characters before they reach the server, which would hide traversal bugs.
 */
export function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string } = {},
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    // Node sends DELETE and OPTIONS bodies without framing unless told the length.
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    // A source address of its own (any of 127.0.0.0/8 on loopback) is a fresh connection: no pooled one has it.
    const from = options.localAddress === undefined ? {} : { localAddress: options.localAddress, agent: false };
    const req = request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers, ...from }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: res.statusCode ?? 0, headers, body, text: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The headers a Streamable HTTP MCP client (and an A2A client) sends with a JSON-RPC POST. */
export const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
