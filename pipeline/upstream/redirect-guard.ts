// Where a refresh may be redirected. The URL a maintainer configured (sources.yaml, or
// --upstream-base) is trusted as configured, and so is any address on that same origin. A
// redirect anywhere else is the upstream's choice, not ours: it is followed only over https
// and only to a host whose every address is public unicast (public-space.ts). Otherwise an
// upstream could send the refresh to a service on our own network (a metadata endpoint, a
// local admin port) and we would publish what it answered.
//
// A host name is checked by the lookup of the very connection that uses it, so a name that
// resolves to a public address when checked and to a private one when connected (DNS
// rebinding) is caught as well.

import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { addressProblem } from './public-space.ts';

/** Why a redirect to `next` may not be followed before any lookup, or null. */
export function redirectProblem(next: URL, configured: URL): string | null {
  if (next.origin === configured.origin) return null;
  if (next.protocol !== 'https:') return 'redirects away from the configured origin are followed only to https addresses';
  const host = literalAddress(next);
  if (host === null) return null;
  const problem = addressProblem(host);
  return problem === null ? null : `${host} is ${problem}; redirects are followed only to public addresses`;
}

/** Why a URL written as an IP address may not be contacted by a public-only fetch, or null (a host name is checked at its lookup). */
export function literalAddressProblem(url: URL): string | null {
  const host = literalAddress(url);
  const problem = host === null ? null : addressProblem(host);
  return problem === null ? null : `${host} is ${problem}`;
}

/** The host of a URL when it is an IP address (IPv6 without its brackets), else null. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith('[') && url.hostname.endsWith(']') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

/** A redirect target's host name resolved to an address a crawler list may not come from. */
export class NotPublicAddressError extends Error {
  readonly code = 'ERR_NOT_PUBLIC_ADDRESS';
  readonly hostname: string;
  readonly address: string;
  readonly problem: string;
  constructor(hostname: string, address: string, problem: string) {
    super(`${hostname} resolves to ${address}, which is ${problem}; redirects are followed only to public addresses`);
    this.hostname = hostname;
    this.address = address;
    this.problem = problem;
    this.name = 'NotPublicAddressError';
  }
}

/** Every address a host name resolves to (the system resolver, as connections use it). */
export type Resolve = (hostname: string, family: 4 | 6 | undefined) => Promise<string[]>;

const systemResolve: Resolve = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true, ...(family ? { family } : {}) }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((a) => a.address));
    });
  });

/**
 * A `lookup` for net/tls connections that refuses a host name with any non-public address.
 * Refusing the whole name, not just its bad addresses, is deliberate: a name that mixes
 * both is not an operator's download server.
 */
export function publicOnlyLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    resolve(hostname, family).then(
      (addresses) => {
        for (const address of addresses) {
          const problem = addressProblem(address);
          if (problem !== null) {
            callback(new NotPublicAddressError(hostname, address, problem), '');
            return;
          }
        }
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`${hostname} resolves to no address`), { code: 'ENOTFOUND' }), '');
          return;
        }
        const all: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, all);
        else callback(null, first, isIP(first));
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
