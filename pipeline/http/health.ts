// GET /healthz: the liveness answer for a container's HEALTHCHECK or a load balancer. It reads
// nothing but the build being served (which the server cannot run without), so it stays cheap
// under load, and it is never cached: a stale "ok" would hide a dead server.

export interface Health {
  status: 'ok';
  /** When the build being served last changed (its ledger's generated_at). */
  generated_at: string;
}

export function healthDocument(generatedAt: string): Health {
  return { status: 'ok', generated_at: generatedAt };
}

export function healthResponse(health: Health, headers: Readonly<Record<string, string>>): Response {
  return new Response(`${JSON.stringify(health, null, 2)}\n`, {
    status: 200,
    headers: { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}
