// Never-throw fuzzing with a seeded generator: the same seeds run every time, so a
// failure names an input that can be replayed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateMany } from './evaluate.ts';
import type { PathVerdict } from './evaluate.ts';
import { lintParsed } from './lint.ts';
import { parseRobotsTxt, PARSE_LIMIT_BYTES } from './parse.ts';
import type { ParsedRobots } from './parse.ts';
import { seededRandom } from '../../../test/support/random.ts';
import type { Random } from '../../../test/support/random.ts';

const SEVERITIES = new Set(['error', 'warning', 'info']);

function checkInvariants(parsed: ParsedRobots, verdicts: PathVerdict[], label: string): void {
  const byLine = new Map(parsed.lines.map((l) => [l.line, l]));
  parsed.lines.forEach((l, i) => {
    assert.equal(l.line, i + 1, label);
  });
  for (const g of [...parsed.groups, ...(parsed.google_groups ?? [])]) {
    assert.ok(g.user_agents.length > 0, label);
    for (const x of [...g.user_agents, ...g.rules]) assert.equal(byLine.get(x.line)?.text, x.text, label);
  }
  for (const v of verdicts) {
    assert.equal(typeof v.allowed, 'boolean', label);
    assert.ok(v.normalized_path.startsWith('/'), label);
    if (v.deciding) {
      assert.equal(byLine.get(v.deciding.line)?.text, v.deciding.text, label);
      assert.equal(v.allowed, v.deciding.directive === 'allow', label);
    }
    assert.equal(v.group === null, v.matched_by === 'none', label);
  }
  const lastLine = parsed.lines.length + 1;
  for (const f of lintParsed(parsed)) {
    assert.ok(SEVERITIES.has(f.severity), label);
    assert.ok(f.line === null || (f.line >= 1 && f.line <= lastLine), `${label}: finding line ${f.line}`);
    assert.ok(f.message.length > 0 && f.fix.length > 0, label);
  }
}

function run(input: string | Uint8Array, token: string, paths: string[], label: string): void {
  const parsed = parseRobotsTxt(input);
  const verdicts = evaluateMany(parsed, token, paths);
  assert.equal(verdicts.length, paths.length);
  checkInvariants(parsed, verdicts, label);
}

const FRAGMENTS = [
  'User-agent',
  'user-agent',
  'USER-AGENT',
  'useragent',
  'User agent',
  'Allow',
  'Disallow',
  'Dissallow',
  'Sitemap',
  'Crawl-delay',
  'Noindex',
  'Host',
  ':',
  ': ',
  ' ',
  '\t',
  '#',
  '*',
  '$',
  '/',
  '%',
  '%2',
  '%zz',
  '%E3%83%84',
  '%2F',
  'Googlebot',
  'Googlebot-Image',
  'AI2Bot',
  'GPTBot/1.0',
  'Mozilla/5.0 (compatible; X/1)',
  '/a',
  '/a/*',
  '*.gif$',
  '\u00e9',
  '\u30C4',
  '\uD83D\uDE00',
  '\uD800',
  '\uFEFF',
  '\u0000',
  '\r',
  '\n',
  '\r\n',
  '\n\n',
  'https://e.com/s.xml',
];
const TOKENS = ['Googlebot', 'Googlebot-Image', 'googlebot-news-x', 'AI2Bot', '*', '', 'GPTBot', ' Bot/1 ', 'a-b-c'];
const PATHS = ['/', '/a', '/a/b.gif', '/robots.txt', '/%E3%83%84', '/\u30C4', 'https://e.com/x?y#z', '', '*', '/$', '/a%2Fb'];

function randomText(rnd: Random, parts: number): string {
  let s = '';
  for (let i = 0; i < parts; i++) s += rnd.pick(FRAGMENTS);
  return s;
}

function randomBytes(rnd: Random, length: number): Uint8Array {
  const out = new Uint8Array(length);
  // Bias towards line breaks and ASCII so the parser gets past its first line.
  for (let i = 0; i < length; i++) {
    const r = rnd.next();
    out[i] = r < 0.08 ? 0x0a : r < 0.12 ? 0x0d : r < 0.6 ? 0x20 + rnd.int(95) : rnd.int(256);
  }
  return out;
}

describe('fuzz: parse, evaluate and lint never throw', () => {
  it('random bytes (seeded, 400 inputs)', () => {
    const rnd = seededRandom(1);
    for (let i = 0; i < 400; i++) {
      const bytes = randomBytes(rnd, rnd.int(3000));
      run(bytes, rnd.pick(TOKENS), [rnd.pick(PATHS), rnd.pick(PATHS)], `bytes seed 1 case ${i}`);
    }
  });

  it('random robots.txt-like text from fragments (seeded, 1500 inputs)', () => {
    const rnd = seededRandom(2);
    for (let i = 0; i < 1500; i++) {
      const text = randomText(rnd, rnd.int(120));
      const paths = [rnd.pick(PATHS), randomText(rnd, rnd.int(6))];
      run(text, rnd.pick(TOKENS), paths, `text seed 2 case ${i}`);
    }
  });

  it('huge inputs: 3 MB of random lines as a string and as bytes', () => {
    const rnd = seededRandom(3);
    const lines: string[] = [];
    let size = 0;
    while (size < 3_000_000) {
      const line = randomText(rnd, 1 + rnd.int(12)).replace(/[\r\n]/g, '');
      lines.push(line);
      size += line.length + 1;
    }
    const text = lines.join('\n');
    for (const input of [text, new TextEncoder().encode(text)]) {
      const parsed = parseRobotsTxt(input);
      assert.ok(parsed.size.excess_bytes > 0);
      assert.ok(parsed.size.parsed_bytes <= PARSE_LIMIT_BYTES);
      checkInvariants(parsed, evaluateMany(parsed, 'Googlebot', PATHS), 'huge');
    }
  });

  it('one 1 MB line with no line break at all', () => {
    const parsed = parseRobotsTxt('Disallow: /' + 'a'.repeat(1_000_000));
    assert.equal(parsed.lines.length, 0);
    assert.equal(parsed.size.dropped_line, 1);
    checkInvariants(parsed, evaluateMany(parsed, 'x', ['/a']), 'one line');
  });

  it('CR-only files parse like LF files', () => {
    const rnd = seededRandom(4);
    for (let i = 0; i < 200; i++) {
      const lines = Array.from({ length: 1 + rnd.int(20) }, () => randomText(rnd, 1 + rnd.int(6)).replace(/[\r\n]/g, ''));
      const lf = parseRobotsTxt(lines.join('\n'));
      const cr = parseRobotsTxt(lines.join('\r'));
      assert.deepEqual(cr.groups, lf.groups, `case ${i}`);
      assert.deepEqual(cr.issues, lf.issues, `case ${i}`);
    }
  });

  it('odd tokens and paths: very long, control characters, lone surrogates', () => {
    const parsed = parseRobotsTxt('User-agent: *\nDisallow: /a*b*c*d$\n');
    const long = '/' + 'ab'.repeat(50_000);
    for (const token of ['\u0000', '\uD800', 'x'.repeat(100_000), '-', '---', 'a-']) {
      checkInvariants(parsed, evaluateMany(parsed, token, [long, '\u0000', '\uDC00/x', '/%']), `token ${token.slice(0, 10)}`);
    }
  });
});
