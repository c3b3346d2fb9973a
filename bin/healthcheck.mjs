// The container's HEALTHCHECK: exit 0 when GET /healthz on this machine answers 200 "ok" within
// 2 s, 1 otherwise. Plain node, because the slim image has neither curl nor wget.
const host = !process.env.HOST || process.env.HOST === '0.0.0.0' || process.env.HOST === '::' ? '127.0.0.1' : process.env.HOST;
const port = process.env.PORT || '8080';
const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  const body = await response.json();
  if (response.status !== 200 || body?.status !== 'ok') throw new Error(`${response.status} ${JSON.stringify(body)}`);
} catch (error) {
  process.stderr.write(`healthcheck: ${url}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
