import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile, operatorFile, SOURCES_FILE } from './where.ts';

/**
 * Slugs, robots tokens and UA substrings must each name one record. Tokens compare
 * case-insensitively because robots.txt parsers match them that way (RFC 9309 2.2.1).
 */
export function checkUnique(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  const once = <T>(items: readonly T[], key: (item: T) => string | null, file: (item: T) => string, path: string, what: string) => {
    const seen = new Map<string, T>();
    for (const item of items) {
      const value = key(item);
      if (value === null) continue;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, item);
      else problems.push({ file: file(item), path, message: `${what} "${value}" is already used by ${file(first)}` });
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
  once(
    records.crawlers,
    (c) => c.user_agent_substring,
    (c) => crawlerFile(c.slug),
    '/user_agent_substring',
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
