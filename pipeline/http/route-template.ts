import { canonicalPath, findRoute } from '../routes.ts';
import { resolvePath } from './request-path.ts';
import { API_PREFIX } from '../paths.ts';

/** The route a request target belongs to, as its template (`/crawler/{slug}.json`): what the log keeps instead of the raw path and query. */
export function routeTemplateOf(pathAndQuery: string): string {
  const path = pathAndQuery.split('?', 1)[0] ?? '';
  let template = seen.get(path);
  if (template === undefined) {
    template = templateOf(path);
    // Paths are whatever clients send: remember a bounded number of them, short enough to keep
    // (a 16 KiB path is read each time), most of them documents.
    if (path.length > SEEN_PATH_LENGTH) return template;
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.set(path, template);
  }
  return template;
}

const SEEN_LIMIT = 4096;
const SEEN_PATH_LENGTH = 512;
const seen = new Map<string, string>();

function templateOf(path: string): string {
  const resolved = resolvePath(path);
  if (!resolved.ok) return '(none)';
  const route = findRoute(canonicalPath(resolved.path));
  if (route === undefined) return '(none)';
  return resolved.prefixed ? API_PREFIX + route.path : route.path;
}
