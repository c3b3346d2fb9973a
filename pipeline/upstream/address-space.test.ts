import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { addressCount, DEFAULT_SPACE_BOUNDS, describe as describeCount, spaceProblem } from './address-space.ts';
import { acceptList } from './accept.ts';
import { makeAttempt } from './attempt.ts';
import type { FetchOutcome } from './fetch.ts';
import { normalisePrefixes } from './normalise.ts';
import { FORMATS, parsePrefixList } from './parse.ts';
import type { PrefixFormat } from './parse.ts';
import { sha256Hex } from '../util/sha256.ts';
import { poisonedCcbotList, publicBlocks } from '../../test/support/poisoned-list.ts';

const REFERENCE = new URL('../../test/fixtures/reference/upstream/', import.meta.url);
const T0 = '2026-08-21T00:00:00Z';
const T1 = '2026-08-21T06:00:00Z';

function outcome(bytes: Uint8Array, contentType = 'application/json'): FetchOutcome {
  return {
    kind: 'ok',
    bytes,
    sha256: sha256Hex(bytes),
    status: 200,
    etag: null,
    lastModified: null,
    contentType,
    finalUrl: 'https://example.org/list.json',
    attempts: 1,
  };
}

const source = { id: 'commoncrawl-ccbot', url: 'https://example.org/list.json', format: 'prefix-json' as const };
const acceptBytes = (previous: Parameters<typeof acceptList>[0], bytes: Uint8Array, now: string) =>
  acceptList(previous, makeAttempt(source, outcome(bytes), 'network'), now);
const utf8 = (text: string) => new TextEncoder().encode(text);
// Parsing and normalising the 4 MB poisoned list is most of this file's time; the attempt is
// pure data, so the tests that judge it against different earlier copies share one.
let poisonedAttempt: ReturnType<typeof makeAttempt> | undefined;
const acceptPoisoned = (previous: Parameters<typeof acceptList>[0], now: string) => {
  poisonedAttempt ??= makeAttempt(source, outcome(utf8(poisonedCcbotList())), 'network');
  return acceptList(previous, poisonedAttempt, now);
};
const real = (file: string) => new Uint8Array(readFileSync(new URL(file, REFERENCE)));
/** A real copy's format, by its file extension (FORMATS names each format's extension). */
const formatOf = (file: string): PrefixFormat =>
  (Object.keys(FORMATS) as PrefixFormat[]).find((format) => file.endsWith(`.${FORMATS[format].extension}`)) ?? 'prefix-json';
/** A real copy accepted as its own format, served with that format's media type. */
const acceptReal = (previous: Parameters<typeof acceptList>[0], file: string, now: string) => {
  const format = formatOf(file);
  return acceptList(previous, makeAttempt({ ...source, format }, outcome(real(file), FORMATS[format].mediaType), 'network'), now);
};
const list = (ipv4: string[], ipv6: string[] = []) => ({ ipv4, ipv6 });

describe('addressCount', () => {
  test('sums 2^(bits - length) per prefix, per family', () => {
    assert.equal(addressCount(['66.249.64.0/27', '17.0.0.0/8', '192.0.2.7/32'], 'ipv4'), 32n + 2n ** 24n + 1n);
    assert.equal(addressCount(['2600:1f28:365:8000::/56', '2001:4860:4801:10::/64'], 'ipv6'), 2n ** 72n + 2n ** 64n);
    assert.equal(addressCount([], 'ipv6'), 0n);
  });

  test('a count reads as grouped digits (IPv4) or a power of two (IPv6)', () => {
    assert.equal(describeCount(4_194_304n, 'ipv4'), '4,194,304');
    assert.equal(describeCount(2n ** 84n, 'ipv6'), '2^84');
    assert.equal(describeCount(2n ** 72n + 2n ** 72n, 'ipv6'), '2^73');
    assert.equal(describeCount(0n, 'ipv6'), '0');
  });
});

describe('spaceProblem: the absolute bound', () => {
  test('the bounds are 2^22 IPv4 and 2^84 IPv6 addresses; exactly at the bound passes, one more does not', () => {
    const v4 = Array.from({ length: 64 }, (_, i) => `34.${i}.0.0/16`); // 64 × 2^16 = 2^22
    assert.equal(spaceProblem(list(v4), null), null);
    assert.match(spaceProblem(list([...v4, '35.0.0.0/32']), null) ?? '', /^The list covers 4,194,305 IPv4 addresses, more than the 4,194,304 a crawler/);
    const v6 = Array.from({ length: 16 }, (_, i) => `2600:${i.toString(16)}::/48`); // 16 × 2^80 = 2^84
    assert.equal(spaceProblem(list([], v6), null), null);
    assert.match(spaceProblem(list([], [...v6, '2600:ff::/64']), null) ?? '', /^The list covers 2\^84 IPv6 addresses, more than the 2\^84/);
  });

  test('the poisoned CCBot list (Common Crawl + every public /8 and /19) is refused, whole, on its first fetch', () => {
    const { ipv4, ipv6 } = publicBlocks();
    assert.equal(ipv4.length, 215);
    assert.equal(ipv6.length, 65_525);
    const entry = acceptPoisoned(undefined, T0);
    assert.equal(entry.state, 'failed');
    assert.deepEqual([entry.ipv4, entry.ipv6], [[], []]);
    assert.match(entry.error ?? '', /^The list covers 3,607,101,468 IPv4 addresses, more than the 4,194,304 .*No earlier copy exists/);
  });

  test('and, after the real list, refused with the real list kept', () => {
    const good = acceptBytes(undefined, real('commoncrawl-ccbot.json'), T0);
    assert.equal(good.state, 'ok');
    const entry = acceptPoisoned(good, T1);
    assert.equal(entry.state, 'failed');
    assert.deepEqual([entry.ipv4, entry.ipv6], [good.ipv4, good.ipv6]);
    assert.match(entry.error ?? '', /IPv4 addresses, more than .* The previous 5 prefixes are kept\.$/);
  });
});

describe('spaceProblem: growth against the last good copy', () => {
  const small = list(['18.97.9.168/29']); // 8 addresses

  test('by up to a /16 of IPv4 and a /52 of IPv6, whatever the last copy held', () => {
    assert.equal(spaceProblem(list(['18.97.9.168/29', '34.64.0.0/16']), small), null);
    assert.equal(spaceProblem(list(['18.97.9.168/29'], ['2600:1f28:365::/52']), small), null);
  });

  test('past the floor, up to 16 times the last good copy', () => {
    const before = list(Array.from({ length: 2 }, (_, i) => `34.${i}.0.0/16`)); // 2^17
    const sixteen = list(Array.from({ length: 32 }, (_, i) => `34.${i}.0.0/16`)); // 2^21 = 16 × 2^17
    assert.equal(spaceProblem(sixteen, before), null);
    const more = list([...sixteen.ipv4, '35.0.0.0/24']);
    assert.equal(
      spaceProblem(more, before),
      'The IPv4 addresses the list covers grew from 131,072 to 2,097,408, more than 16 times the last good copy at once (docs/API.md §2.3).',
    );
  });

  test('a family the last copy did not have may start at up to the floor', () => {
    assert.equal(spaceProblem(list([], ['2600:1f28:365:8000::/56']), list(['3.41.188.32/29'])), null);
    assert.match(spaceProblem(list([], ['2600:1f28::/51']), list(['3.41.188.32/29'])) ?? '', /^The IPv6 addresses the list covers grew from 0 to 2\^77/);
  });

  test('the bounds are a parameter', () => {
    const strict = { ...DEFAULT_SPACE_BOUNDS, maxAddresses: { ipv4: 8n, ipv6: 0n } };
    assert.match(spaceProblem(list(['18.97.14.88/30', '18.97.14.80/29']), null, strict) ?? '', /covers 12 IPv4 addresses, more than the 8/);
  });
});

describe('every real list passes (test/fixtures/reference/upstream)', () => {
  // Every real copy, JSON or plain text, each read as its own format.
  const files = readdirSync(REFERENCE);

  test('each file as a first list, and the bound leaves a wide margin over the largest', () => {
    const largest = { ipv4: 0n, ipv6: 0n };
    for (const file of files) {
      const entry = acceptReal(undefined, file, T0);
      assert.equal(entry.state, 'ok', `${file}: ${entry.error}`);
      for (const family of ['ipv4', 'ipv6'] as const) {
        const count = addressCount(entry[family], family);
        if (count > largest[family]) largest[family] = count;
      }
    }
    // The figures docs/API.md §2.3 gives: Google's user-triggered fetchers are the largest in both families.
    assert.equal(largest.ipv4, 16_896n);
    assert.equal(describeCount(largest.ipv6, 'ipv6'), '2^73.04');
    assert.ok(DEFAULT_SPACE_BOUNDS.maxAddresses.ipv4 >= 200n * largest.ipv4);
    assert.ok(DEFAULT_SPACE_BOUNDS.maxAddresses.ipv6 >= 1000n * largest.ipv6);
  });

  test('each v1 → v2 pair as the change it was', () => {
    const pairs = files.filter((f) => f.endsWith('.v1.json'));
    assert.ok(pairs.length >= 9);
    for (const v1 of pairs) {
      const v2 = v1.replace('.v1.', '.v2.');
      const next = acceptBytes(acceptBytes(undefined, real(v1), T0), real(v2), T1);
      assert.equal(next.state, 'ok', `${v1} → ${v2}: ${next.error}`);
    }
  });

  test('the largest real growth stays far inside the factor', () => {
    const count = (file: string) => {
      const n = normalisePrefixes((parsePrefixList('prefix-json', real(file)) as { prefixes: string[] }).prefixes);
      return addressCount(n.ipv4, 'ipv4');
    };
    const growth = Number(count('duckduckgo-duckduckbot.v2.json')) / Number(count('duckduckgo-duckduckbot.v1.json'));
    assert.ok(growth > 2 && growth < 2.1, `DuckDuckBot grew ${growth} times`);
    assert.ok(DEFAULT_SPACE_BOUNDS.maxGrowthFactor >= 7 * growth);
  });
});
