import type { PathKey } from '../../paths.ts';
// The four servers a policy is rendered for: one row each, saying how its config quotes a
// pattern, how it is written, and how to read the patterns back out of the written text. The
// accuracy table (accuracy.ts) measures what `extract` reads from the rendered file, so a
// quoting fault shows up as a measured miss, not as a hope.
//
// Every dialect gets the same patterns (token.ts), matched case-insensitively:
//   nginx   map with `~*` (PCRE, caseless)        one quoted regex per line
//   Apache  RewriteCond with [NC] (PCRE)          one quoted regex per line, ORed
//   Caddy   header_regexp with (?i) (RE2)         one alternation (one regexp per header field)
//   HAProxy acl on req.fhdr(user-agent) -m reg -i (PCRE)  one single-quoted regex per line
// HAProxy reads the whole header with req.fhdr: req.hdr would split it at every comma
// ("KHTML, like Gecko") and test the pieces one by one.

import type { MatcherLine, PolicyMatcher } from './matcher.ts';
import { lineLabel } from './matcher.ts';

export type ServerId = 'nginx' | 'apache' | 'caddy' | 'haproxy';

export interface Dialect {
  id: ServerId;
  label: string;
  /** Route key of /policy/{policy}.<server>.conf. */
  route: PathKey;
  /** How to install the file, as comment lines. */
  usage(matcher: PolicyMatcher): string[];
  /** The config lines after the header. */
  body(matcher: PolicyMatcher): string[];
  /** The regexes the written config tests, unquoted, each to be matched case-insensitively. */
  extract(text: string): string[];
}

/** A pattern in which no regex engine sees any difference, for configs that cannot name nothing. */
const NOTHING = '[^\\s\\S]';

// nginx reads `\\` and `\"` inside a quoted string as `\` and `"` (and `\t`, `\n`, `\r` as controls,
// which doubling every backslash also keeps from happening).
export const nginxQuote = (pattern: string): string => `"~*${pattern.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
const nginxUnquote = (quoted: string): string => quoted.replace(/\\(["\\])/g, '$1');

// Apache keeps every backslash except one before the quote; a pattern is wrapped in a group so that
// its first character can never be read as RewriteCond's `!`, `<`, `>`, `=` or `-` operators.
const apacheQuote = (pattern: string): string => `"(?:${pattern.replaceAll('"', '\\x22')})"`;

// HAProxy expands `$NAME` inside double quotes and nothing inside single quotes, which cannot hold
// a single quote: PCRE's \x27 stands for one.
export const haproxyQuote = (pattern: string): string => `'${pattern.replaceAll("'", '\\x27')}'`;

// A backtick would end Caddy's raw token; RE2's \x60 stands for one.
const caddyRaw = (pattern: string): string => pattern.replaceAll('`', '\\x60');

function each(matcher: PolicyMatcher, write: (line: MatcherLine, last: boolean) => string): string[] {
  return matcher.lines.flatMap((line, i) => [`# ${lineLabel(line)}`, write(line, i === matcher.lines.length - 1)]);
}

/** nginx refuses to start when many long variable names outgrow its default hash bucket. */
export const NGINX_HASH_HINT = 'If nginx then says "could not build variables_hash", add   variables_hash_bucket_size 128;   to http { }.';

const NGINX: Dialect = {
  id: 'nginx',
  label: 'nginx',
  route: 'policy_nginx',
  usage: (m) => [
    'Include this file inside http { } (for example as /etc/nginx/conf.d/crawler-index.conf).',
    m.action === 'deny'
      ? `Then inside each server { } (or location) to protect:   if ($${m.name}) { return 403; }`
      : `It only sets $${m.name} to 1 for these crawlers; this policy blocks nothing.`,
    NGINX_HASH_HINT,
  ],
  body: (m) => [`map $http_user_agent $${m.name} {`, '    default 0;', ...each(m, (line) => `${nginxQuote(line.pattern)} 1;`).map((l) => `    ${l}`), '}'],
  extract: (text) => [...text.matchAll(/^\s*"~\*((?:[^"\\]|\\.)*)" 1;$/gm)].map((m) => nginxUnquote(m[1]!)),
};

const APACHE: Dialect = {
  id: 'apache',
  label: 'Apache',
  route: 'policy_apache',
  usage: (m) => [
    'Save as .htaccess (or append to one) where AllowOverride FileInfo is granted, or paste into a',
    '<VirtualHost> or <Directory> block. Needs mod_rewrite (a2enmod rewrite); without it Apache',
    'answers 500 rather than silently letting every crawler in.',
    m.action === 'deny' ? 'A match is answered 403 Forbidden.' : `It only sets the environment variable ${m.name}=1; this policy blocks nothing.`,
  ],
  body: (m) =>
    m.lines.length === 0
      ? ['# This policy names no crawler that a User-Agent rule can catch; nothing to do.']
      : [
          'RewriteEngine On',
          ...each(m, (line, last) => `RewriteCond %{HTTP_USER_AGENT} ${apacheQuote(line.pattern)} [NC${last ? '' : ',OR'}]`),
          m.action === 'deny' ? 'RewriteRule ^ - [F]' : `RewriteRule ^ - [E=${m.name}:1]`,
        ],
  extract: (text) => [...text.matchAll(/^RewriteCond %\{HTTP_USER_AGENT\} "((?:[^"\\]|\\.)*)" \[NC(?:,OR)?\]$/gm)].map((m) => m[1]!),
};

const CADDY: Dialect = {
  id: 'caddy',
  label: 'Caddy',
  route: 'policy_caddy',
  usage: (m) => [
    'Paste into a site block of your Caddyfile, or save beside it and write   import <this file>   there.',
    m.action === 'deny' ? 'A match is answered 403.' : `It only defines the matcher @${m.name}; use it in your own directives (this policy blocks nothing).`,
    'Caddy matches with RE2, whose case-insensitive mode also folds a few non-ASCII letters (the Kelvin sign',
    'as K, the long s as S); no browser or crawler header in the measurement carries them.',
  ],
  body: (m) => [
    ...m.lines.map((line) => `# ${lineLabel(line)}: ${line.label}`),
    // Backticks make a raw Caddyfile token: no escape inside is read, and no pattern holds one.
    `@${m.name} header_regexp User-Agent \`(?i)${m.lines.length === 0 ? NOTHING : m.lines.map((l) => `(?:${caddyRaw(l.pattern)})`).join('|')}\``,
    ...(m.action === 'deny' ? [`respond @${m.name} 403`] : []),
  ],
  extract: (text) => [...text.matchAll(/^@\S+ header_regexp User-Agent `\(\?i\)([^`]*)`$/gm)].map((m) => m[1]!),
};

const HAPROXY: Dialect = {
  id: 'haproxy',
  label: 'HAProxy',
  route: 'policy_haproxy',
  usage: (m) => [
    'Paste into a frontend (or listen) section, before its use_backend lines.',
    m.action === 'deny' ? 'A match is answered 403.' : `It only defines the ACL ${m.name}; this policy blocks nothing.`,
  ],
  body: (m) => [
    ...(m.lines.length === 0
      ? [`acl ${m.name} always_false`]
      : each(m, (line) => `acl ${m.name} req.fhdr(user-agent) -m reg -i ${haproxyQuote(line.pattern)}`)),
    ...(m.action === 'deny' ? [`http-request deny deny_status 403 if ${m.name}`] : []),
  ],
  extract: (text) => [...text.matchAll(/^acl \S+ req\.fhdr\(user-agent\) -m reg -i '([^']*)'$/gm)].map((m) => m[1]!),
};

export const DIALECTS: readonly Dialect[] = [NGINX, APACHE, CADDY, HAPROXY];
