import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

/**
 * A token a crawler honours is a retired name with no crawler of its own: it must not be any
 * record's robots.txt token, nor be claimed by two crawlers, or the audit could not say which
 * crawler a group naming it speaks to. Tokens compare case-insensitively (RFC 9309 2.2.1).
 */
export function checkHonouredTokens(records: RecordSet): Problem[] {
  const problems: Problem[] = [];
  const ownTokens = new Map(records.crawlers.flatMap((c) => (c.robots_token === null ? [] : [[c.robots_token.toLowerCase(), c.slug] as const])));
  const claimed = new Map<string, string>();
  for (const crawler of records.crawlers) {
    (crawler.honoured_tokens ?? []).forEach((honoured, index) => {
      const key = honoured.token.toLowerCase();
      const path = `/honoured_tokens/${index}/token`;
      const owner = ownTokens.get(key);
      if (owner !== undefined) {
        problems.push({
          file: crawlerFile(crawler.slug),
          path,
          message: `"${honoured.token}" is the robots.txt token of ${crawlerFile(owner)}; an honoured token must be a retired name with no record of its own`,
        });
      }
      const first = claimed.get(key);
      if (first !== undefined) {
        problems.push({ file: crawlerFile(crawler.slug), path, message: `"${honoured.token}" is already honoured by ${crawlerFile(first)}` });
      } else {
        claimed.set(key, crawler.slug);
      }
    });
  }
  return problems;
}
