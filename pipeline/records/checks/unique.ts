import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile, operatorFile, SOURCES_FILE } from './where.ts';
import { userAgentForms } from '../user-agent-forms.ts';

/**
 * Slugs, robots tokens and UA substrings must each name one record. Tokens compare
 * case-insensitively because robots.txt parsers match them that way (RFC 9309 2.2.1).
 */
export function checkUnique(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  const once = <T>(items: readonly T[], key: (item: T) => string | null, file: (item: T) => string, path: string | ((item: T) => string), what: string) => {
    const seen = new Map<string, T>();
    for (const item of items) {
      const value = key(item);
      if (value === null) continue;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, item);
      else
        problems.push({
          file: file(item),
          path: typeof path === 'string' ? path : path(item),
          message: `${what} "${value}" is already used by ${file(first)}`,
        });
    }
  };
  once(
    records.crawlers,
    (c) => c.slug,
    (c) => crawlerFile(c.slug),
    '/slug',
    'slug',
  );
  once(
    records.crawlers,
    (c) => c.robots_token?.toLowerCase() ?? null,
    (c) => crawlerFile(c.slug),
    '/robots_token',
    'robots token (case-insensitive)',
  );
  // A variant's substring is as much the crawler's name as its own: no other form may repeat it.
  once(
    records.crawlers.flatMap((c) => userAgentForms(c).map((form) => ({ slug: c.slug, ...form }))),
    (f) => f.substring,
    (f) => crawlerFile(f.slug),
    (f) => f.path,
    'user-agent substring',
  );
  once(
    records.operators,
    (o) => o.slug,
    (o) => operatorFile(o.slug),
    '/slug',
    'slug',
  );
  once(
    [...records.sources, ...records.directories],
    (s) => s.id,
    () => SOURCES_FILE,
    '/id',
    'source id',
  );
  return problems;
}
