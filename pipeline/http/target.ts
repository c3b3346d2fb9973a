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
