import { lintParsed, parseRobotsTxt } from '../robots/index.ts';
import { textOf } from '../registry/input.ts';
import { LISTED_FINDINGS } from '../registry/limits.ts';
import { defineTool } from '../registry/types.ts';
import { LINT_SCHEMA, lintAnswer, lintIndexOf, ROBOTS_TXT, summarizeLint } from './robots-answers.ts';

export const lintTool = defineTool({
  name: 'lint_robots_txt',
  path: 'robots-lint',
  title: 'robots.txt linter',
  description: `Reports faults in a robots.txt with line number, severity and fix: misspelt directives, a whole User-Agent header where a token belongs, tokens that are not RFC 9309 product tokens (a note where the index records that token for a crawler), user-agent values that name no known crawler (with the one most likely meant), rules before any User-agent line, duplicate groups, noindex and other unsupported directives, relative Sitemap URLs, a byte-order mark, non-UTF-8 bytes, an oversize file, Crawl-delay. Usage-preference lines are explained, never called errors: Content-Usage (IETF AI Preferences, draft-ietf-aipref-attach-05 / vocab-07), Content-Signal (Cloudflare), RSL License and Cloudflare-managed blocks, with warnings for legacy or unknown labels, wrong values, syntax, misplaced lines, preferences on disallowed paths and managed groups that override the site's own. The first ${LISTED_FINDINGS} findings (by line) are listed; counts cover all of them and findings_omitted says how many were not listed.`,
  params: [ROBOTS_TXT],
  postBody: 'robots_txt',
  outputSchema: LINT_SCHEMA,
  examples: [
    { description: 'A misspelt Disallow', input: { robots_txt: 'User-agent: *\nDissallow: /private\n' } },
    {
      description: 'Usage preferences: a legacy label, a Content-Signal and an RSL licence',
      input: {
        robots_txt:
          'License: https://example.com/license.xml\nUser-agent: *\nAllow: /\nContent-Usage: train-genai=n\nContent-Signal: search=yes, ai-train=no\n',
      },
    },
  ],
  run: (input, { data }) => lintAnswer(lintParsed(parseRobotsTxt(textOf(input, 'robots_txt')), lintIndexOf(data.crawlers, data.clients))),
  summarize: summarizeLint,
});
