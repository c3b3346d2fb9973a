import { BROWSER_USER_AGENTS } from '../../tools/browser-user-agents.ts';
import type { Problem, RecordSet } from '../types.ts';
import { foldAscii } from '../../util/ascii.ts';
import { crawlerFile } from './where.ts';
import { containsToken } from '../../tools/classify/token.ts';

/**
 * A substring is only useful if it appears in the crawler's own header and in no browser's:
 * a substring found in a browser UA would make every visitor look like that crawler.
 */
export function checkUserAgents(records: RecordSet, browsers: readonly string[] = BROWSER_USER_AGENTS): Problem[] {
  const problems: Problem[] = [];
  for (const crawler of records.crawlers) {
    const { user_agent_substring: substring, user_agent_example: example } = crawler;
    if (substring === null || example === null) continue;
    const file = crawlerFile(crawler.slug);
    if (!example.includes(substring)) {
      problems.push({ file, path: '/user_agent_example', message: `does not contain user_agent_substring "${substring}" (case-sensitive)` });
    } else if (!containsToken(example, substring)) {
      // The classifier and the server configs take a substring only where it stands as a token.
      problems.push({
        file,
        path: '/user_agent_substring',
        message: `"${substring}" occurs in the example only inside a longer word, so nothing would match it`,
      });
    }
    // The classifier ignores ASCII case, so a browser header matching in any case would misidentify.
    const folded = foldAscii(substring);
    const browser = browsers.find((ua) => foldAscii(ua).includes(folded));
    if (browser !== undefined) {
      problems.push({ file, path: '/user_agent_substring', message: `"${substring}" occurs in a browser user agent and would misidentify people: ${browser}` });
    }
  }
  return problems;
}
