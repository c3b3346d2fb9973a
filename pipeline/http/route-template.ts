import { canonicalPath, findRoute } from '../routes.ts';
import { resolvePath } from './request-path.ts';
import { API_PREFIX } from '../paths.ts';
import { boundedMemo } from '../util/bounded-memo.ts';

/** The route a request target belongs to, as its template (`/crawler/{slug}.json`): what the log keeps instead of the raw path and query. */
export function routeTemplateOf(pathAndQuery: string): string {
  return templateOfPath(pathAndQuery.split('?', 1)[0] ?? '');
}

// Paths are whatever clients send: a bounded number of them is remembered, most of them documents.
const templateOfPath = boundedMemo(templateOf, { keys: 4096, keyLength: 512 });

function templateOf(path: string): string {
  const resolved = resolvePath(path);
  if (!resolved.ok) return '(none)';
  const route = findRoute(canonicalPath(resolved.path));
  if (route === undefined) return '(none)';
  return resolved.prefixed ? API_PREFIX + route.path : route.path;
}
