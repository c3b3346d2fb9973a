import { quote } from '../util/quote.ts';

// RFC 9112 section 3.2: the four forms of a request-target. A server must accept every form it
// can be sent and answer the rest with 400; nothing here throws.

export type TargetResult = { ok: true; form: 'origin' | 'absolute'; pathAndQuery: string } | { ok: true; form: 'asterisk' } | { ok: false; message: string };

const ACCEPTED = 'an origin-form target such as /data/agents.json?x=1, an absolute-form target such as http://host/data/agents.json, or * with OPTIONS';

/**
 * Reduces a request-target to the path and query this server routes on. The origin-form is
 * kept byte for byte (`//` and `/\` are paths here, not authorities: resolving them against a
 * base URL is what used to throw); the absolute-form's own authority is ignored because this
 * server is not a proxy.
 */
export function parseTarget(target: string): TargetResult {
  if (target === '*') return { ok: true, form: 'asterisk' };
  if (target.startsWith('/')) return { ok: true, form: 'origin', pathAndQuery: target };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    const url = URL.parse(target);
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return { ok: false, message: `The request-target ${quote(target)} is not a valid http(s) URL. Send ${ACCEPTED}.` };
    }
    return { ok: true, form: 'absolute', pathAndQuery: url.pathname + url.search };
  }
  return { ok: false, message: `The request-target ${quote(target)} has no recognised form. Send ${ACCEPTED}.` };
}

const HOST_FORM = 'one Host header naming the server, such as Host: crawlers.example.org';

/**
 * RFC 9112 section 3.2: a server must answer 400 to an HTTP/1.1 request without a Host header
 * and to any request with more than one. `rawHeaders` is node:http's list of names and values
 * in turn (node keeps only the first Host in `headers`, so a duplicate is seen only there).
 */
export function hostProblem(httpVersion: string, rawHeaders: readonly string[]): string | null {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    // Every request passes here: only a four-letter name is lower-cased (a copy) to be compared.
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) return `The request has ${hosts} Host headers. Send ${HOST_FORM}.`;
  if (hosts === 0 && httpVersion === '1.1') return `An HTTP/1.1 request must carry a Host header. Send ${HOST_FORM}.`;
  return null;
}
