import { parseRobotsTxt, UNITS_PER_COMPARISON } from '../robots/index.ts';
import { textOf } from '../registry/input.ts';
import { EVALUATION_BUDGET, LISTED_UNKNOWN_TOKENS, SUGGESTED_TOKENS } from '../registry/limits.ts';
import { defineTool } from '../registry/types.ts';
import { CONTENT_USAGE_HEADER, preferenceText, USAGE_PREFERENCES_SCHEMA } from './preference-answers.ts';
import { aiTokens, auditAiAccess, checkEvaluationBudget, crawlerBrief, PATH_PARAM, ROBOTS_TXT } from './robots-answers.ts';

export const auditTool = defineTool({
  name: 'audit_ai_access',
  path: 'ai-access',
  title: 'AI access audit of a robots.txt',
  description: `Evaluates a robots.txt against every AI crawler in the index (RFC 9309): which it blocks and lets in, per operator and category; which tokens match no known crawler (with a suggestion); which name a retired token a crawler still obeys, and what that crawler then does according to its operator (operator_says) beside the RFC 9309 reading of its own group; which blocked crawlers document obeying robots.txt versus those that may not; and, per crawler and per category, the usage preferences that apply at the path (IETF AI Preferences Content-Usage lines, Cloudflare Content-Signal lines, an optional Content-Usage response header), RSL License lines, Cloudflare-managed blocks and where they override the site's own groups, and contradictions between preferences and crawl rules. Limits per call: the first ${LISTED_UNKNOWN_TOKENS} unknown user-agent lines are listed and the first ${SUGGESTED_TOKENS} distinct unknown tokens get a suggestion (unknown_token_counts gives the totals); the evaluation may spend ${EVALUATION_BUDGET} work units (rules x (path length + ${UNITS_PER_COMPARISON})), a larger one is refused, naming the cost and the budget.`,
  params: [ROBOTS_TXT, PATH_PARAM, CONTENT_USAGE_HEADER],
  postBody: 'robots_txt',
  outputSchema: {
    type: 'object',
    required: [
      'path',
      'parsed',
      'summary',
      'blocked',
      'allowed',
      'by_operator',
      'by_category',
      'unknown_tokens',
      'unknown_token_counts',
      'honoured_tokens',
      'retired_tokens',
      'not_controlled_by_robots_txt',
      'tokenless_names',
      'alias_names',
      'client_names',
      'usage_preferences',
      'obedience',
    ],
    properties: {
      path: { type: 'string' },
      summary: {
        type: 'object',
        required: ['ai_crawlers', 'blocked', 'allowed'],
        properties: { ai_crawlers: { type: 'integer' }, blocked: { type: 'integer' }, allowed: { type: 'integer' } },
      },
      blocked: { type: 'array', items: crawlerBrief },
      allowed: { type: 'array', items: crawlerBrief },
      unknown_tokens: { type: 'array', maxItems: LISTED_UNKNOWN_TOKENS, items: { type: 'object', required: ['token', 'line', 'did_you_mean'] } },
      honoured_tokens: {
        type: 'array',
        maxItems: LISTED_UNKNOWN_TOKENS,
        description: 'User-agent lines naming a retired token that an indexed crawler still obeys, with the statement that says so.',
        items: { type: 'object', required: ['token', 'line', 'honoured_by', 'note', 'citation'] },
      },
      retired_tokens: {
        type: 'array',
        maxItems: LISTED_UNKNOWN_TOKENS,
        description: 'User-agent lines naming a crawler its operator retired: what that means and which crawler to name instead.',
        items: { type: 'object', required: ['token', 'line', 'crawler', 'retired_since', 'successor', 'explanation'] },
      },
      not_controlled_by_robots_txt: {
        type: 'array',
        description:
          "AI crawlers with no documented robots.txt token, which the file cannot name: either the operator says robots.txt does not apply (fetches a person starts) or it documents no token at all; each with its record's note.",
        items: { type: 'object', required: ['slug', 'name', 'operator', 'note'] },
      },
      tokenless_names: {
        type: 'array',
        maxItems: LISTED_UNKNOWN_TOKENS,
        description:
          'User-agent lines naming a crawler by the name its User-Agent carries although its operator documents no robots.txt token for it: such a group controls nothing.',
        items: { type: 'object', required: ['token', 'line', 'crawler', 'note'] },
      },
      alias_names: {
        type: 'array',
        maxItems: LISTED_UNKNOWN_TOKENS,
        description:
          'User-agent lines naming another spelling sites write for an indexed crawler (a token with its version, an older or collective name) that its operator has not said it obeys: the crawler, what the name is, and the token to write instead.',
        items: { type: 'object', required: ['token', 'line', 'crawler', 'note', 'write_instead'] },
      },
      client_names: {
        type: 'array',
        maxItems: LISTED_UNKNOWN_TOKENS,
        description:
          "User-agent lines naming software that is not one operator's crawler (an HTTP library, a scraping framework, a monitor): what it is, and that a group for it reaches only programs that keep its default header and read robots.txt.",
        items: { type: 'object', required: ['token', 'line', 'client', 'kind', 'note'] },
      },
      usage_preferences: USAGE_PREFERENCES_SCHEMA,
      obedience: {
        type: 'object',
        required: ['decided_by_honoured_token', 'blocked_and_documented', 'blocked_but_may_not_obey'],
      },
      unknown_token_counts: {
        type: 'object',
        required: ['lines', 'listed', 'distinct', 'suggested_for', 'note'],
        properties: {
          lines: { type: 'integer' },
          listed: { type: 'integer' },
          distinct: { type: 'integer' },
          suggested_for: { type: 'integer' },
          note: { type: ['string', 'null'] },
        },
      },
    },
  },
  examples: [
    { description: 'A file that blocks GPTBot and CCBot', input: { robots_txt: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\n' } },
    {
      description: 'Content Signals and a Content-Usage line: search yes, training no, and GPTBot blocked',
      input: {
        robots_txt:
          'User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nContent-Usage: train-ai=n\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\nContent-Signal: search=yes\n',
      },
    },
  ],
  run: (input, { data }) => {
    const parsed = parseRobotsTxt(textOf(input, 'robots_txt'));
    const path = textOf(input, 'path') || '/';
    checkEvaluationBudget(
      parsed,
      aiTokens(data.crawlers, data.aiCategories),
      [path],
      'robots_txt',
      'Send a file with fewer rules (merge them with * patterns).',
    );
    return auditAiAccess(parsed, path, data.crawlers, data.aiCategories, data.clients, textOf(input, 'content_usage_header'));
  },
  summarize: (o) => {
    const lines = [`For ${o.path}: ${o.summary.blocked} of ${o.summary.ai_crawlers} AI crawlers are blocked, ${o.summary.allowed} allowed.`];
    if (o.parsed.not_robots_txt !== null) lines.unshift(o.parsed.not_robots_txt);
    for (const c of [...o.blocked, ...o.allowed]) if (c.parser_dependent !== null) lines.push(`${c.name}: ${c.parser_dependent.note}`);
    for (const r of o.retired_tokens) lines.push(`Line ${r.line}: ${r.explanation}`);
    for (const t of o.tokenless_names) lines.push(`Line ${t.line} names ${t.token}, which has no robots.txt token: ${t.note}`);
    for (const c of o.client_names) lines.push(`Line ${c.line} names ${c.token}: ${c.note}`);
    for (const a of o.alias_names) lines.push(`Line ${a.line} names ${a.token}, another name for ${a.crawler}: ${a.note}`);
    for (const d of o.obedience.decided_by_honoured_token) {
      lines.push(
        `${d.slug}: ${d.rfc_9309} by its own group under RFC 9309, but its operator says it obeys a group naming a retired token it honours, which makes it ${d.operator_says}.`,
      );
    }
    const prefs = o.usage_preferences;
    for (const l of prefs.licenses) lines.push(`Line ${l.line}: RSL licence at ${l.url}, for every crawler.`);
    if (prefs.declared) {
      const texts = new Map<string, string[]>();
      for (const c of o.allowed) {
        const text = preferenceText(c.preferences);
        if (text !== 'none declared') (texts.get(text) ?? texts.set(text, []).get(text)!).push(c.slug);
      }
      for (const [text, slugs] of texts)
        lines.push(`Preferences for ${slugs.length > 5 ? `${slugs.slice(0, 5).join(', ')} and ${slugs.length - 5} more` : slugs.join(', ')}: ${text}.`);
    }
    if (prefs.content_usage_header?.error) lines.push(`Content-Usage header: ${prefs.content_usage_header.error}.`);
    for (const c of prefs.contradictions.slice(0, 10)) lines.push(`Contradiction: ${c.message}`);
    for (const m of prefs.managed_overrides) if (m.decided_by !== 'both') lines.push(`Cloudflare-managed block: ${m.message}`);
    if (prefs.own_group_without_preferences.length > 0)
      lines.push(`The * group's preferences do not reach crawlers with their own group: ${prefs.own_group_without_preferences.join(', ')}.`);
    if (o.obedience.blocked_but_may_not_obey.length > 0)
      lines.push(`Blocked but may not obey robots.txt: ${o.obedience.blocked_but_may_not_obey.map((b) => b.slug).join(', ')}.`);
    if (o.unknown_tokens.length > 0)
      lines.push(
        `Tokens matching no known crawler: ${o.unknown_tokens
          .slice(0, 50)
          .map((t) => (t.did_you_mean ? `${t.token} (did you mean ${t.did_you_mean}?)` : t.token))
          .join(', ')}${o.unknown_tokens.length > 50 ? ', …' : ''}.`,
      );
    if (o.unknown_token_counts.note !== null) lines.push(`Limited: ${o.unknown_token_counts.note}.`);
    return lines.join(' ');
  },
});
