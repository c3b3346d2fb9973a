import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

/** Shorter substrings match inside unrelated products' headers too often to identify anything. */
const MIN_SUBSTRING_LENGTH = 5;

// Words that occur in many products' User-Agent headers (docs/PRINCIPLES.md, "Data style": `bot`, `Spider`, `LCC`
// were seen misfiring elsewhere). A substring that is one of them, whatever its case, is refused.
const GENERIC_WORDS = new Set([
  'bot',
  'robot',
  'spider',
  'crawler',
  'crawl',
  'scraper',
  'fetcher',
  'fetch',
  'agent',
  'preview',
  'search',
  'archive',
  'code',
  'lcc',
  'google',
  'mozilla',
  'compatible',
  'applewebkit',
  'khtml',
  'gecko',
  'like',
  'chrome',
  'safari',
  'mobile',
  'http',
  'https',
  'www',
  'python',
  'java',
  'curl',
  'wget',
  'okhttp',
  'go-http-client',
  'node',
  'axios',
  'headless',
]);

export function checkSpecificSubstrings(records: RecordSet): Problem[] {
  return records.crawlers.flatMap((crawler) => {
    const substring = crawler.user_agent_substring;
    if (substring === null) return [];
    const word = substring.replace(/[^A-Za-z0-9-]/g, '').toLowerCase();
    if (substring.length < MIN_SUBSTRING_LENGTH) {
      return [
        {
          file: crawlerFile(crawler.slug),
          path: '/user_agent_substring',
          message: `"${substring}" is shorter than ${MIN_SUBSTRING_LENGTH} characters; it would match inside other products' headers`,
        },
      ];
    }
    if (GENERIC_WORDS.has(word)) {
      return [
        {
          file: crawlerFile(crawler.slug),
          path: '/user_agent_substring',
          message: `"${substring}" is a word many products' headers contain; use the crawler's own product name`,
        },
      ];
    }
    return [];
  });
}
