import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

/**
 * The other names a record answers to, a retired token it honours or an alias sites write, must
 * not be any record's robots.txt token, nor be claimed twice, or the audit could not say which
 * crawler a group naming it speaks to. Names compare case-insensitively (RFC 9309 2.2.1).
 */
export function checkOtherNames(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  const ownTokens = new Map(records.crawlers.flatMap((c) => (c.robots_token === null ? [] : [[c.robots_token.toLowerCase(), c.slug] as const])));
  const claimed = new Map<string, string>();
  for (const crawler of records.crawlers) {
    const names = [
      ...(crawler.honoured_tokens ?? []).map((h, index) => ({ name: h.token, path: `/honoured_tokens/${index}/token`, what: 'an honoured token' })),
      ...(crawler.aliases ?? []).map((a, index) => ({ name: a.name, path: `/aliases/${index}/name`, what: 'an alias' })),
    ];
    for (const { name, path, what } of names) {
      const key = name.toLowerCase();
      const owner = ownTokens.get(key);
      if (owner !== undefined) {
        problems.push({
          file: crawlerFile(crawler.slug),
          path,
          message: `"${name}" is the robots.txt token of ${crawlerFile(owner)}; ${what} must be a name with no record of its own`,
        });
      }
      const first = claimed.get(key);
      if (first !== undefined) {
        problems.push({ file: crawlerFile(crawler.slug), path, message: `"${name}" is already claimed by ${crawlerFile(first)}` });
      } else {
        claimed.set(key, crawler.slug);
      }
    }
  }
  return problems;
}
