import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildPrefixIndex } from './prefix-index.ts';
import { MAX_ADDRESSES_PER_CALL, resolveClaim, verifyBatch, type BatchItem, type CheckedAddress } from './verify-batch.ts';
import type { PrefixIndex } from './prefix-index.ts';
import type { CrawlerView } from '../../model/model.ts';
import { parseAddressList } from '../../net/address-list.ts';
import { howToVerify } from './how-to-verify.ts';
import { listedSources, type PrefixSource } from './sources.ts';
import type { VerificationView } from '../../model/model.ts';
import { FIXTURE_NOW, fixtureCrawlers, fixtureSources, mirrorSources, referenceSources } from '../../../test/support/verify-data.ts';
import { fixtureCrawler, realCrawlers } from '../../../test/support/classify-data.ts';

const crawlers = fixtureCrawlers();
/** verifyBatch at a time when the fixture lists are current, unless the test says otherwise. */
const verifyAt = (idx: PrefixIndex, cs: readonly CrawlerView[], addresses: string[], claim?: string, now = FIXTURE_NOW) =>
  verifyBatch(idx, cs, addresses, claim, now);
const index = buildPrefixIndex(fixtureSources());

function checked(item: BatchItem | undefined): CheckedAddress {
  assert.ok(item?.valid, item && !item.valid ? `${item.input}: ${item.error}` : 'missing item');
  return item;
}

function verdicts(addresses: string[], claim?: string): (string | null)[] {
  return verifyAt(index, crawlers, addresses, claim).results.map((r) => (r.valid ? r.verdict : `invalid:${r.code}`));
}

describe('resolveClaim', () => {
  it('reads a robots.txt token case-insensitively, a slug, or a whole header', () => {
    const token = resolveClaim(crawlers, 'acmebot');
    assert.ok(token.resolved);
    assert.equal(token.by, 'robots-token');
    assert.equal(token.crawler.slug, 'acmebot');
    const slug = resolveClaim(crawlers, 'acme-dns');
    assert.ok(slug.resolved);
    assert.equal(slug.by, 'slug');
    const header = resolveClaim(crawlers, 'Mozilla/5.0 (compatible; OtherBot/2.0; +https://other.example/bot)');
    assert.ok(header.resolved);
    assert.equal(header.by, 'user-agent');
    assert.equal(header.crawler.slug, 'otherbot');
  });

  it('says a robots.txt control token is not a crawler', () => {
    const claim = resolveClaim(crawlers, 'Acme-Extended');
    assert.ok(claim.resolved);
    assert.match(claim.note ?? '', /control token/);
  });

  it('reports an unknown or unusable claim without throwing', () => {
    for (const input of ['SomeoneElseBot/1.0', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0', '', 'x'.repeat(10000), 'Acme\nBot']) {
      const claim = resolveClaim(crawlers, input);
      assert.equal(claim.resolved, false, input.slice(0, 30));
      assert.ok(claim.note.length > 0);
    }
  });
});

describe('verifyBatch: fixture', () => {
  it('without a claim, answers where each address is and who publishes it', () => {
    const answer = verifyAt(index, crawlers, ['192.0.2.130', '198.18.0.1']);
    assert.equal(answer.claim, null);
    const first = checked(answer.results[0]);
    assert.equal(first.verdict, null);
    assert.deepEqual(
      first.matches.map((m) => [m.prefix, m.source, m.operator, m.operator_name, m.crawlers]),
      [
        ['192.0.2.128/26', 'other-lists', 'other', 'OTHER', ['otherbot']],
        ['192.0.2.0/24', 'acme-main', 'acme', 'ACME', ['acmebot']],
        ['192.0.2.0/24', 'acme-user', 'acme', 'ACME', ['acme-user']],
      ],
    );
    assert.match(first.explanation, /192\.0\.2\.128\/26 in OTHER's list other-lists \(OtherBot\)/);
    assert.match(checked(answer.results[1]).explanation, /no operator-published range/);
    assert.deepEqual(answer.summary, { valid: 2, invalid: 0, in_published_ranges: 1, verdicts: null });
  });

  it('genuine: in a list of the claimed crawler, even where other lists overlap', () => {
    assert.deepEqual(verdicts(['198.51.100.200', '192.0.2.130', '2001:db8:1::9', '::ffff:192.0.2.1'], 'AcmeBot'), ['genuine', 'genuine', 'genuine', 'genuine']);
    const item = checked(verifyAt(index, crawlers, ['192.0.2.130'], 'AcmeBot').results[0]);
    assert.match(item.explanation, /192\.0\.2\.0\/24, which ACME publishes for AcmeBot \(list acme-main\)/);
  });

  it('every spelling of a mapped address gets the IPv4 verdict; both spellings of an IPv4-compatible one are refused alike', () => {
    const mapped = ['::ffff:192.0.2.1', '::ffff:c000:201', '::FFFF:C000:0201', '0:0:0:0:0:ffff:192.0.2.1', '0000:0000:0000:0000:0000:ffff:c000:0201'];
    for (const item of verifyAt(index, crawlers, mapped, 'AcmeBot').results.map(checked)) {
      assert.deepEqual([item.address, item.ipv4_mapped, item.verdict], ['192.0.2.1', true, 'genuine'], item.input);
    }
    const compatible = verifyAt(index, crawlers, ['::192.0.2.1', '::c000:201'], 'AcmeBot').results;
    assert.deepEqual(
      compatible.map((r) => (r.valid ? r.verdict : r.code)),
      ['ipv4-compatible', 'ipv4-compatible'],
    );
  });

  it("operator-range: the operator's address, but a list of another of its crawlers", () => {
    assert.deepEqual(verdicts(['203.0.113.7', '203.0.113.200'], 'AcmeBot/1.0'), ['operator-range', 'operator-range']);
    const item = checked(verifyAt(index, crawlers, ['203.0.113.7'], 'AcmeBot').results[0]);
    assert.match(item.explanation, /list acme-user, published for Acme-User/);
  });

  it('other-operator: names the operator whose range it is', () => {
    assert.deepEqual(verdicts(['10.1.2.3', '2001:db8:ffff::1'], 'AcmeBot'), ['other-operator', 'other-operator']);
    const item = checked(verifyAt(index, crawlers, ['10.1.2.3'], 'AcmeBot').results[0]);
    assert.match(item.explanation, /published by OTHER, not by ACME/);
  });

  it('not-in-published-ranges: the claim says, once per call, how the crawler can be checked instead', () => {
    const ranges = verifyAt(index, crawlers, ['198.18.0.1', '198.18.0.2'], 'AcmeBot');
    assert.deepEqual(
      ranges.results.map((r) => checked(r).verdict),
      ['not-in-published-ranges', 'not-in-published-ranges'],
    );
    assert.equal(checked(ranges.results[0]).caveat, null);
    assert.equal(ranges.claim?.how_to_verify?.method, 'published-ranges');
    assert.ok(
      ranges.results.every((r) => !('how_to_verify' in r)),
      'not repeated per address',
    );

    const dns = verifyAt(index, crawlers, ['198.18.0.1'], 'AcmeDNSBot');
    assert.equal(checked(dns.results[0]).verdict, 'not-in-published-ranges');
    assert.match(checked(dns.results[0]).explanation, /see claim\.how_to_verify/);
    assert.deepEqual(dns.claim?.how_to_verify?.commands, ['host <ip>', 'host <hostname>']);
    assert.deepEqual(dns.claim?.how_to_verify?.hostnames, ['crawl.acme.example', 'acme.example']);
    assert.match(dns.claim?.how_to_verify?.steps[0] ?? '', /ending in \.crawl\.acme\.example or \.acme\.example/);

    const none = verifyAt(index, crawlers, ['198.18.0.1'], 'AcmeQuiet');
    assert.equal(checked(none.results[0]).verdict, 'not-in-published-ranges');
    assert.match(none.claim?.how_to_verify?.steps[0] ?? '', /publishes no verification method/);

    assert.equal(verifyAt(index, crawlers, ['198.18.0.1'], 'NoSuchBot/1.0').claim?.how_to_verify, null);
  });

  it("a reverse-DNS crawler in its own operator's published range is operator-range", () => {
    assert.deepEqual(verdicts(['192.0.2.1'], 'AcmeDNSBot'), ['operator-range']);
  });

  it('unknown-claim: still reports where the address is', () => {
    const item = checked(verifyAt(index, crawlers, ['192.0.2.1'], 'NobodyBot/1.0').results[0]);
    assert.equal(item.verdict, 'unknown-claim');
    assert.equal(item.matches.length, 2);
  });

  it('reports each invalid item on its own line, among valid ones', () => {
    const { items } = parseAddressList('192.0.2.1, 999.1.1.1 1.2.3\nfe80::1%eth0,,text 2001:db8:1::1');
    const answer = verifyAt(index, crawlers, items, 'AcmeBot');
    assert.deepEqual(
      answer.results.map((r) => (r.valid ? r.verdict : r.code)),
      ['genuine', 'ipv4-octet', 'ipv4-parts', 'zone-id', 'empty', 'not-an-address', 'genuine'],
    );
    assert.deepEqual(answer.summary, {
      valid: 2,
      invalid: 5,
      in_published_ranges: 2,
      verdicts: {
        unverifiable: 0,
        genuine: 2,
        'operator-network': 0,
        'operator-range': 0,
        'other-operator': 0,
        'not-in-published-ranges': 0,
        'unknown-claim': 0,
      },
    });
  });

  it('checks 500 addresses in one call, and refuses the ones beyond per item', () => {
    const addresses = Array.from({ length: 502 }, (_, i) => `192.0.2.${i % 256}`);
    const answer = verifyAt(index, crawlers, addresses, 'AcmeBot');
    assert.equal(answer.received, 502);
    assert.equal(answer.checked, MAX_ADDRESSES_PER_CALL);
    assert.equal(answer.results.length, 502);
    assert.equal(answer.results.slice(0, 500).filter((r) => r.valid && r.verdict === 'genuine').length, 500);
    assert.deepEqual(
      answer.results.slice(500).map((r) => (r.valid ? 'valid' : r.code)),
      ['over-limit', 'over-limit'],
    );
  });

  it('is deterministic: same call, same answer, whatever the record order', () => {
    const addresses = ['192.0.2.130', '203.0.113.7', 'nope', '2001:db8:1::1', '10.0.0.1'];
    const a = verifyAt(index, crawlers, addresses, 'AcmeBot');
    assert.deepEqual(verifyAt(index, crawlers, addresses, 'AcmeBot'), a);
    assert.deepEqual(verifyAt(buildPrefixIndex(fixtureSources()), [...crawlers].reverse(), addresses, 'AcmeBot'), a);
    assert.equal(JSON.stringify(a), JSON.stringify(verifyAt(index, crawlers, addresses, 'AcmeBot')));
  });
});

// docs/API.md §6.4: "in none of the lists" rules a claim out only when every list it leans on has
// a current accepted copy. Otherwise the address could not be checked, and the answer says so.
describe('verifyBatch: unverifiable when a list the verdict leans on is no evidence', () => {
  const withMirror = (id: string, mirror: Partial<PrefixSource['mirror']>) =>
    buildPrefixIndex(fixtureSources().map((s) => (s.id === id ? { ...s, mirror: { ...s.mirror, ...mirror } } : s)));
  const dnsToo = crawlers.map((c) =>
    c.slug === 'acmebot'
      ? { ...c, reverse_dns_hostnames: ['crawl.acme.example'], verification: [...c.verification, entry('reverse-dns', { hostnames: ['crawl.acme.example'] })] }
      : c,
  );
  const one = (idx: PrefixIndex, address: string, claim: string, now = FIXTURE_NOW, cs: readonly CrawlerView[] = crawlers) =>
    checked(verifyAt(idx, cs, [address], claim, now).results[0]);

  it('a list never fetched: unverifiable, naming the list and the other ways to check, never an impostor', () => {
    const never = withMirror('acme-main', { ipv4: [], ipv6: [], state: 'never-fetched', confirmed_at: null });
    const answer = verifyAt(never, dnsToo, ['198.18.0.1'], 'AcmeBot');
    const item = checked(answer.results[0]);
    assert.equal(item.verdict, 'unverifiable');
    assert.equal(item.caveat, null);
    assert.match(
      item.explanation,
      /^198\.18\.0\.1 could not be checked: it is in no list this service holds, but this service has never fetched list acme-main, so being outside the lists does not show it is not AcmeBot\./,
    );
    assert.match(item.explanation, /Check it another way: forward-confirmed reverse DNS \(the address's hostname must end in \.crawl\.acme\.example/);
    assert.doesNotMatch(item.explanation, /not one of/);
    assert.equal(answer.claim?.unverifiable_because, 'this service has never fetched list acme-main');
    assert.deepEqual(answer.claim?.lists, [
      { id: 'acme-main', state: 'never-fetched', prefixes: 0, confirmed_at: null, usable: false, note: 'this service has never fetched list acme-main' },
    ]);
    assert.equal(answer.summary.verdicts?.unverifiable, 1);
    assert.equal(answer.summary.verdicts?.['not-in-published-ranges'], 0);
  });

  it('an empty copy, a missing list and a copy with no recorded time are no evidence either', () => {
    const empty = withMirror('acme-main', { ipv4: [], ipv6: [], state: 'ok' });
    assert.match(one(empty, '198.18.0.1', 'AcmeBot').explanation, /this service's copy of list acme-main is empty/);
    const missing = buildPrefixIndex(fixtureSources().filter((s) => s.id !== 'acme-main'));
    assert.match(one(missing, '198.18.0.1', 'AcmeBot').explanation, /this service holds no list acme-main/);
    const untimed = withMirror('acme-main', { confirmed_at: null });
    assert.match(one(untimed, '198.18.0.1', 'AcmeBot').explanation, /does not record when its copy of list acme-main was last fetched and accepted/);
    const failedEmpty = withMirror('acme-main', { ipv4: [], ipv6: [], state: 'failed', confirmed_at: null });
    assert.match(one(failedEmpty, '198.18.0.1', 'AcmeBot').explanation, /no accepted copy of list acme-main \(every fetch so far failed\)/);
    for (const idx of [empty, missing, untimed, failedEmpty]) assert.equal(one(idx, '198.18.0.1', 'AcmeBot').verdict, 'unverifiable');
  });

  it('a copy older than 48 hours is no evidence; one just inside the bound is', () => {
    const accepted = Date.parse('2026-01-01T00:00:00Z');
    const hour = 3600_000;
    assert.equal(one(index, '198.18.0.1', 'AcmeBot', accepted + 48 * hour).verdict, 'not-in-published-ranges');
    const late = one(index, '198.18.0.1', 'AcmeBot', accepted + 48 * hour + 1000);
    assert.equal(late.verdict, 'unverifiable');
    assert.match(late.explanation, /copy of list acme-main was last fetched and accepted at 2026-01-01T00:00:00Z, more than 48 hours ago/);
    // A copy accepted after the time asked about (another clock) is not too old.
    assert.equal(one(index, '198.18.0.1', 'AcmeBot', accepted - hour).verdict, 'not-in-published-ranges');
  });

  it('a list that failed its last refresh still counts while its last good copy is within the bound, with a caveat', () => {
    const failed = withMirror('acme-main', { state: 'failed' });
    const inside = one(failed, '198.18.0.1', 'AcmeBot');
    assert.equal(inside.verdict, 'not-in-published-ranges');
    assert.equal(
      inside.caveat,
      'List acme-main failed its last refresh; its last good copy, last fetched and accepted at 2026-01-01T00:00:00Z (within 48 hours), is used.',
    );
    assert.equal(one(failed, '198.18.0.1', 'AcmeBot', Date.parse('2026-01-05T00:00:00Z')).verdict, 'unverifiable');
  });

  it('a crawler covered by two lists, one fetched and one never: an address in neither cannot be ruled out', () => {
    const twoLists = crawlers.map((c) =>
      c.slug === 'acmebot'
        ? { ...c, ip_sources: ['acme-main', 'acme-extra'], verification: [entry('published-ranges', { sources: ['acme-main', 'acme-extra'] })] }
        : c,
    );
    const extra: PrefixSource = {
      id: 'acme-extra',
      operator: 'acme',
      crawlers: ['acmebot'],
      scope: 'crawlers',
      mirror: { ipv4: [], ipv6: [], state: 'never-fetched', confirmed_at: null },
    };
    const idx = buildPrefixIndex([...fixtureSources(), extra]);
    const outside = one(idx, '198.18.0.1', 'AcmeBot', FIXTURE_NOW, twoLists);
    assert.equal(outside.verdict, 'unverifiable');
    assert.match(outside.explanation, /it is in none of the prefixes of acme-main, but this service has never fetched list acme-extra/);
    assert.match(outside.explanation, /ACME documents no other way to check AcmeBot\.$/);
    // In the fetched list it is still genuine: a match in an accepted list is evidence.
    assert.equal(one(idx, '198.51.100.200', 'AcmeBot', FIXTURE_NOW, twoLists).verdict, 'genuine');
  });

  it('genuine never changes: a match in a stale or failed copy is still evidence', () => {
    const stale = Date.parse('2026-03-01T00:00:00Z');
    assert.equal(one(index, '198.51.100.200', 'AcmeBot', stale).verdict, 'genuine');
    assert.equal(one(withMirror('acme-main', { state: 'failed' }), '198.51.100.200', 'AcmeBot', stale).verdict, 'genuine');
  });

  it("an address in another list of the operator, or another operator's, keeps its verdict and says the claim's own list went unchecked", () => {
    const never = withMirror('acme-main', { ipv4: [], ipv6: [], state: 'never-fetched', confirmed_at: null });
    const range = one(never, '203.0.113.200', 'AcmeBot');
    assert.equal(range.verdict, 'operator-range');
    assert.match(
      range.caveat ?? '',
      /^AcmeBot's own lists could not be checked \(this service has never fetched list acme-main\): the address may be in them too\.$/,
    );
    assert.equal(one(never, '10.1.2.3', 'AcmeBot').verdict, 'other-operator');
    assert.match(one(never, '10.1.2.3', 'AcmeBot').caveat ?? '', /could not be checked/);
    assert.equal(one(index, '203.0.113.200', 'AcmeBot').caveat, null);
  });

  it('a crawler whose verdict leans on no list (reverse DNS, none) is not made unverifiable by the lists', () => {
    const stale = Date.parse('2026-03-01T00:00:00Z');
    assert.equal(one(index, '198.18.0.1', 'AcmeDNSBot', stale).verdict, 'not-in-published-ranges');
    assert.equal(one(index, '198.18.0.1', 'AcmeQuiet', stale).verdict, 'not-in-published-ranges');
    assert.deepEqual(verifyAt(index, crawlers, ['198.18.0.1'], 'AcmeDNSBot', stale).claim?.lists, []);
  });

  it('a published-ranges crawler with no list mirrored is unverifiable', () => {
    const bare = crawlers.map((c) => (c.slug === 'acmebot' ? { ...c, ip_sources: [], verification: [entry('published-ranges')] } : c));
    const item = one(index, '198.18.0.1', 'AcmeBot', FIXTURE_NOW, bare);
    assert.equal(item.verdict, 'unverifiable');
    assert.match(item.explanation, /this service mirrors no list of AcmeBot's prefixes/);
  });
});

describe('howToVerify', () => {
  it('uses a placeholder without an address', () => {
    const dns = crawlers.find((c) => c.slug === 'acme-dns')!;
    assert.deepEqual(howToVerify(dns).commands, ['host <ip>', 'host <hostname>']);
  });

  it('adds the DNS steps when a range-verified crawler also documents hostnames', () => {
    const acmebot = crawlers.find((c) => c.slug === 'acmebot')!;
    const both = { ...acmebot, verification: [...acmebot.verification, entry('reverse-dns', { hostnames: ['acme.example'] })] };
    const how = howToVerify(both, '192.0.2.1');
    assert.equal(how.method, 'published-ranges');
    assert.deepEqual(how.methods, ['published-ranges', 'reverse-dns']);
    assert.deepEqual(how.commands, ['host 192.0.2.1', 'host <hostname>']);
    assert.match(how.steps[0]!, /acme-main/);
  });

  it('names the AS numbers and the signature directory of a crawler that offers them', () => {
    const signed = fixtureCrawler('signbot', {
      verification_method: 'asn',
      verification: [
        entry('asn', { asns: [64500] }),
        entry('web-bot-auth', { directory: 'https://acme.example/.well-known/http-message-signatures-directory' }),
      ],
    });
    const how = howToVerify(signed);
    assert.deepEqual(how.asns, [64500]);
    assert.equal(how.signature_directory, 'https://acme.example/.well-known/http-message-signatures-directory');
    assert.match(how.steps.join(' '), /AS64500.*whois/);
    assert.match(how.steps.join(' '), /Signature-Input/);
  });
});

function entry(method: VerificationView['method'], fields: Partial<VerificationView> = {}): VerificationView {
  return { method, label: method, sources: [], hostnames: [], asns: [], directory: null, signature_agent: null, addresses: [], note: null, ...fields };
}

describe('verifyBatch: addresses listed on a page, and an operator network behind an asn claim', () => {
  const listed = fixtureCrawler('listbot', {
    name: 'ListBot',
    robots_token: 'ListBot',
    user_agent_substring: 'ListBot',
    verification_method: 'fixed-ips',
    verification: [entry('fixed-ips', { addresses: ['198.51.100.7', '2001:db8:7::/48'] })],
  });
  const networked = fixtureCrawler('netbot', {
    name: 'NetBot',
    robots_token: 'NetBot',
    user_agent_substring: 'NetBot',
    operator_slug: 'netco',
    verification_method: 'asn',
    verification: [entry('asn', { asns: [64500], sources: ['netco-network'] })],
  });
  const both = [listed, networked];
  const network: PrefixSource = {
    id: 'netco-network',
    operator: 'netco',
    crawlers: ['netbot'],
    scope: 'network',
    mirror: { ipv4: ['203.0.113.0/24'], ipv6: [], state: 'ok', confirmed_at: '2026-01-01T00:00:00Z' },
  };
  const idx = buildPrefixIndex([network, ...listedSources(both)]);
  const verdict = (address: string, claim: string) => checked(verifyAt(idx, both, [address], claim).results[0]);

  it('an address the operator lists for the crawler is genuine, in either family; another is not', () => {
    assert.equal(verdict('198.51.100.7', 'ListBot').verdict, 'genuine');
    assert.match(verdict('198.51.100.7', 'ListBot').explanation, /lists on its page/);
    assert.equal(verdict('2001:db8:7::1', 'ListBot').verdict, 'genuine');
    const other = verdict('198.51.100.8', 'ListBot');
    assert.equal(other.verdict, 'not-in-published-ranges');
    assert.match(other.explanation, /none of the addresses/);
  });

  it('an address from a third-party list is genuine with a caveat saying the operator is not the source', () => {
    const scanner = { ...listed, verification_source: 'third-party' as const };
    const withThirdParty = [scanner, networked];
    const third = checked(verifyAt(buildPrefixIndex([network, ...listedSources(withThirdParty)]), withThirdParty, ['198.51.100.7'], 'ListBot').results[0]);
    assert.equal(third.verdict, 'genuine');
    assert.match(third.explanation, /a third-party list gives for/);
    assert.doesNotMatch(third.explanation, /lists on its page/);
    assert.match(third.caveat ?? '', /likely ListBot, not proven/);
    assert.equal(verdict('198.51.100.7', 'ListBot').caveat, null, "the operator's own list needs no caveat");
  });

  it("an address in the operator's network fits an asn claim without proving it; outside it, the claim is false", () => {
    const inside = verdict('203.0.113.9', 'NetBot');
    assert.equal(inside.verdict, 'operator-network');
    assert.match(inside.explanation, /does not prove/);
    const outside = verdict('192.0.2.1', 'NetBot');
    assert.equal(outside.verdict, 'not-in-published-ranges');
    assert.match(outside.explanation, /outside .*own network/);
  });

  it('an asn verdict says when it rests on the last good copy of a network list whose refresh failed', () => {
    const failed = buildPrefixIndex([{ ...network, mirror: { ...network.mirror, state: 'failed' } }, ...listedSources(both)]);
    const outside = checked(verifyAt(failed, both, ['192.0.2.1'], 'NetBot').results[0]);
    assert.equal(outside.verdict, 'not-in-published-ranges');
    assert.match(
      outside.caveat ?? '',
      /^List netco-network failed its last refresh; its last good copy, last fetched and accepted at 2026-01-01T00:00:00Z \(within 48 hours\), is used\.$/,
    );
    assert.equal(verdict('192.0.2.1', 'NetBot').caveat, null);
  });

  it('an asn claim whose network list was never fetched or is too old is unverifiable, and names the AS to look up', () => {
    const never = buildPrefixIndex([{ ...network, mirror: { ipv4: [], ipv6: [], state: 'never-fetched', confirmed_at: null } }, ...listedSources(both)]);
    const outside = checked(verifyAt(never, both, ['192.0.2.1'], 'NetBot').results[0]);
    assert.equal(outside.verdict, 'unverifiable');
    assert.match(outside.explanation, /^192\.0\.2\.1 could not be checked: .*never fetched list netco-network/);
    assert.match(outside.explanation, /origin AS .*AS64500; for example whois -h whois\.radb\.net 192\.0\.2\.1/);
    const week = Date.parse('2026-01-08T00:00:00Z');
    assert.equal(checked(verifyAt(idx, both, ['192.0.2.1'], 'NetBot', week).results[0]).verdict, 'unverifiable');
    // Inside the network the claim still fits, whatever the age: a match is evidence.
    assert.equal(checked(verifyAt(idx, both, ['203.0.113.9'], 'NetBot', week).results[0]).verdict, 'operator-network');
  });

  it('a network list never makes another claim genuine', () => {
    assert.equal(verdict('203.0.113.9', 'ListBot').verdict, 'other-operator');
  });
});

const reference = referenceSources();
describe("verifyBatch: real records and the operators' reference lists", () => {
  const real = realCrawlers();
  const realIndex = buildPrefixIndex(reference);
  const firstAddressOf = (sourceId: string) => {
    const source = reference.find((s) => s.id === sourceId)!;
    return source.mirror.ipv4[0]!.split('/')[0]!;
  };

  it("GPTBot from an address in OpenAI's GPTBot list is genuine; from Googlebot's, another operator", () => {
    const gptbot = firstAddressOf('openai-gptbot');
    const googlebot = firstAddressOf('google-googlebot');
    const answer = verifyAt(
      realIndex,
      real,
      [gptbot, googlebot],
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
    );
    assert.equal(answer.claim?.crawler?.slug, 'gptbot');
    const [own, other] = answer.results.map(checked);
    assert.equal(own!.verdict, 'genuine');
    assert.equal(other!.verdict, 'other-operator');
    assert.match(other!.explanation, /published by Google/);
  });

  it('GPTBot from an address of another OpenAI list is operator-range', () => {
    const gptbotList = new Set(reference.find((s) => s.id === 'openai-gptbot')!.mirror.ipv4);
    const candidate = reference.find((s) => s.id === 'openai-chatgpt-user')!.mirror.ipv4.find((p) => !gptbotList.has(p))!;
    const item = checked(verifyAt(realIndex, real, [candidate.split('/')[0]!], 'GPTBot').results[0]);
    assert.equal(item.verdict, 'operator-range', item.explanation);
  });

  it('a reverse-DNS crawler outside every list gets the two host commands with its hostnames', () => {
    const answer = verifyAt(realIndex, real, ['198.18.0.1'], 'YandexBot');
    assert.equal(checked(answer.results[0]).verdict, 'not-in-published-ranges');
    assert.deepEqual(answer.claim?.how_to_verify?.commands, ['host <ip>', 'host <hostname>']);
    assert.ok((answer.claim?.how_to_verify?.hostnames ?? []).length > 0);
  });
});

// docs/API.md §6.2: a dual-stack log may write an IPv4 client as ::ffff:a.b.c.d or in the
// all-hex form ::ffff:xxxx:yyyy; both are the same address and get the same verdict. (The
// issue's example ::ffff:4249:4201 is 66.73.66.1, not 66.249.66.1, which is ::ffff:42f9:4201.)
const mirror = mirrorSources();
describe('verifyBatch: IPv4-mapped addresses in either text form, against the real mirror', { skip: mirror === null ? 'no mirror committed' : false }, () => {
  const realIndex = buildPrefixIndex(mirror ?? []);
  const real = realCrawlers();
  // Judged at the mirror's own newest acceptance, when its copies were current.
  const mirrorTime = Math.max(...(mirror ?? []).map((s) => Date.parse(s.mirror.confirmed_at ?? '') || 0));
  const verifyAt = (idx: PrefixIndex, cs: readonly CrawlerView[], addresses: string[], claim?: string) => verifyBatch(idx, cs, addresses, claim, mirrorTime);

  it('::ffff:66.249.66.1 and ::ffff:42f9:4201 are both 66.249.66.1, genuine Googlebot', () => {
    const forms = [
      '66.249.66.1',
      '::ffff:66.249.66.1',
      '::ffff:42f9:4201',
      '::FFFF:42F9:4201',
      '0:0:0:0:0:ffff:42f9:4201',
      '0000:0000:0000:0000:0000:ffff:42f9:4201',
    ];
    const answer = verifyAt(realIndex, real, forms, 'Googlebot');
    for (const [i, item] of answer.results.entries()) {
      const found = checked(item);
      assert.equal(found.address, '66.249.66.1', forms[i]);
      assert.equal(found.family, 'ipv4', forms[i]);
      assert.equal(found.ipv4_mapped, i > 0, forms[i]);
      assert.equal(found.verdict, 'genuine', forms[i]);
      if (i > 0) assert.match(found.note ?? '', /looked up as the IPv4 address 66\.249\.66\.1/);
    }
  });

  it('::ffff:4249:4201 is read as the address it maps, 66.73.66.1, and says so', () => {
    const found = checked(verifyAt(realIndex, real, ['::ffff:4249:4201'], 'Googlebot').results[0]);
    assert.equal(found.address, '66.73.66.1');
    assert.equal(found.ipv4_mapped, true);
    assert.equal(found.verdict, 'not-in-published-ranges');
    assert.match(found.note ?? '', /looked up as the IPv4 address 66\.73\.66\.1 it carries/);
  });

  it('a mapped loopback address is loopback in either form', () => {
    const [dotted, hex] = verifyAt(realIndex, real, ['::ffff:127.0.0.1', '::ffff:7f00:1'], 'Googlebot').results.map(checked);
    assert.equal(dotted?.range, 'loopback');
    assert.equal(hex?.range, 'loopback');
    assert.equal(hex?.address, '127.0.0.1');
  });
});
