import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';
import { userAgentForms } from '../user-agent-forms.ts';

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

/** Every form's substring, the variants' too: each one alone names the crawler. */
export function checkSpecificSubstrings(records: RecordSet): Problem[] {
  return records.crawlers.flatMap((crawler) =>
    userAgentForms(crawler).flatMap(({ substring, path }): Problem[] => {
      const word = substring.replace(/[^A-Za-z0-9-]/g, '').toLowerCase();
      const file = crawlerFile(crawler.slug);
      if (substring.length < MIN_SUBSTRING_LENGTH) {
        return [{ file, path, message: `"${substring}" is shorter than ${MIN_SUBSTRING_LENGTH} characters; it would match inside other products' headers` }];
      }
      if (GENERIC_WORDS.has(word))
        return [{ file, path, message: `"${substring}" is a word many products' headers contain; use the crawler's own product name` }];
      return [];
    }),
  );
}
