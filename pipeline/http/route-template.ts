import { canonicalPath, findRoute } from '../routes.ts';
import { API_PREFIX, resolvePath } from './paths.ts';

/** The route a request target belongs to, as its template (`/crawler/{slug}.json`): what the log keeps instead of the raw path and query. */
export function routeTemplateOf(pathAndQuery: string): string {
  const path = pathAndQuery.split('?', 1)[0] ?? '';
  const resolved = resolvePath(path);
  if (!resolved.ok) return '(none)';
  const route = findRoute(canonicalPath(resolved.path));
  if (route === undefined) return '(none)';
  return resolved.prefixed ? API_PREFIX + route.path : route.path;
}
