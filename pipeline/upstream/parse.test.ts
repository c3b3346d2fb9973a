import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { normalisePrefixes } from './normalise.ts';
import { decodeEntities, parsePrefixList, stripTrailingCommas } from './parse.ts';
import type { ParseResult, PrefixFormat } from './parse.ts';
import { fixture } from '../../test/support/upstream-server.ts';
import { parse as parseYaml } from 'yaml';
import type { SourceRow } from '../records/types.ts';

type Ok = Extract<ParseResult, { ok: true }>;

function ok(result: ParseResult): Ok {
  assert.equal(result.ok, true, `expected ok, got ${JSON.stringify(result)}`);
  return result as Ok;
}

function failed(result: ParseResult): string {
  assert.equal(result.ok, false, `expected a failure, got ${JSON.stringify(result)}`);
  return (result as { ok: false; error: string }).error;
}

const parseFixture = (format: PrefixFormat, name: string): ParseResult => parsePrefixList(format, fixture(name));
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('prefix-json (Google layout)', () => {
  test('reads creationTime and every entry, IPv6 first as published', () => {
    const result = ok(parseFixture('prefix-json', 'google-style.json'));
    assert.equal(result.creationTime, '2026-08-21T14:45:42.000000');
    assert.deepEqual(result.prefixes, ['2001:4860:4801:10::/64', '2001:4860:4801:12::/64', '192.178.4.0/27', '34.100.182.96/28', '66.249.64.0/27']);
    assert.deepEqual(result.findings, []);
  });

  test('one-line json.dumps layout (OpenAI chatgpt-user)', () => {
    const result = ok(parseFixture('prefix-json', 'single-line.json'));
    assert.equal(result.prefixes.length, 3);
    assert.equal(result.creationTime, '2026-04-29T21:03:15.207621');
  });

  test('extra top-level keys (synctoken, notes) are tolerated; an extra entry key is reported', () => {
    const result = ok(parseFixture('prefix-json', 'extra-keys.json'));
    assert.equal(result.creationTime, '2026-08-11T13:40:00Z');
    assert.deepEqual(result.prefixes, ['2600:1f28:365:8000::/56', '3.41.188.32/29', '18.97.9.168/29']);
    assert.deepEqual(result.findings, ['1 entry has an extra key "service", ignored (#1).']);
  });

  test('no creationTime (Ahrefs) is null and reported', () => {
    const result = ok(parseFixture('prefix-json', 'no-creation-time.json'));
    assert.equal(result.creationTime, null);
    assert.deepEqual(result.findings, ['The document has no "creationTime".']);
  });

  test('entries with neither key are skipped, with both keys read; both reported', () => {
    const result = ok(parseFixture('prefix-json', 'odd-entries.json'));
    assert.deepEqual(result.prefixes, ['192.0.2.0/24', '203.0.113.0/24', '2001:db8::/32']);
    assert.deepEqual(result.findings, [
      '1 entry has neither "ipv4Prefix" nor "ipv6Prefix" and was skipped: #1 {"ipPrefix":"198.51.100.0/24"}.',
      '1 entry has both "ipv4Prefix" and "ipv6Prefix"; both values were read: #2 {"ipv4Prefix":"203.0.113.0/24","ipv6Prefix":"2001:db8::/32"}.',
    ]);
  });

  test('a leading newline (Perplexity) is tolerated and reported', () => {
    const result = ok(parseFixture('prefix-json', 'leading-newline.json'));
    assert.deepEqual(result.prefixes, ['107.20.236.150/32', '3.224.62.45/32']);
    assert.deepEqual(result.findings, ['The body starts with a newline before the JSON.']);
  });

  test('a UTF-8 BOM is tolerated and reported', () => {
    const result = ok(parseFixture('prefix-json', 'bom.json'));
    assert.deepEqual(result.prefixes, ['107.20.236.150/32', '3.224.62.45/32']);
    assert.deepEqual(result.findings, ['The body starts with a UTF-8 byte-order mark (U+FEFF); it was ignored.']);
  });

  test('zero-width characters are removed and reported', () => {
    const result = ok(parseFixture('prefix-json', 'zero-width.json'));
    assert.deepEqual(result.prefixes, ['107.20.236.150/32', '3.224.62.45/32']);
    assert.deepEqual(result.findings, ['3 zero-width characters (U+200B, U+200C, U+200D, U+2060 or U+FEFF) removed.']);
  });

  test('non-breaking spaces become spaces, values are trimmed; both reported', () => {
    const result = ok(parseFixture('prefix-json', 'nbsp.json'));
    assert.deepEqual(result.prefixes, ['107.20.236.150/32', '3.224.62.45/32']);
    assert.deepEqual(result.findings, [
      '3 non-breaking or other Unicode spaces (e.g. U+00A0) read as plain spaces.',
      '1 value has surrounding white space, trimmed: "3.224.62.45/32 ".',
    ]);
  });

  test('trailing commas are tolerated, and reported (not silent)', () => {
    const result = ok(parseFixture('prefix-json', 'trailing-comma.json'));
    assert.deepEqual(result.prefixes, ['107.20.236.150/32', '3.224.62.45/32']);
    assert.deepEqual(result.findings, ['3 trailing commas before "]" or "}" (not valid JSON) tolerated.']);
  });

  test('trailing-comma removal leaves strings alone', () => {
    assert.deepEqual(stripTrailingCommas('{"a": "x,]", "b": "q\\",}",}'), { text: '{"a": "x,]", "b": "q\\",}"}', removed: 1 });
    assert.deepEqual(stripTrailingCommas('[1, 2]'), { text: '[1, 2]', removed: 0 });
  });

  test('bare addresses pass through the parser; normalise makes them /32 or /128 and says so', () => {
    const result = ok(parseFixture('prefix-json', 'bare-ips.json'));
    assert.deepEqual(result.prefixes, ['3.81.245.78', '100.24.149.244/32', '2001:db8::7']);
    const normalised = normalisePrefixes(result.prefixes);
    assert.deepEqual(normalised.ipv4, ['3.81.245.78/32', '100.24.149.244/32']);
    assert.deepEqual(normalised.ipv6, ['2001:db8::7/128']);
    assert.deepEqual(normalised.findings, [
      '1 entry is a bare address without a prefix length, read as /32: "3.81.245.78".',
      '1 entry is a bare address without a prefix length, read as /128: "2001:db8::7".',
    ]);
  });

  test('non-string values and non-object entries are passed on so that normalise rejects them', () => {
    const result = ok(parsePrefixList('prefix-json', utf8('{"prefixes": [{"ipv4Prefix": 12}, null, "192.0.2.0/24"]}')));
    assert.deepEqual(result.prefixes, ['12', 'null', '192.0.2.0/24']);
    assert.deepEqual(normalisePrefixes(result.prefixes).invalid, ['12', 'null']);
    assert.equal(result.findings.length, 4);
  });

  test('a family key holding the other family is reported', () => {
    const result = ok(parsePrefixList('prefix-json', utf8('{"prefixes": [{"ipv4Prefix": "2001:db8::/32"}, {"ipv6Prefix": "192.0.2.0/24"}]}')));
    assert.deepEqual(result.findings.slice(1), [
      '1 IPv6 value is listed under "ipv4Prefix": "2001:db8::/32".',
      '1 IPv4 value is listed under "ipv6Prefix": "192.0.2.0/24".',
    ]);
  });

  test('an empty list parses (accept.ts refuses it)', () => {
    assert.deepEqual(ok(parseFixture('prefix-json', 'empty-list.json')).prefixes, []);
  });

  test('truncated JSON fails and says so', () => {
    assert.match(failed(parseFixture('prefix-json', 'truncated.json')), /^The JSON ends early: the body looks truncated/);
    assert.match(failed(parsePrefixList('prefix-json', utf8('{"prefixes": [{"ipv4Prefix": "192.0'))), /truncated/);
  });

  test('garbage fails with a clear error', () => {
    assert.equal(failed(parseFixture('prefix-json', 'garbage.bin')), 'The body is not valid UTF-8 text (binary or garbage?).');
    assert.match(
      failed(parseFixture('prefix-json', 'garbage.txt')),
      /^The body is not valid JSON: .*\(it starts "Service temporarily unavailable\. Please "\)\.$/,
    );
    assert.equal(failed(parsePrefixList('prefix-json', new Uint8Array())), 'The body is empty (0 bytes).');
    assert.match(failed(parsePrefixList('prefix-json', utf8('{"a":1}x'))), /^The body is not valid JSON/);
    assert.match(failed(parsePrefixList('prefix-json', new Uint8Array([0xff, 0xfe, 0x7b, 0x00]))), /UTF-16/);
  });

  test('HTML where JSON is expected fails', () => {
    assert.match(failed(parseFixture('prefix-json', 'html-no-json.html')), /^Expected JSON but the body is HTML or XML \(it starts "<!DOCTYPE html>/);
  });

  test('JSON of the wrong shape fails and names what it found', () => {
    assert.equal(failed(parsePrefixList('prefix-json', utf8('[]'))), 'The JSON is an array; expected an object with a "prefixes" array.');
    assert.equal(failed(parsePrefixList('prefix-json', utf8('"x"'))), 'The JSON is a string; expected an object with a "prefixes" array.');
    assert.equal(failed(parsePrefixList('prefix-json', utf8('{"ranges": []}'))), 'The JSON object has no "prefixes" key (its keys: "ranges").');
    assert.equal(failed(parsePrefixList('prefix-json', utf8('{"prefixes": {}}'))), '"prefixes" is a object; expected an array.');
  });
});

describe('prefix-json-html (Amazon)', () => {
  test('reads the JSON inside <pre><code>, decoding HTML entities', () => {
    const result = ok(parseFixture('prefix-json-html', 'amazon-style.html'));
    assert.equal(result.creationTime, '2026-04-30T00:00:00.000000+00:00');
    assert.deepEqual(result.prefixes, ['3.81.245.78', '100.24.149.244/32', '52.70.240.171']);
    assert.deepEqual(result.findings, []);
  });

  test('an HTML page with no prefix JSON fails', () => {
    assert.equal(failed(parseFixture('prefix-json-html', 'html-no-json.html')), 'The HTML page has 1 <pre>/<code> block but none holds a "prefixes" list.');
    assert.equal(
      failed(parsePrefixList('prefix-json-html', utf8('<html><body>nothing</body></html>'))),
      'The HTML page has no <pre> or <code> block, so it holds no prefix JSON.',
    );
  });

  test('a broken JSON block fails with the JSON error', () => {
    const page = '<html><pre>{&quot;prefixes&quot;: [{&quot;ipv4Prefix&quot;: &quot;1.2</pre></html>';
    assert.match(
      failed(parsePrefixList('prefix-json-html', utf8(page))),
      /^The JSON in the HTML page's <pre>\/<code> block could not be read\. The JSON ends early/,
    );
  });

  test('bare JSON where HTML was expected is read, and reported', () => {
    const result = ok(parsePrefixList('prefix-json-html', fixture('google-style.json')));
    assert.equal(result.prefixes.length, 5);
    assert.deepEqual(result.findings, ['Expected an HTML page but the body is bare JSON; it was read as JSON.']);
  });

  test('plain text where HTML was expected fails', () => {
    assert.match(
      failed(parseFixture('prefix-json-html', 'garbage.txt')),
      /^Expected an HTML page holding the prefix JSON, but the body is neither HTML nor JSON/,
    );
  });

  test('&nbsp; inside the block is decoded, then reported like any non-breaking space', () => {
    const page = '<pre>{&quot;prefixes&quot;:&nbsp;[{&quot;ipv4Prefix&quot;: &quot;192.0.2.0/24&quot;}]}</pre>';
    const result = ok(parsePrefixList('prefix-json-html', utf8(page)));
    assert.deepEqual(result.prefixes, ['192.0.2.0/24']);
    assert.match(result.findings.join('\n'), /1 non-breaking or other Unicode space/);
  });

  test('entity decoding', () => {
    assert.equal(decodeEntities('&quot;a&quot; &amp;lt; &#39;b&#x27; &lt;&gt; &unknown; &#1114112;'), `"a" &lt; 'b' <> &unknown; &#1114112;`);
  });
});

describe('text', () => {
  test('one prefix per line; comments, blank lines and CRLF ignored', () => {
    const result = ok(parseFixture('text', 'prefixes.txt'));
    assert.deepEqual(result.prefixes, ['192.0.2.0/24', '2001:db8::/32', '198.51.100.7']);
    assert.equal(result.creationTime, null);
    assert.deepEqual(result.findings, []);
  });

  test('HTML or JSON where text is expected fails', () => {
    assert.match(failed(parseFixture('text', 'html-no-json.html')), /^Expected a plain-text prefix list but the body is HTML/);
    assert.match(failed(parseFixture('text', 'google-style.json')), /^Expected a plain-text prefix list but the body looks like JSON/);
  });

  test('garbage text lines reach normalise as invalid entries', () => {
    const result = ok(parseFixture('text', 'garbage.txt'));
    assert.deepEqual(normalisePrefixes(result.prefixes).invalid, ['Service temporarily unavailable. Please try again later.']);
  });
});

describe('csv', () => {
  test('first column, header skipped and reported, quoted cells, comment lines', () => {
    const result = ok(parseFixture('csv', 'prefixes.csv'));
    assert.deepEqual(result.prefixes, ['192.0.2.0/24', '2001:db8::/32', '198.51.100.0/25']);
    assert.deepEqual(result.findings, ['The first row was read as a header: "prefix,region,service".']);
  });

  test('no header: the first row is data', () => {
    const result = ok(parsePrefixList('csv', utf8('192.0.2.0/24,x\n2001:db8::/32\n')));
    assert.deepEqual(result.prefixes, ['192.0.2.0/24', '2001:db8::/32']);
    assert.deepEqual(result.findings, []);
  });

  test('HTML where CSV is expected fails', () => {
    assert.match(failed(parseFixture('csv', 'html-no-json.html')), /^Expected a CSV prefix list but the body is HTML/);
  });
});

// ---------------------------------------------------------------------------------------
// Real operator files (test/fixtures/reference). Expected counts come from its README table,
// which records them beside each file's source, so updating a file and its facts is one change.

const REFERENCE = new URL('../../test/fixtures/reference/', import.meta.url);

interface ReferenceRow {
  file: string;
  creationTime: string | null;
  v4: number;
  v6: number;
  /** The records/sources.yaml row the file is a copy of. */
  source: string;
}

/** Reads a Markdown table that follows `heading` in the README, by its header names. */
function readTable(readme: string, heading: string): Array<Record<string, string>> {
  const start = readme.indexOf(heading);
  assert.notEqual(start, -1, `README has no "${heading}" section`);
  const lines = readme.slice(start).split('\n');
  const headerAt = lines.findIndex((line) => line.startsWith('|'));
  const cells = (line: string): string[] =>
    line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const header = cells(lines[headerAt] ?? '');
  const rows: Array<Record<string, string>> = [];
  for (const line of lines.slice(headerAt + 2)) {
    if (!line.startsWith('|')) break;
    const values = cells(line);
    rows.push(Object.fromEntries(header.map((name, i) => [name, values[i] ?? ''])));
  }
  return rows;
}

function referenceRows(heading: string): ReferenceRow[] {
  const readme = readFileSync(new URL('README.md', REFERENCE), 'utf8');
  return readTable(readme, heading).map((row) => {
    const created = (row.creationTime ?? '').split(/\s+/)[0] ?? '';
    return {
      file: row.file ?? '',
      creationTime: created === '' || created === 'none' ? null : created,
      v4: Number(row.v4),
      v6: Number(row.v6),
      source: row.source ?? '',
    };
  });
}

/** The format each prefix-list row of records/sources.yaml declares, by id. */
function sourceFormats(): Map<string, PrefixFormat> {
  const rows = parseYaml(readFileSync(new URL('../../records/sources.yaml', import.meta.url), 'utf8')) as (SourceRow | { kind: string; id: string })[];
  return new Map(rows.filter((row): row is SourceRow => !('kind' in row)).map((row) => [row.id, row.format]));
}

describe('real operator files (fixtures/reference/upstream)', () => {
  const rows = referenceRows('## upstream/');
  const formats = sourceFormats();

  test('the README table lists every file in upstream/', () => {
    const files = readdirSync(new URL('upstream/', REFERENCE)).sort();
    assert.deepEqual(rows.map((r) => r.file).sort(), files);
  });

  for (const row of rows) {
    test(`${row.file}: ${row.v4} IPv4 + ${row.v6} IPv6, creationTime ${row.creationTime ?? 'none'}`, () => {
      // Each copy is read with the format its source row declares (JSON, plain text, ...).
      const format = formats.get(row.source);
      assert.ok(format, `${row.file} names a prefix-list row of records/sources.yaml (${row.source})`);
      const result = ok(parsePrefixList(format, readFileSync(new URL(`upstream/${row.file}`, REFERENCE))));
      assert.equal(result.creationTime, row.creationTime);
      const normalised = normalisePrefixes(result.prefixes);
      assert.deepEqual(normalised.invalid, []);
      assert.equal(normalised.ipv4.length, row.v4);
      assert.equal(normalised.ipv6.length, row.v6);
      // The README says: no duplicates, no host bits; so normalising changed nothing.
      assert.equal(result.prefixes.length, row.v4 + row.v6);
      assert.doesNotMatch(normalised.findings.join('\n'), /duplicate|host bits|not a valid prefix/);
    });
  }

  test("Perplexity's leading newline is reported", () => {
    const result = ok(parsePrefixList('prefix-json', readFileSync(new URL('upstream/perplexity-perplexitybot.json', REFERENCE))));
    assert.ok(result.findings.includes('The body starts with a newline before the JSON.'));
  });

  test('the change pairs match the README (added / removed per list)', () => {
    const readme = readFileSync(new URL('README.md', REFERENCE), 'utf8');
    const pairs = readTable(readme, '### Change pairs');
    assert.ok(pairs.length > 0);
    for (const pair of pairs) {
      const read = (version: string): Set<string> => {
        const result = ok(parsePrefixList('prefix-json', readFileSync(new URL(`upstream/${pair.list}.${version}.json`, REFERENCE))));
        const n = normalisePrefixes(result.prefixes);
        return new Set([...n.ipv4, ...n.ipv6]);
      };
      const v1 = read('v1');
      const v2 = read('v2');
      assert.equal([...v2].filter((p) => !v1.has(p)).length, Number(pair.added), `${pair.list} added`);
      assert.equal([...v1].filter((p) => !v2.has(p)).length, Number(pair.removed), `${pair.list} removed`);
    }
  });
});

// Every prefix list the refresh fetches, one row each: its parser case (the row's own `format`)
// against the newest real copy of the operator's file, or the row says no real copy exists.
describe('every prefix-list row of records/sources.yaml against a real copy', () => {
  // Key directories (kind: signature-directory) are JWK Sets, not prefix lists.
  const rows = (parseYaml(readFileSync(new URL('../../records/sources.yaml', import.meta.url), 'utf8')) as (SourceRow | { kind: string })[]).filter(
    (row): row is SourceRow => !('kind' in row),
  );
  const copies = referenceRows('## upstream/');
  /** The newest copy of each source: its .v2 file when there are two. */
  const newest = new Map<string, ReferenceRow>();
  for (const copy of copies) if (!newest.has(copy.source) || copy.file.includes('.v2.')) newest.set(copy.source, copy);

  test('39 lists: each has a real copy or is marked unverified-format, never both', () => {
    assert.equal(rows.length, 39);
    for (const copy of copies)
      assert.ok(
        rows.some((row) => row.id === copy.source),
        `${copy.file} names a source row (${copy.source})`,
      );
    const verified = rows.filter((row) => newest.has(row.id)).map((row) => row.id);
    const unverified = rows.filter((row) => row.format_status === 'unverified-format').map((row) => row.id);
    assert.deepEqual(
      verified.filter((id) => unverified.includes(id)),
      [],
      'a row with a real copy is not unverified',
    );
    assert.deepEqual(
      rows.map((row) => row.id).filter((id) => !verified.includes(id) && !unverified.includes(id)),
      [],
      'every row is one or the other',
    );
    assert.deepEqual([verified.length, unverified.length], [16, 23]);
  });

  for (const row of rows) {
    const copy = newest.get(row.id);
    if (!copy) continue;
    test(`${row.id} (${row.format}): ${copy.file}`, () => {
      const result = ok(parsePrefixList(row.format, readFileSync(new URL(`upstream/${copy.file}`, REFERENCE))));
      assert.equal(result.creationTime, copy.creationTime);
      const normalised = normalisePrefixes(result.prefixes);
      assert.deepEqual(normalised.invalid, []);
      assert.deepEqual([normalised.ipv4.length, normalised.ipv6.length], [copy.v4, copy.v6]);
      const present = (['ipv4', 'ipv6'] as const).filter((family) => normalised[family].length > 0);
      assert.deepEqual(
        present.filter((family) => !row.families.includes(family)),
        [],
        `families: [${row.families.join(', ')}] in sources.yaml, [${present.join(', ')}] in the file`,
      );
    });
  }
});

// Amazon serves its lists only inside an HTML page, with bare addresses, and no copy of those
// pages may be kept in the repository. The same shape is rebuilt from a real list that holds
// only /32 entries: the /32 taken off, a creationTime in one of Amazon's zoned styles, and the
// JSON HTML-escaped inside <pre><code>. Both readings must give back the original prefixes.
const AMAZON_SHAPED = [
  { file: 'duckduckgo-duckduckbot.v1.json', creationTime: '2026-04-30T00:00:00.000000+00:00' },
  { file: 'duckduckgo-duckduckbot.v2.json', creationTime: '2025-11-21T23:40:00.471564Z' },
];

/** The list as Amazon would ship it: bare addresses and Amazon's creationTime. */
function amazonShaped(text: string, creationTime: string): string {
  return text.replace(/"creationTime": "[^"]*"/, `"creationTime": "${creationTime}"`).replace(/\/32"/g, '"');
}

function amazonPage(json: string): Uint8Array {
  const escaped = json.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return utf8(`<!DOCTYPE html><html><body><h1>IP addresses</h1><pre><code>${escaped}</code></pre></body></html>`);
}

describe('Amazon-shaped lists rebuilt from real all-/32 lists', () => {
  const rows = new Map(referenceRows('## upstream/').map((row) => [row.file, row]));

  for (const { file, creationTime } of AMAZON_SHAPED) {
    test(`${file} without its /32s, as JSON and inside HTML, creationTime ${creationTime}`, () => {
      const row = rows.get(file);
      assert.ok(row !== undefined && row.v4 > 0 && row.v6 === 0, `${file} must be an IPv4 list in the README table`);
      const text = readFileSync(new URL(`upstream/${file}`, REFERENCE), 'utf8');
      const original = normalisePrefixes(ok(parsePrefixList('prefix-json', utf8(text))).prefixes);
      const json = amazonShaped(text, creationTime);
      assert.equal(json.match(/\/32"/g), null, 'every entry lost its /32');
      const bare = new RegExp(`^${row.v4} entries are bare addresses without a prefix length, read as /32`);

      for (const [format, body] of [
        ['prefix-json', utf8(json)],
        ['prefix-json-html', amazonPage(json)],
      ] as const) {
        const result = ok(parsePrefixList(format, body));
        assert.equal(result.creationTime, creationTime, format);
        const again = normalisePrefixes(result.prefixes);
        assert.deepEqual(again.invalid, [], format);
        assert.deepEqual(again.ipv4, original.ipv4, format);
        assert.match(again.findings.join('\n'), bare, format);
      }
    });
  }
});
