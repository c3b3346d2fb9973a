// Which tool a message to the agent means. A data part may name a tool ("skill") or carry a
// tool's parameters; free text is recognised by its shape: a robots.txt (with a question about
// a crawler and a path, or without), IP addresses (with a claimed crawler from the words or log
// line around them), "who am I", a question whether a crawler may fetch a path, what to block
// and keep, a crawler's or an operator's name, or a User-Agent header. Pure: the A2A transport
// (http/a2a/) only reads and answers JSON-RPC.

import { classify, inputIssue } from './classify/index.ts';
import { TOOLS, toolByName, type ToolData, type ToolDefinition } from './registry/index.ts';
import { ATTRIBUTION_PARAM } from './registry/input.ts';
import { parseAddress } from '../net/address.ts';
import { MAX_ADDRESSES_PER_CALL } from './verify/index.ts';
import {
  ASKS_ABOUT_CRAWLERS,
  ASKS_TO_BLOCK,
  blockingGroup,
  choosePolicy,
  MAX_QUESTION_CHARS,
  namedCrawler,
  namedCrawlers,
  namedOperator,
  pathQuestion,
  policyQuestion,
} from './questions.ts';
import { href } from '../paths.ts';
import { isRecord } from '../util/guards.ts';

/** The parts of a user message the router reads. */
export interface MessageParts {
  texts: string[];
  data: Record<string, unknown>[];
}

type Crawler = ToolData['crawlers'][number];

export type Intent =
  /** note: what the router made of a question, said before the tool's own answer. */
  | { kind: 'tool'; tool: ToolDefinition; raw: Record<string, unknown>; via: 'data' | 'text'; note?: string }
  | { kind: 'help'; reason: string }
  /** A data part that names no known tool, or gives it something other than an object of parameters. */
  | { kind: 'invalid'; field: string; message: string; accepted: string | string[] };

const ROBOTS_LINE = /^\s*(user-agent|disallow|allow|sitemap|crawl-delay|#)/i;
const PRODUCT_VERSION = /(^|[\s(;])[A-Za-z][\w.+-]*\/\d/;
const UA_PREFIX = /^\s*user-agent\s*[:=]\s*/i;
/** Words of a message read for addresses: more than any log excerpt of 500 addresses holds. */
const MAX_TOKENS = 50_000;

function looksLikeRobotsTxt(text: string): boolean {
  // [ \t], not \s: \s crosses line breaks, so each of many blank lines would scan to the end.
  return /^[ \t]*user-agent[ \t]*:/im.test(text) && /^[ \t]*(dis)?allow[ \t]*:/im.test(text);
}

/** The file from its first directive or comment line: a sentence before it is not part of it. */
function robotsPart(text: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => ROBOTS_LINE.test(line));
  return lines.slice(Math.max(start, 0)).join('\n') + '\n';
}

function looksLikeUserAgent(text: string): boolean {
  return PRODUCT_VERSION.test(text) || /compatible;/i.test(text);
}

function stripFences(text: string): string {
  // [ \t], not \s: \s crosses line breaks, and a text of blank lines made the scan quadratic.
  return text.replace(/^[ \t]*```[\w-]*[ \t]*$/gm, '');
}

/**
 * Every token that is one IP address, in order, once each; brackets and sentence punctuation
 * around it are dropped. Bounded: it stops one address past what verify_batch takes (so the
 * tool still refuses the list by name) and after MAX_TOKENS words, so a megabyte of text costs
 * one short scan.
 */
function findAddresses(text: string): { addresses: string[]; tokens: Set<string> } {
  const found = new Set<string>();
  const tokens = new Set<string>();
  let read = 0;
  for (const match of text.matchAll(/[^\s,;]+/g)) {
    if (++read > MAX_TOKENS || found.size > MAX_ADDRESSES_PER_CALL) break;
    const raw = match[0];
    const token = raw.replace(/^[(["'<]+/, '').replace(/[)\]"'>.?!]+$/, '');
    if (!/^[0-9a-fA-F:.]+$/.test(token) || !/[.:]/.test(token)) continue;
    if (!parseAddress(token).ok) continue;
    tokens.add(raw);
    found.add(token);
  }
  return { addresses: [...found], tokens };
}

/** Which crawler the addresses claim to be: a User-Agent line, the last quoted User-Agent of a log line, or a crawler named in the words around them. */
function findClaim(text: string, addressTokens: ReadonlySet<string>, data: ToolData): string | null {
  for (const line of text.split(/\r?\n/))
    if (UA_PREFIX.test(line))
      return (
        line
          .replace(UA_PREFIX, '')
          .trim()
          .replace(/^"(.*)"$/, '$1') || null
      );
  const quoted = [...text.matchAll(/"([^"\n]+)"/g)]
    .map((m) => m[1]!.trim())
    .filter((q) => q !== '-' && !/^[A-Z]+ \S+ HTTP\/\d/.test(q) && !/^https?:\/\//.test(q) && /[A-Za-z]/.test(q));
  const lastQuoted = quoted.at(-1);
  if (lastQuoted !== undefined) return lastQuoted;
  const rest = text
    .split(/\s+/)
    .filter((w) => w !== '' && !addressTokens.has(w))
    .join(' ');
  if (rest === '' || inputIssue(rest) !== null) return null;
  if (looksLikeUserAgent(rest)) return rest;
  const named = namedCrawler(rest, data);
  if (named) return named.robots_token;
  const classified = classify(data.classifier, rest);
  return classified.matched ? classified.crawler.robots_token : null;
}

function findUserAgent(text: string, data: ToolData): string | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length !== 1) {
    const header = lines.find((l) => UA_PREFIX.test(l));
    return header ? header.replace(UA_PREFIX, '').trim() || null : null;
  }
  const line = lines[0]!
    .replace(UA_PREFIX, '')
    .trim()
    .replace(/^"(.*)"$/, '$1');
  if (line === '' || inputIssue(line) !== null) return null;
  if (UA_PREFIX.test(lines[0]!) || looksLikeUserAgent(line)) return line;
  // One word that reads like a product token ("FooBot"): the answer says whether any crawler matches.
  if (!/\s/.test(line) && (classify(data.classifier, line).matched || /(bot|crawler|spider|fetcher)$/i.test(line))) return line;
  return null;
}

/** A question is a line or a few, not a document: longer text that names a crawler is not read as a question about it. */
function isShortQuestion(text: string): boolean {
  return text.length <= MAX_QUESTION_CHARS && text.split('\n').length <= 3;
}

/** How to keep these crawlers out with robots.txt, and what robots.txt cannot do for them. */
function blockAdvice(crawlers: readonly Crawler[], whom: string, data: ToolData): string {
  const group = blockingGroup(crawlers);
  const lines: string[] = [];
  for (const c of crawlers) {
    const successor = c.successor === null ? null : (data.bySlug.get(c.successor)?.name ?? c.successor);
    if (c.status === 'retired')
      lines.push(`${c.name} is retired${successor === null ? '' : `; ${successor} replaced it`}: a group for it no longer keeps anything out.`);
    else if (c.robots_token === null)
      lines.push(`robots.txt cannot keep out ${c.name}, which has no token: ${c.robots_token_note ?? 'robots.txt does not apply to it.'}`);
    else if (c.respects_robots_txt !== 'documented') {
      const enforce =
        c.user_agent_substring === null ? '' : ` To enforce the block, refuse requests whose User-Agent contains ${c.user_agent_substring} at your server.`;
      lines.push(`${c.name}: ${c.respects_robots_txt_label}.${enforce}`);
    }
  }
  const advice = group === null ? null : `To keep ${whom} out of your whole site, add this group to your robots.txt:\n\n${group.trimEnd()}`;
  return [advice, lines.join('\n')].filter((part) => part !== null && part !== '').join('\n\n');
}

/** A question naming a crawler ("what is GPTBot?", "should I block CCBot?"): its record, with how to block it when asked. */
function crawlerAnswer(body: string, data: ToolData): Intent | null {
  if (!isShortQuestion(body)) return null;
  const [crawler, ...others] = namedCrawlers(body, data);
  if (crawler === undefined) return null;
  const notes: string[] = [];
  if (ASKS_TO_BLOCK.test(body)) notes.push(blockAdvice([crawler, ...others], others.length === 0 ? crawler.name : 'them', data));
  if (others.length > 0)
    notes.push(
      `You named ${[crawler, ...others].map((c) => c.name).join(', ')}. This is ${crawler.name}'s record; ask about ${others.map((c) => c.name).join(', ')} for ${others.length === 1 ? 'its own' : 'theirs'}.`,
    );
  return {
    kind: 'tool',
    tool: tool('crawler_markdown'),
    raw: { crawler: crawler.robots_token ?? crawler.slug },
    via: 'text',
    ...(notes.length === 0 ? {} : { note: notes.join('\n\n') }),
  };
}

/** A question naming an operator ("which crawlers does OpenAI run?", "block Perplexity"): its crawlers, and how each is verified. */
function operatorAnswer(body: string, data: ToolData): Intent | null {
  if (!isShortQuestion(body)) return null;
  const operator = namedOperator(body, data);
  if (operator === null) return null;
  const count = operator.crawlers.length;
  const list = operator.crawlers
    .map(
      (c) =>
        `- ${c.name}: ${c.category_label}; ${c.robots_token === null ? 'no robots.txt token' : `robots.txt token ${c.robots_token}`}; ${c.respects_robots_txt_label}.`,
    )
    .join('\n');
  const head = `${operator.name} runs ${count} crawler${count === 1 ? '' : 's'} in the index (${data.baseUrl}${href('operator_html', operator.slug)}):\n${list}`;
  const note = ASKS_TO_BLOCK.test(body) ? `${head}\n\n${blockAdvice(operator.crawlers, `${operator.name}'s crawlers`, data)}` : head;
  return { kind: 'tool', tool: tool('verification_methods'), raw: { crawler: operator.slug }, via: 'text', note };
}

/** The lines of a message that are not part of the robots.txt it carries: the question asked about it. */
function proseAround(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !ROBOTS_LINE.test(line))
    .join('\n');
}

function routeRobotsTxt(body: string, data: ToolData): Intent {
  const asked = pathQuestion(proseAround(body), data);
  if (asked === null) return { kind: 'tool', tool: tool('audit_ai_access'), raw: { robots_txt: robotsPart(body) }, via: 'text' };
  // The question's own lines are left out of the file: RFC 9309 parsers skip them anyway, and the answer quotes the file.
  const prose = new Set(proseAround(body).split('\n'));
  const robots_txt = robotsPart(
    body
      .split(/\r?\n/)
      .filter((line) => !prose.has(line))
      .join('\n'),
  );
  return { kind: 'tool', tool: tool('check_path_allowed'), raw: { robots_txt, ua: asked.ua, path: asked.paths }, via: 'text' };
}

/** "Can GPTBot fetch /search?" with no robots.txt: the crawler's record, and what to send for a verdict. */
function pathQuestionWithoutFile(body: string, data: ToolData): Intent | null {
  const asked = pathQuestion(body, data);
  if (asked === null) return null;
  const paths = asked.paths.join(', ');
  const call = JSON.stringify({ skill: 'check_path_allowed', input: { robots_txt: 'User-agent: ...', ua: asked.ua, path: asked.paths } });
  const verdict = `Whether ${asked.ua} may fetch ${paths} depends on your robots.txt: send the file with the question, or a data part ${call}, and I will evaluate it under RFC 9309.`;
  if (asked.crawler === null) return { kind: 'help', reason: `${verdict} ${asked.ua} is not in the index.` };
  const stance = `${asked.crawler.name} and robots.txt: ${asked.crawler.respects_robots_txt_label}.`;
  return { kind: 'tool', tool: tool('crawler_markdown'), raw: { crawler: asked.crawler.slug }, via: 'text', note: `${verdict} ${stance}` };
}

/** Category labels as a phrase: "AI training crawlers and open dataset crawlers". */
function categoryPhrase(ids: readonly string[], data: ToolData): string {
  const names = ids.map((id) => {
    const label = data.categories.find((c) => c.id === id)?.label ?? id;
    // Lower-case the first word unless it is an acronym (AI, SEO).
    const [first = '', ...rest] = label.split(' ');
    return [first === first.toUpperCase() ? first : first.toLowerCase(), ...rest].join(' ') + 's';
  });
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "How do I block AI training but keep AI search?": the ready-made policy that does exactly that. */
function policyAnswer(body: string, data: ToolData): Intent | null {
  const asked = policyQuestion(body, data);
  if (asked === null) return null;
  const wish = `block ${categoryPhrase(asked.block, data)}${asked.keep.length > 0 ? ` and keep ${categoryPhrase(asked.keep, data)}` : ''}`;
  const chosen = choosePolicy(asked, data);
  if (chosen.kind === 'none')
    return {
      kind: 'help',
      reason: `No ready-made policy, alone or with one other, does exactly this (${wish}); the policies are ${data.policies.map((p) => p.id).join(', ')}.`,
    };
  if (chosen.kind === 'pair') {
    const [a, b] = chosen.policies;
    return {
      kind: 'tool',
      tool: tool('policy_markdown'),
      raw: { policy: a.id },
      via: 'text',
      note: `To ${wish}, append two policies: ${a.id} (${a.title}) and ${b.id} (${b.title}); no single one does it. ${a.id} follows; ask for ${b.id} too.`,
    };
  }
  const { policy, broader } = chosen;
  const also = broader.length === 0 ? '' : ` Also doing it, and naming more crawlers: ${broader.map((p) => `${p.id} (${p.title})`).join('; ')}.`;
  const server = serverNamed(body);
  if (server !== null)
    return {
      kind: 'tool',
      tool: tool('server_config'),
      raw: { policy: policy.id, server },
      via: 'text',
      note: `To ${wish} at your ${server} server, use the ${policy.id} policy (${policy.title}) as ${server} config.${also}`,
    };
  return {
    kind: 'tool',
    tool: tool('policy_markdown'),
    raw: { policy: policy.id },
    via: 'text',
    note: `To ${wish}, append the ${policy.id} policy (${policy.title}): it names ${policy.crawlers.length} crawlers.${also}`,
  };
}

// A policy question that names a web server wants the policy as that server's config.
const SERVER_WORDS: readonly [RegExp, string][] = [
  [/\bnginx\b/i, 'nginx'],
  [/\bapache\b|\.htaccess\b|\bhtaccess\b/i, 'apache'],
  [/\bcaddy(?:file)?\b/i, 'caddy'],
  [/\bhaproxy\b/i, 'haproxy'],
];

function serverNamed(body: string): string | null {
  return SERVER_WORDS.find(([word]) => word.test(body))?.[1] ?? null;
}

const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ +\S+ +HTTP\/\d(?:\.\d)?$/;

/**
 * A pasted request head that carries a signature (a Signature-Input line): the lines from its
 * request line to the first blank line, and a key directory ({"keys": [...]}) pasted after it.
 * Read before a robots.txt, since a head's User-Agent line looks like one.
 */
function signedRequestIn(body: string): { request: string; directory?: string } | null {
  const lines = body.split(/\r?\n/);
  const start = lines.findIndex((line) => REQUEST_LINE.test(line.trim()));
  if (start === -1) return null;
  const blank = lines.findIndex((line, i) => i > start && line.trim() === '');
  const head = lines.slice(start, blank === -1 ? lines.length : blank);
  if (!head.some((line) => /^signature-input\s*:/i.test(line))) return null;
  const rest = blank === -1 ? '' : lines.slice(blank).join('\n').trim();
  return { request: head.join('\n'), ...(isDirectory(rest) ? { directory: rest } : {}) };
}

function isDirectory(text: string): boolean {
  if (!text.startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && Array.isArray(parsed['keys']);
  } catch {
    // Not JSON: the head is checked without a directory, and the answer says which to pass.
    return false;
  }
}

function routeText(text: string, data: ToolData): Intent {
  const body = stripFences(text).trim();
  if (body === '') return { kind: 'help', reason: 'The message is empty.' };
  const signed = signedRequestIn(body);
  if (signed !== null) return { kind: 'tool', tool: tool('verify_signature'), raw: signed, via: 'text' };
  if (looksLikeRobotsTxt(body)) return routeRobotsTxt(body, data);
  const { addresses, tokens } = findAddresses(body);
  if (addresses.length > 0) {
    const claim = findClaim(body, tokens, data);
    return { kind: 'tool', tool: tool('verify_batch'), raw: claim === null ? { ip: addresses } : { ip: addresses, ua: claim }, via: 'text' };
  }
  if (/\bwho\s*am\s*i\b|\bwhoami\b/i.test(body)) return { kind: 'tool', tool: tool('whoami'), raw: {}, via: 'text' };
  if (!looksLikeUserAgent(body)) {
    const question = pathQuestionWithoutFile(body, data) ?? policyAnswer(body, data);
    if (question !== null) return question;
  }
  if (!looksLikeUserAgent(body)) {
    // "Which bots does Yandex run?" asks about the operator, though one of its crawlers has its name.
    const about = ASKS_ABOUT_CRAWLERS.test(body)
      ? (operatorAnswer(body, data) ?? crawlerAnswer(body, data))
      : (crawlerAnswer(body, data) ?? operatorAnswer(body, data));
    if (about !== null) return about;
  }
  const ua = findUserAgent(body, data);
  if (ua !== null) return { kind: 'tool', tool: tool('classify_user_agent'), raw: { ua }, via: 'text' };
  return {
    kind: 'help',
    reason:
      'The message is not a User-Agent, IP addresses, a robots.txt, a signed request head, a question about a crawler, an operator or a policy, or "who am I".',
  };
}

// Inferred from a data part's fields when it names no skill, most specific first.
const BY_FIELDS = ['check_path_allowed', 'audit_ai_access', 'verify_batch', 'classify_user_agent'] as const;

function routeData(part: Record<string, unknown>): Intent | null {
  const named = part['skill'] ?? part['tool'];
  if (named !== undefined) {
    const found = typeof named === 'string' ? toolByName(named) : undefined;
    if (!found) {
      return {
        kind: 'invalid',
        field: 'skill',
        message: `unknown skill ${JSON.stringify(named)}. Skills: ${TOOLS.map((t) => t.name).join(', ')}.`,
        accepted: TOOLS.map((t) => t.name),
      };
    }
    const input = part['input'] ?? part['arguments'] ?? {};
    if (!isRecord(input))
      return { kind: 'invalid', field: 'input', message: '"input" of a data part must be an object of the skill\'s parameters.', accepted: 'an object' };
    return { kind: 'tool', tool: found, raw: input, via: 'data' };
  }
  for (const name of BY_FIELDS) {
    const candidate = tool(name);
    const names = new Set([...candidate.params.map((p) => p.name), ATTRIBUTION_PARAM.name]);
    const required = candidate.params.filter((p) => p.required).map((p) => p.name);
    if (required.every((n) => n in part) && Object.keys(part).every((k) => names.has(k))) return { kind: 'tool', tool: candidate, raw: part, via: 'data' };
  }
  return null;
}

/**
 * What the message's data parts ask for: the first that names or fits a tool; null when none
 * does. Needs none of the tools' data, so the thread that reads the request can route it.
 */
export function intentOfData(parts: readonly Record<string, unknown>[]): Intent | null {
  for (const part of parts) {
    const routed = routeData(part);
    if (routed) return routed;
  }
  return null;
}

/** What the message's text, read as a whole, asks for: the words are matched against the index, so this runs where the tools' data is. */
export function intentOfText(texts: readonly string[], data: ToolData): Intent {
  return routeText(texts.join('\n'), data);
}

/** What a message asks for: its first data part that names or fits a tool, else its text read as a whole. */
export function intentOf(message: MessageParts, data: ToolData): Intent {
  return intentOfData(message.data) ?? intentOfText(message.texts, data);
}

function tool(name: string): ToolDefinition {
  const found = toolByName(name);
  if (!found) throw new Error(`the A2A router names tool "${name}", which is not in the registry`);
  return found;
}
