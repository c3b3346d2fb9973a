import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, evaluationCost, selectedGroups } from './evaluate.ts';
import { managedOverrides } from './managed.ts';
import { parseRobotsTxt } from './parse.ts';
import { contradictionsOf, readContentUsageHeader, readStatement, resolvePreferences, type Resolved } from './preferences.ts';
import { CONTENT_SIGNAL_KEYS, CONTENT_USAGE_KEYS, currentLabels, LABELS } from './vocabulary.ts';

function prefs(file: string, token: string, path: string, header: string | null = null): Resolved {
  const parsed = parseRobotsTxt(file);
  const verdict = evaluate(parsed, token, path);
  return resolvePreferences(parsed.groups, selectedGroups(parsed, token), path, verdict.allowed, header === null ? null : readContentUsageHeader(header));
}

// The example of draft-ietf-aipref-attach-05 §3.4, with its table of paths.
const ATTACH_EXAMPLE = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`;

describe('parse: preference, licence and managed lines', () => {
  it('Content-Usage and Content-Signal lines join the group they sit in; the path is split off at the first space', () => {
    const p = parseRobotsTxt(ATTACH_EXAMPLE);
    assert.equal(p.groups.length, 2);
    assert.deepEqual(
      p.groups[0]!.preferences.map((x) => [x.line, x.path, x.statement]),
      [
        [4, null, 'train-ai=n'],
        [5, '/ai-ok/', 'train-ai=y'],
      ],
    );
    assert.deepEqual(p.unknown, [], 'no longer unknown directives');
  });

  it('a preference line before any user-agent line belongs to no group; License lines are global', () => {
    const p = parseRobotsTxt('Content-Signal: search=yes\nLicense: https://example.com/l.xml\nUser-agent: *\nDisallow:\n');
    assert.deepEqual(
      p.orphan_preferences.map((x) => x.line),
      [1],
    );
    assert.deepEqual(p.licenses, [{ line: 2, text: 'License: https://example.com/l.xml', url: 'https://example.com/l.xml' }]);
  });

  it("a preference line between user-agent lines keeps one group, under RFC 9309 and in Google's reading", () => {
    const p = parseRobotsTxt('User-agent: a\nContent-Usage: train-ai=n\nUser-agent: b\nDisallow: /\n');
    assert.equal(p.groups.length, 1);
    assert.equal(p.google_groups, null);
  });

  it('Cloudflare-managed blocks are found by their markers in any case; a block without END runs to the end', () => {
    const p = parseRobotsTxt(
      '# BEGIN Cloudflare Managed content\nUser-agent: GPTBot\nDisallow: /\n#END cloudflare managed CONTENT\n#  BEGIN Cloudflare Managed Content\n',
    );
    assert.deepEqual(p.managed_blocks, [
      { begin: 1, end: 4 },
      { begin: 5, end: null },
    ]);
    assert.deepEqual(parseRobotsTxt('# Cloudflare Managed content starts here\n').managed_blocks, []);
  });
});

describe('preferences: statements (draft-ietf-aipref-vocab-07 §6)', () => {
  it('reads current, legacy and unknown labels and only the defined values', () => {
    const s = readStatement('content-usage', 'train-ai=n, search=yes, train-genai=n, foo=y');
    assert.equal(s.error, null);
    assert.deepEqual(
      s.entries.map((e) => [e.key, e.value, e.status, e.valid]),
      [
        ['train-ai', 'n', 'current', true],
        ['search', 'yes', 'current', false],
        ['train-genai', 'n', 'legacy', true],
        ['foo', 'y', 'unknown', false],
      ],
    );
  });

  it('a statement that is not a dictionary declares nothing and names the accepted form', () => {
    for (const bad of ['Train-AI=n', 'train-ai=n,', 'train-ai = n', 'train-ai=n search=y']) {
      const s = readStatement('content-usage', bad);
      assert.deepEqual(s.entries, [], bad);
      assert.match(s.error ?? '', /Accepted: labels and values separated by commas/, bad);
    }
  });

  it('the vocabulary table has one row per label and vocabulary, and the current Content-Usage labels are train-ai and search', () => {
    const keys = LABELS.map((l) => `${l.vocabulary} ${l.key}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.deepEqual(
      LABELS.filter((l) => l.vocabulary === 'content-usage' && l.status === 'current').map((l) => l.key),
      ['train-ai', 'search'],
    );
  });
});

describe('preferences: which apply to a crawler at a path (draft-ietf-aipref-attach-05 §3)', () => {
  it('reproduces the table of attach-05 §3.4', () => {
    const test = prefs(ATTACH_EXAMPLE, 'OtherBot', '/test');
    assert.equal(test.applies, true);
    assert.equal(test.content_usage['train-ai'], 'disallowed');
    assert.deepEqual(test.content_usage.lines, [4]);
    const never = prefs(ATTACH_EXAMPLE, 'OtherBot', '/never/test');
    assert.equal(never.applies, false, 'no preferences on a disallowed path');
    const ok = prefs(ATTACH_EXAMPLE, 'OtherBot', '/ai-ok/test');
    assert.equal(ok.content_usage['train-ai'], 'allowed');
    assert.deepEqual(ok.content_usage.lines, [5]);
    assert.equal(prefs(ATTACH_EXAMPLE, 'ExampleBot', '/never/test').content_usage['train-ai'], 'allowed', 'ExampleBot reads its own group');
  });

  it('the longest path wins as a whole: labels it leaves out are unknown, not inherited', () => {
    const r = prefs('User-agent: *\nContent-Usage: train-ai=n, search=y\nContent-Usage: /blog/ search=n\n', 'x', '/blog/a');
    assert.equal(r.content_usage.search, 'disallowed');
    assert.equal(r.content_usage['train-ai'], 'unknown');
  });

  it('lines of the same length combine to the most restrictive, also across merged groups', () => {
    const r = prefs('User-agent: x\nContent-Usage: /a train-ai=y\n\nUser-agent: x\nContent-Usage: /a train-ai=n, search=y\n', 'x', '/a');
    assert.equal(r.content_usage['train-ai'], 'disallowed');
    assert.equal(r.content_usage.search, 'allowed');
    assert.deepEqual(r.content_usage.lines, [2, 5]);
  });

  it('Content-Signal lines of the groups combine, a no wins, and use takes the narrowest level', () => {
    const r = prefs('User-agent: *\nContent-Signal: search=yes, ai-train=yes, use=full\nContent-Signal: ai-train=no, use=reference\n', 'x', '/');
    assert.deepEqual(
      { ...r.content_signal, lines: r.content_signal.lines },
      { search: 'yes', 'ai-input': null, 'ai-train': 'no', use: 'reference', lines: [2, 3] },
    );
  });

  it('a Content-Usage response header combines with the file, most restrictive first', () => {
    const r = prefs('User-agent: *\nContent-Usage: train-ai=y\n', 'x', '/', 'train-ai=n, search=y');
    assert.equal(r.content_usage['train-ai'], 'disallowed');
    assert.equal(r.content_usage.search, 'allowed');
    assert.equal(r.content_usage.header, true);
    const kept = prefs('User-agent: *\nDisallow: /\n', 'x', '/', 'search=y');
    assert.equal(kept.content_usage.header, false, 'a crawler kept out never receives the header');
    assert.equal(kept.content_usage.search, 'unknown');
  });

  it('contradictions: a use allowed where fetching is not, and the two vocabularies disagreeing; a refusal to train while allowed is none', () => {
    const blocked = prefs('User-agent: *\nDisallow: /\nContent-Signal: search=yes\n', 'x', '/');
    assert.deepEqual(
      contradictionsOf('x', '/', blocked).map((c) => c.code),
      ['preference-on-disallowed-path'],
    );
    const disagree = prefs('User-agent: *\nContent-Usage: train-ai=y\nContent-Signal: ai-train=no\n', 'x', '/');
    assert.deepEqual(
      contradictionsOf('x', '/', disagree).map((c) => c.code),
      ['vocabularies-disagree'],
    );
    const intended = prefs('User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nContent-Signal: ai-train=no\n', 'x', '/');
    assert.deepEqual(contradictionsOf('x', '/', intended), []);
  });

  it('the evaluation cost counts the preference lines of the groups that apply', () => {
    const without = parseRobotsTxt('User-agent: *\nDisallow: /a\n');
    const withLines = parseRobotsTxt(`User-agent: *\nDisallow: /a\n${'Content-Usage: /b train-ai=n\n'.repeat(10)}`);
    assert.ok(evaluationCost(withLines, ['x'], ['/']) > evaluationCost(without, ['x'], ['/']));
  });
});

describe('managed blocks: where Cloudflare’s groups meet the site’s own', () => {
  const FILE = `# BEGIN Cloudflare Managed content
User-agent: GPTBot
Disallow: /

User-agent: ClaudeBot
Disallow: /
# END Cloudflare Managed Content
User-agent: *
Disallow: /private

User-agent: GPTBot
Allow: /
`;
  it('a token in both parts is merged (Allow wins the tie at /), a token only in the block replaces the site’s * group', () => {
    const o = managedOverrides(parseRobotsTxt(FILE), '/');
    assert.deepEqual(
      o.map((x) => [x.token, x.kind, x.allowed, x.site_alone, x.managed_alone, x.decided_by]),
      [
        ['GPTBot', 'merged', true, true, false, 'site'],
        ['ClaudeBot', 'replaces-star', false, true, false, 'managed'],
      ],
    );
    assert.deepEqual(o[0]!.site_lines, [11]);
    assert.deepEqual(o[1]!.site_lines, [8]);
  });

  it('no markers, no report', () => {
    assert.deepEqual(managedOverrides(parseRobotsTxt(FILE.replace(/^#.*$/gm, '')), '/'), []);
  });
});

describe('the vocabulary table', () => {
  it('names exactly the keys answers report, in their order: a label added to the table needs its answer field', () => {
    assert.deepEqual(
      currentLabels('content-usage').map((l) => l.key),
      [...CONTENT_USAGE_KEYS],
    );
    assert.deepEqual(
      currentLabels('content-signal').map((l) => l.key),
      [...CONTENT_SIGNAL_KEYS],
    );
  });
});
