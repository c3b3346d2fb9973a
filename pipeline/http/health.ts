// GET /healthz: the liveness answer for a container's HEALTHCHECK or a load balancer. It reads
// nothing but the build being served (which the server cannot run without), so it stays cheap
// under load, and it is never cached: a stale "ok" would hide a dead server.

import type { Answerer } from './answer-context.ts';

interface Health {
  status: 'ok';
  /** When the build being served last changed (its ledger's generated_at). */
  generated_at: string;
}

function healthDocument(generatedAt: string): Health {
  return { status: 'ok', generated_at: generatedAt };
}

function healthResponse(health: Health, headers: Readonly<Record<string, string>>): Response {
  return new Response(`${JSON.stringify(health, null, 2)}\n`, {
    status: 200,
    headers: { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

export const answerHealth: Answerer<'health'> = async (_how, { headers }, { store }) => healthResponse(healthDocument(await store.generatedAt()), headers);
