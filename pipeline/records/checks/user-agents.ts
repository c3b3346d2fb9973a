import { BROWSER_USER_AGENTS } from '../../tools/browser-user-agents.ts';
import type { Problem, RecordSet } from '../types.ts';
import { foldAscii } from '../../util/ascii.ts';
import { crawlerFile } from './where.ts';
import { containsToken, fullFormPattern } from '../../tools/classify/token.ts';
import { userAgentForms } from '../user-agent-forms.ts';

/**
 * What marks a documented form rather than a header a crawler sent: a placeholder in braces or
 * angle brackets, the word UUID, a run of x standing for masked characters, an ellipsis. Such a
 * form belongs in user_agent_full_forms (with {version}, {number}, {letter}); an example is a
 * real header, or null with user_agent_note saying why none is known (the records schema).
 */
const PLACEHOLDER = /\{[^}]*\}|<[^>]*>|(?<![A-Za-z])UUID(?![A-Za-z])|x{4,}|…|\.\.\./i;

/**
 * A substring is only useful if it appears in the crawler's own header and in no browser's:
 * a substring found in a browser UA would make every visitor look like that crawler.
 */
export function checkUserAgents(records: RecordSet, browsers: readonly string[] = BROWSER_USER_AGENTS): Problem[] {
  const problems: Problem[] = [];
  for (const crawler of records.crawlers) {
    const file = crawlerFile(crawler.slug);
    if (crawler.user_agent_substring === null && (crawler.variants?.length ?? 0) > 0) {
      // A variant is another form of a header the crawler is known by; with none of its own there is nothing to vary.
      problems.push({
        file,
        path: '/variants',
        message: 'a crawler with no user_agent_substring has no variants: give it the substring its headers share, or none',
      });
    }
    const full = crawler.user_agent_full_forms ?? [];
    full.forEach((form, index) => {
      if (crawler.user_agent_substring === null || !form.includes(crawler.user_agent_substring)) {
        problems.push({
          file,
          path: `/user_agent_full_forms/${index}`,
          message: `does not contain user_agent_substring "${crawler.user_agent_substring}", which finds the header before the form is tried`,
        });
      }
    });
    const example = crawler.user_agent_example;
    if (full.length > 0 && example !== null && !full.some((form) => new RegExp(fullFormPattern(form), 'i').test(example))) {
      problems.push({
        file,
        path: '/user_agent_example',
        message: 'has none of the user_agent_full_forms, so the crawler would not be named for its own example',
      });
    }
    for (const { substring, example, path } of userAgentForms(crawler)) {
      if (example === null) continue;
      const examplePath = path.replace(/user_agent_substring$/, 'user_agent_example');
      const placeholder = PLACEHOLDER.exec(example)?.[0];
      if (placeholder !== undefined) {
        problems.push({
          file,
          path: examplePath,
          message: `holds "${placeholder}", a placeholder or a masked part, not a header a crawler sent: give a real header a source shows (a record's own example may instead be null, with user_agent_note saying why)`,
        });
      }
      if (!example.includes(substring)) {
        problems.push({ file, path: examplePath, message: `does not contain user_agent_substring "${substring}" (case-sensitive)` });
      } else if (!containsToken(example, substring)) {
        // The classifier and the server configs take a substring only where it stands as a token.
        problems.push({ file, path, message: `"${substring}" occurs in the example only inside a longer word, so nothing would match it` });
      }
      // The classifier ignores ASCII case, so a browser header matching in any case would misidentify.
      const folded = foldAscii(substring);
      const browser = browsers.find((ua) => foldAscii(ua).includes(folded));
      if (browser !== undefined) {
        problems.push({ file, path, message: `"${substring}" occurs in a browser user agent and would misidentify people: ${browser}` });
      }
    }
  }
  return problems;
}
