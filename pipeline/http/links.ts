import { contentTypeOf, href } from '../paths.ts';
import { findRoute, type Route } from '../routes.ts';

// The Link header every answer carries (docs/API.md §5.5), and the canonical address it names.

/** The other forms of the same content, for the Link header. */
function siblingOf(path: string): { path: string; type: string } {
  const swaps: Record<string, string[]> = { '.json': ['.html', '.csv', '.txt'], '.html': ['.json'], '.md': ['.json'], '.csv': ['.json'], '.txt': ['.json'] };
  const extension = /\.[a-z]+$/.exec(path)?.[0] ?? '';
  for (const other of swaps[extension] ?? []) {
    const candidate = path.slice(0, -extension.length) + other;
    if (findRoute(candidate)) return { path: candidate, type: contentTypeOf(candidate) };
  }
  return { path: href('documents'), type: 'application/json' };
}

/**
 * The address to name in `Link: rel=canonical`, or null when the request used it: the
 * unprefixed path for a request under /api/v1, the published address of a document reached by
 * one of its other names (/docs for /reference).
 */
export function canonicalAddress(route: Route | undefined, requested: string, stored: string, prefixed: boolean): string | null {
  if (route?.canonical !== undefined) return requested === route.canonical && !prefixed ? null : route.canonical;
  return prefixed ? stored : null;
}

export function linkHeader(base: string, path: string, canonical: string | null, cursor: number): string {
  const sibling = siblingOf(path);
  const links = [
    // "What changed after the state this answer reflects": the feed from the current head.
    `<${base}${href('changes')}?since=${cursor}>; rel="related"; type="application/json"`,
    `<${base}${sibling.path}>; rel="alternate"; type="${sibling.type}"`,
    `<${base}${href('openapi')}>; rel="service-desc"; type="application/openapi+json"`,
    // RFC 9727 3: the catalogue of the publisher's APIs, named from every answer (HEAD included).
    `<${base}${href('api_catalog')}>; rel="api-catalog"; type="application/linkset+json"`,
  ];
  if (canonical !== null) links.unshift(`<${base}${canonical}>; rel="canonical"`);
  return links.join(', ');
}
