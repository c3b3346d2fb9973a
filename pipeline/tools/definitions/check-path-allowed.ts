import { contradictionsOf, evaluateMany, notRobotsTxt, parseRobotsTxt, readingForToken, UNITS_PER_COMPARISON } from '../robots/index.ts';
import { listOf, textOf } from '../registry/input.ts';
import { EVALUATION_BUDGET, InputRefused, MAX_PATH_BYTES, MAX_PATHS_TOTAL_BYTES } from '../registry/limits.ts';
import { utf8Length } from '../../util/utf8-length.ts';
import { defineTool } from '../registry/types.ts';
import { crawlerNamedBy, type Classifier } from '../classify/classify.ts';
import { PREFERENCES_SCHEMA, preferencesFor, preferenceText } from './preference-answers.ts';
import { checkEvaluationBudget, ROBOTS_TXT } from './robots-answers.ts';

const MAX_PATHS = 200;

/**
 * The product token to evaluate. A whole User-Agent header pasted into `ua` is a common
 * mistake: when it names a crawler of the index, that crawler's robots.txt token is used (as
 * verify-crawler reads a claim); otherwise the evaluator cuts it as a parser would, and says so.
 */
function tokenOf(ua: string, classifier: Classifier): { token: string; note: string | null } {
  if (!/[\s/(;]/.test(ua.trim())) return { token: ua, note: null };
  const crawler = crawlerNamedBy(classifier, ua);
  if (crawler === null || crawler.robots_token === null) return { token: ua, note: null };
  return {
    token: crawler.robots_token,
    note: `ua is a whole User-Agent header; it names ${crawler.name}, whose robots.txt token is ${crawler.robots_token}, so that token was evaluated. Pass the token alone next time.`,
  };
}

export const allowedTool = defineTool({
  name: 'check_path_allowed',
  path: 'robots-allowed',
  title: 'Is this path allowed for this crawler?',
  description: `Evaluates a robots.txt under RFC 9309 for one product token and up to ${MAX_PATHS} paths: the longest matching token picks the group (groups naming it merge), the longest pattern picks the rule, Allow wins a tie, * and $ are supported. Each verdict gives the deciding line, flags where a first-group-wins or non-merging parser, or Google's reference parser, would decide differently (each with a note), and gives the usage preferences (Content-Usage, Content-Signal) that apply to the crawler at that path, with contradictions such as a use allowed on a path it may not fetch. An empty ua asks for a crawler that no group names (the * group applies). Limits per call: each path at most ${MAX_PATH_BYTES} bytes and all together ${MAX_PATHS_TOTAL_BYTES} (a GET's request head is at most 16 KiB, so send long paths in a POST form); the evaluation may spend ${EVALUATION_BUDGET} work units, about rules x paths x (path length + ${UNITS_PER_COMPARISON}), counted before any rule is matched; a larger call is refused, naming the cost and the budget, so split it.`,
  params: [
    ROBOTS_TXT,
    {
      name: 'ua',
      kind: 'string',
      required: true,
      maxBytes: 256,
      // RFC 9309 2.2.1: a crawler that no group names obeys the `*` group, or no rule; an empty ua asks for that crawler.
      emptyIsValue: true,
      description:
        "The product token of the crawler (GPTBot). A whole User-Agent header that names a crawler of the index is read as that crawler's token, with a note. Empty: a crawler that no group names, so the * group applies, or no rule (RFC 9309 2.2.1).",
      accepted: 'a robots.txt product token such as GPTBot or Googlebot-Image, or empty, at most 256 bytes',
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
      description: 'The URL paths to evaluate, each starting with /.',
      http: 'Repeat path= or separate the paths with commas.',
      accepted: `1 to ${MAX_PATHS} URL paths of at most ${MAX_PATH_BYTES} bytes each and ${MAX_PATHS_TOTAL_BYTES} bytes together, as a list or separated by commas (default /)`,
    },
  ],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: ['token', 'ua_note', 'not_robots_txt', 'results', 'summary'],
    properties: {
      token: { type: 'string', description: 'The product token evaluated: ua itself, or the token of the crawler a whole User-Agent header names' },
      ua_note: { type: ['string', 'null'], description: 'How ua was read, when it was a whole User-Agent header rather than a token' },
      not_robots_txt: { type: ['string', 'null'], description: 'Set when the file is an HTML or XML page, not a robots.txt' },
      summary: { type: 'object', required: ['allowed', 'disallowed'] },
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['path', 'allowed', 'deciding', 'reason', 'disagreements', 'preferences', 'preference_contradictions'],
          properties: {
            preferences: PREFERENCES_SCHEMA,
            preference_contradictions: {
              type: 'array',
              description:
                'Where the preferences for this path contradict the crawl rules: a use allowed on a path the crawler may not fetch, or Content-Usage and Content-Signal disagreeing',
              items: {
                type: 'object',
                required: ['code', 'lines', 'message'],
                properties: {
                  code: { enum: ['preference-on-disallowed-path', 'vocabularies-disagree'] },
                  lines: { type: 'array', items: { type: 'integer' } },
                  message: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
  examples: [
    {
      description: 'GPTBot on two paths, with the preferences that apply to each',
      input: {
        robots_txt:
          'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nAllow: /public\nDisallow: /\nContent-Usage: train-ai=n\nContent-Usage: /public/ train-ai=n, search=y\n',
        ua: 'GPTBot',
        path: ['/public/a', '/private/b'],
      },
    },
  ],
  run: (input, { data }) => {
    const paths = listOf(input, 'path');
    const total = paths.reduce((sum, p) => sum + utf8Length(p), 0);
    if (total > MAX_PATHS_TOTAL_BYTES) {
      throw new InputRefused(
        'path',
        `The ${paths.length} paths hold ${total} bytes together; one call takes at most ${MAX_PATHS_TOTAL_BYTES}. Split them over several calls.`,
        `URL paths of at most ${MAX_PATH_BYTES} bytes each and ${MAX_PATHS_TOTAL_BYTES} bytes together`,
      );
    }
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const { token, note } = tokenOf(textOf(input, 'ua'), data.classifier);
    checkEvaluationBudget(
      parsed,
      [token],
      paths,
      'path',
      'Send fewer or shorter paths per call (or a file with fewer rules) and split the rest over several calls.',
    );
    // A token with a digit (AI2Bot) is read whole, as the crawler must read it; the notes give the strict reading.
    const reading = readingForToken(token);
    const results = evaluateMany(parsed, token, paths, reading).map((verdict) => {
      const preferences = preferencesFor(parsed, token, reading, verdict.path, verdict.allowed, null);
      return { ...verdict, preferences, preference_contradictions: contradictionsOf(verdict.token, verdict.path, preferences) };
    });
    return {
      token,
      ua_note: note,
      not_robots_txt: notRobotsTxt(parsed),
      summary: { allowed: results.filter((r) => r.allowed).length, disallowed: results.filter((r) => !r.allowed).length },
      results,
    };
  },
  summarize: (o) => {
    return (
      o.results
        .slice(0, 20)
        .map(
          (r) =>
            `${r.path}: ${r.allowed ? 'allowed' : 'disallowed'} for ${o.token === '' ? 'an empty user agent' : o.token} (${r.deciding ? `line ${r.deciding.line}: ${r.deciding.text}` : r.reason})` +
            (preferenceText(r.preferences) === 'none declared' ? '' : `; preferences: ${preferenceText(r.preferences)}`) +
            r.preference_contradictions.map((c) => `; contradiction: ${c.message}`).join(''),
        )
        .join('\n') +
      (o.results.length > 20 ? `\n… and ${o.results.length - 20} more paths` : '') +
      (o.ua_note === null ? '' : `\n${o.ua_note}`) +
      (o.not_robots_txt === null ? '' : `\n${o.not_robots_txt}`)
    );
  },
});
