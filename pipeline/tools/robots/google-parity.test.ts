// Every verdict test of Google's reference parser (google/robotstxt, robots_test.cc), kept as
// data in test/fixtures/google-robotstxt/, run through this evaluator. A case either agrees
// with Google and is not flagged, or it is one of the differences listed below, where this
// tool follows RFC 9309 and the answer says what Google's parser does
// (`disagreements.google_parser` and a note naming the RFC 9309 section): docs/API.md.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { evaluate } from './evaluate.ts';
import { parseRobotsTxt } from './parse.ts';

/** A long text is written as parts, a run of one character given by its count (the long-line cases). */
type Text = string | Array<string | { repeat: string; times: number }>;

interface GoogleCase {
  id: string;
  test: string;
  line: number;
  robots_txt: Text;
  user_agent: string;
  url: Text;
  google_allowed: boolean;
}

const FIXTURE = new URL('../../../test/fixtures/google-robotstxt/', import.meta.url);
const data = JSON.parse(readFileSync(new URL('cases.json', FIXTURE), 'utf8')) as {
  source: { repository: string; commit: string; file: string; license: string };
  cases: GoogleCase[];
};

function textOf(t: Text): string {
  return typeof t === 'string' ? t : t.map((part) => (typeof part === 'string' ? part : part.repeat.repeat(part.times))).join('');
}

/**
 * The cases where this tool's verdict differs from Google's, why, and what the note must say.
 * Any other case must agree; a case that starts to agree, or another that starts to differ,
 * fails here.
 */
const DIFFERENCES: Readonly<Record<string, { kind: string; note: RegExp }>> = {
  'ID_LineSyntax_Line/3': { kind: 'missing colon', note: /without its colon.*RFC 9309 2\.2|RFC 9309 2\.2.*without its colon/ },
  'GoogleOnly_AcceptUserAgentUpToFirstSpace/2': { kind: 'caller value compared whole', note: /compares "Foo Bar" whole.*RFC 9309 2\.2\.1/ },
  'ID_Encoding/3': { kind: 'raw UTF-8 in the URL', note: /URL as given \(\/foo\/bar\/ツ\).*RFC 9309 2\.2\.2/ },
  'ID_Encoding/5': { kind: 'raw UTF-8 in the URL', note: /URL as given \(\/foo\/bar\/ツ\).*RFC 9309 2\.2\.2/ },
  'ID_Encoding/6': { kind: 'escaped unreserved characters in a rule', note: /escapes of line 3 as written \(\/foo\/bar\/%62%61%7A\).*RFC 9309 2\.2\.2/ },
  'GoogleOnly_IndexHTMLisDirectory/1': { kind: 'index.html read as its directory', note: /also allowing the directory \/allowed-slash\/ .*RFC 9309 2\.2\.2/ },
  'GoogleOnly_LineTooLong/2': { kind: 'long line cut', note: /first 16663 bytes of line 2.*RFC 9309 sets no line length/ },
  'GoogleOnly_LineTooLong/5': { kind: 'long line cut', note: /first 16663 bytes of line 4.*RFC 9309 sets no line length/ },
};

describe('google/robotstxt parity: the data', () => {
  it('names its source, and holds the 145 verdict checks of robots_test.cc', () => {
    assert.deepEqual(
      { ...data.source, commit: /^[0-9a-f]{40}$/.test(data.source.commit) },
      { repository: 'google/robotstxt', commit: true, file: 'robots_test.cc', license: 'Apache-2.0' },
    );
    assert.equal(data.cases.length, 145);
    assert.equal(new Set(data.cases.map((c) => c.id)).size, data.cases.length, 'case ids are unique');
    for (const c of data.cases) assert.match(c.id, new RegExp(`^${c.test}/\\d+$`));
    const readme = readFileSync(new URL('README.md', FIXTURE), 'utf8');
    assert.ok(readme.includes(data.source.commit), 'the README names the commit the cases were taken from');
  });

  it('every listed difference names a case of the data', () => {
    const ids = new Set(data.cases.map((c) => c.id));
    for (const id of Object.keys(DIFFERENCES)) assert.ok(ids.has(id), id);
  });

  it('the long-line cases are as long as Google builds them (a path of 16,656 to 16,659 bytes)', () => {
    const lengths = data.cases.filter((c) => c.test === 'GoogleOnly_LineTooLong').map((c) => textOf(c.url).length - 'http://foo.bar'.length);
    assert.deepEqual(lengths, [4, 16656, 1, 16659, 16659]);
  });
});

describe('google/robotstxt parity: each case agrees, or differs with the reason flagged', () => {
  for (const c of data.cases) {
    const difference = DIFFERENCES[c.id];
    it(`${c.id} (robots_test.cc line ${c.line})${difference ? `: differs, ${difference.kind}` : ''}`, () => {
      const v = evaluate(parseRobotsTxt(textOf(c.robots_txt)), c.user_agent, textOf(c.url));
      if (difference === undefined) {
        assert.equal(v.allowed, c.google_allowed, 'agrees with Google');
        assert.equal(v.disagreements.google_parser, false, 'and says Google agrees');
        return;
      }
      assert.equal(v.allowed, !c.google_allowed, 'follows RFC 9309 where Google differs');
      assert.equal(v.disagreements.google_parser, true, 'and says Google would answer the opposite');
      const note = v.notes.find((n) => n.startsWith("Google's reference parser"));
      assert.ok(note, 'with a note');
      assert.match(note, difference.note);
    });
  }
});
