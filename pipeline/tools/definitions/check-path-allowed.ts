import { evaluateMany, parseRobotsTxt, readingForToken, UNITS_PER_COMPARISON } from '../robots/index.ts';
import { listOf, textOf } from '../registry/input.ts';
import { EVALUATION_BUDGET, MAX_PATH_BYTES } from '../registry/limits.ts';
import { defineTool } from '../registry/types.ts';
import { checkEvaluationBudget, ROBOTS_TXT } from './robots-answers.ts';

const MAX_PATHS = 200;

export const allowedTool = defineTool({
  name: 'check_path_allowed',
  path: 'robots-allowed',
  title: 'Is this path allowed for this crawler?',
  description: `Evaluates a robots.txt under RFC 9309 for one product token and up to ${MAX_PATHS} paths: the longest matching token picks the group (groups naming it merge), the longest pattern picks the rule, Allow wins a tie, * and $ are supported. Each verdict gives the deciding line, and flags where a first-group-wins or non-merging parser would decide differently. Limits per call: each path at most ${MAX_PATH_BYTES} bytes; the evaluation may spend ${EVALUATION_BUDGET} work units, about rules x paths x (path length + ${UNITS_PER_COMPARISON}), counted before any rule is matched; a larger call is refused with a 400 naming the cost and the budget, so split it.`,
  params: [
    ROBOTS_TXT,
    {
      name: 'ua',
      kind: 'string',
      required: true,
      maxBytes: 256,
      description: 'The product token of the crawler (GPTBot), not a whole User-Agent header.',
      accepted: 'a robots.txt product token such as GPTBot or Googlebot-Image, at most 256 bytes',
      example: 'GPTBot',
    },
    {
      name: 'path',
      kind: 'list',
      required: false,
      maxItems: MAX_PATHS,
      maxItemBytes: MAX_PATH_BYTES,
      split: 'comma',
      default: ['/'],
      description: 'Paths to evaluate: repeat the parameter or separate with commas.',
      accepted: `1 to ${MAX_PATHS} URL paths of at most ${MAX_PATH_BYTES} bytes each (repeat path= or separate with commas; default /)`,
    },
  ],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: ['token', 'results', 'summary'],
    properties: {
      token: { type: 'string' },
      summary: { type: 'object', required: ['allowed', 'disallowed'] },
      results: { type: 'array', items: { type: 'object', required: ['path', 'allowed', 'deciding', 'reason', 'disagreements'] } },
    },
  },
  examples: [
    {
      description: 'GPTBot on two paths',
      input: {
        robots_txt: 'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /public\nDisallow: /\n',
        ua: 'GPTBot',
        path: ['/public/a', '/private/b'],
      },
    },
  ],
  run: (input) => {
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const paths = listOf(input, 'path');
    checkEvaluationBudget(
      parsed,
      [textOf(input, 'ua')],
      paths,
      'path',
      'Send fewer or shorter paths per call (or a file with fewer rules) and split the rest over several calls.',
    );
    // A token with a digit (AI2Bot) is read whole, as the crawler must read it; the notes give the strict reading.
    const token = textOf(input, 'ua');
    const results = evaluateMany(parsed, token, paths, readingForToken(token));
    return {
      token: textOf(input, 'ua'),
      summary: { allowed: results.filter((r) => r.allowed).length, disallowed: results.filter((r) => !r.allowed).length },
      results,
    };
  },
  summarize: (o) => {
    return (
      o.results
        .slice(0, 20)
        .map(
          (r) => `${r.path}: ${r.allowed ? 'allowed' : 'disallowed'} for ${o.token} (${r.deciding ? `line ${r.deciding.line}: ${r.deciding.text}` : r.reason})`,
        )
        .join('\n') + (o.results.length > 20 ? `\n… and ${o.results.length - 20} more paths` : '')
    );
  },
});
