// The origin a client reached this server by, for every address a dynamic answer names (the
// change feed's `next`, Link headers, the API root, tool URLs, the agent card, error messages):
// a client that follows them must stay on the server it was talking to, not be sent to the
// address the index was built for. Stored documents keep the build's base URL, whose bytes are
// what the ledger's ETags name, except on a server given a fixed one: it relocates the tree
// when it loads it (node/relocated-snapshot.ts).

/** How the public origin is decided; fixed by the operator at start (BASE_URL, --trust-proxy). */
export interface OriginPolicy {
  /** BASE_URL / --base-url: every answer names this origin, whatever the request says. */
  fixed: string | null;
  /** --trust-proxy: read Forwarded, X-Forwarded-Proto and X-Forwarded-Host, which a proxy in front sets. */
  trustProxy: boolean;
}

/** The request headers the origin is read from. */
export interface OriginHeaders {
  host: string | null;
  forwarded: string | null;
  forwardedProto: string | null;
  forwardedHost: string | null;
}

export const DIRECT: OriginPolicy = { fixed: null, trustProxy: false };

// RFC 3986 host (a name, an IPv4 address or a bracketed IPv6 address) and an optional port.
// Anything else in Host is not used as an address: the answer names the listening one instead.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const MAX_HOST = 261;

function validHost(value: string | null | undefined): string | null {
  const host = value?.trim() ?? '';
  if (host === '' || host.length > MAX_HOST || !HOST.test(host)) return null;
  const port = /:(\d+)$/.exec(host)?.[1];
  return port !== undefined && Number(port) > 65535 ? null : host.toLowerCase();
}

function validProto(value: string | null | undefined): 'http' | 'https' | null {
  const proto = value?.trim().toLowerCase();
  return proto === 'http' || proto === 'https' ? proto : null;
}

/** The first element of a Forwarded header (RFC 7239): the proxy nearest the client's view. */
function forwardedPair(header: string | null): { proto: string | null; host: string | null } {
  const first = header?.split(',')[0] ?? '';
  const read = (name: string) => {
    const match = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*("([^"]*)"|[^;]*)`, 'i').exec(first);
    return match === null ? null : (match[2] ?? match[1] ?? '').trim();
  };
  return { proto: read('proto'), host: read('host') };
}

/** Removes a default port, so that http://x:80 and http://x name the same origin. */
function origin(proto: string, host: string): string {
  const defaultPort = proto === 'https' ? ':443' : ':80';
  return `${proto}://${host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host}`;
}

/**
 * The origin to name in answers: the fixed one when set; else what a trusted proxy says; else
 * the Host the client sent with the scheme the request arrived by; else `fallback` (the
 * listening address), when the Host header is missing or not a host.
 */
export function publicOrigin(policy: OriginPolicy, headers: OriginHeaders, fallback: string): string {
  if (policy.fixed !== null) return policy.fixed;
  const scheme = fallback.startsWith('https:') ? 'https' : 'http';
  if (policy.trustProxy) {
    const forwarded = forwardedPair(headers.forwarded);
    const proto = validProto(forwarded.proto) ?? validProto(headers.forwardedProto?.split(',')[0]) ?? scheme;
    const host = validHost(forwarded.host) ?? validHost(headers.forwardedHost?.split(',')[0]) ?? validHost(headers.host);
    if (host !== null) return origin(proto, host);
  }
  const host = validHost(headers.host);
  return host === null ? fallback : origin(scheme, host);
}

export function originHeadersOf(headers: Headers): OriginHeaders {
  return {
    host: headers.get('host'),
    forwarded: headers.get('forwarded'),
    forwardedProto: headers.get('x-forwarded-proto'),
    forwardedHost: headers.get('x-forwarded-host'),
  };
}

/**
 * publicOrigin for one policy, remembering its last answer: nearly every request comes by the
 * same name as the one before, and reading it again (a pattern test, a copy) was a part of every
 * stored document's answer. The headers are compared, not trusted: any change reads them afresh.
 */
export function originReader(policy: OriginPolicy): (headers: OriginHeaders, fallback: string) => string {
  let last: { headers: OriginHeaders; fallback: string; origin: string } | null = null;
  return (headers, fallback) => {
    if (
      last !== null &&
      last.fallback === fallback &&
      last.headers.host === headers.host &&
      last.headers.forwarded === headers.forwarded &&
      last.headers.forwardedProto === headers.forwardedProto &&
      last.headers.forwardedHost === headers.forwardedHost
    ) {
      return last.origin;
    }
    const origin = publicOrigin(policy, headers, fallback);
    last = { headers, fallback, origin };
    return origin;
  };
}
