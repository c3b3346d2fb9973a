import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildPrefixIndex } from './prefix-index.ts';
import { MAX_ADDRESSES_PER_CALL, resolveClaim, verifyBatch, type BatchItem, type CheckedAddress } from './verify-batch.ts';
import { parseAddressList } from '../../net/address-list.ts';
import { howToVerify } from './how-to-verify.ts';
import { listedSources, type PrefixSource } from './sources.ts';
import type { VerificationView } from '../../model/model.ts';
import { fixtureCrawlers, fixtureSources, mirrorSources, referenceSources } from '../../../test/support/verify-data.ts';
import { fixtureCrawler, realCrawlers } from '../../../test/support/classify-data.ts';

const crawlers = fixtureCrawlers();
const index = buildPrefixIndex(fixtureSources());

function checked(item: BatchItem | undefined): CheckedAddress {
  assert.ok(item?.valid, item && !item.valid ? `${item.input}: ${item.error}` : 'missing item');
  return item;
}

function verdicts(addresses: string[], claim?: string): (string | null)[] {
  return verifyBatch(index, crawlers, addresses, claim).results.map((r) => (r.valid ? r.verdict : `invalid:${r.code}`));
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
    const answer = verifyBatch(index, crawlers, ['192.0.2.130', '198.18.0.1']);
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
    const item = checked(verifyBatch(index, crawlers, ['192.0.2.130'], 'AcmeBot').results[0]);
    assert.match(item.explanation, /192\.0\.2\.0\/24, which ACME publishes for AcmeBot \(list acme-main\)/);
  });

  it("operator-range: the operator's address, but a list of another of its crawlers", () => {
    assert.deepEqual(verdicts(['203.0.113.7', '203.0.113.200'], 'AcmeBot/1.0'), ['operator-range', 'operator-range']);
    const item = checked(verifyBatch(index, crawlers, ['203.0.113.7'], 'AcmeBot').results[0]);
    assert.match(item.explanation, /list acme-user, published for Acme-User/);
  });

  it('other-operator: names the operator whose range it is', () => {
    assert.deepEqual(verdicts(['10.1.2.3', '2001:db8:ffff::1'], 'AcmeBot'), ['other-operator', 'other-operator']);
    const item = checked(verifyBatch(index, crawlers, ['10.1.2.3'], 'AcmeBot').results[0]);
    assert.match(item.explanation, /published by OTHER, not by ACME/);
  });

  it('not-in-published-ranges: the claim says, once per call, how the crawler can be checked instead', () => {
    const ranges = verifyBatch(index, crawlers, ['198.18.0.1', '198.18.0.2'], 'AcmeBot');
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

    const dns = verifyBatch(index, crawlers, ['198.18.0.1'], 'AcmeDNSBot');
    assert.equal(checked(dns.results[0]).verdict, 'not-in-published-ranges');
    assert.match(checked(dns.results[0]).explanation, /see claim\.how_to_verify/);
    assert.deepEqual(dns.claim?.how_to_verify?.commands, ['host <ip>', 'host <hostname>']);
    assert.deepEqual(dns.claim?.how_to_verify?.hostnames, ['crawl.acme.example', 'acme.example']);
    assert.match(dns.claim?.how_to_verify?.steps[0] ?? '', /ending in \.crawl\.acme\.example or \.acme\.example/);

    const none = verifyBatch(index, crawlers, ['198.18.0.1'], 'AcmeQuiet');
    assert.equal(checked(none.results[0]).verdict, 'not-in-published-ranges');
    assert.match(none.claim?.how_to_verify?.steps[0] ?? '', /publishes no verification method/);

    assert.equal(verifyBatch(index, crawlers, ['198.18.0.1'], 'NoSuchBot/1.0').claim?.how_to_verify, null);
  });

  it("a reverse-DNS crawler in its own operator's published range is operator-range", () => {
    assert.deepEqual(verdicts(['192.0.2.1'], 'AcmeDNSBot'), ['operator-range']);
  });

  it('unknown-claim: still reports where the address is', () => {
    const item = checked(verifyBatch(index, crawlers, ['192.0.2.1'], 'NobodyBot/1.0').results[0]);
    assert.equal(item.verdict, 'unknown-claim');
    assert.equal(item.matches.length, 2);
  });

  it("warns when the claimed crawler's list is missing or stale", () => {
    const stale = buildPrefixIndex(
      fixtureSources().map((s) => (s.id === 'acme-main' ? { ...s, mirror: { ...s.mirror, state: 'failed', last_success: '2026-01-01T00:00:00Z' } } : s)),
    );
    const item = checked(verifyBatch(stale, crawlers, ['198.18.0.1'], 'AcmeBot').results[0]);
    assert.match(item.caveat ?? '', /acme-main failed its last refresh \(the last good copy from 2026-01-01T00:00:00Z was used\)/);
    const empty = buildPrefixIndex(fixtureSources().filter((s) => s.id !== 'acme-main'));
    assert.match(checked(verifyBatch(empty, crawlers, ['198.18.0.1'], 'AcmeBot').results[0]).caveat ?? '', /holds no copy of list acme-main/);
  });

  it('reports each invalid item on its own line, among valid ones', () => {
    const { items } = parseAddressList('192.0.2.1, 999.1.1.1 1.2.3\nfe80::1%eth0,,text 2001:db8:1::1');
    const answer = verifyBatch(index, crawlers, items, 'AcmeBot');
    assert.deepEqual(
      answer.results.map((r) => (r.valid ? r.verdict : r.code)),
      ['genuine', 'ipv4-octet', 'ipv4-parts', 'zone-id', 'empty', 'not-an-address', 'genuine'],
    );
    assert.deepEqual(answer.summary, {
      valid: 2,
      invalid: 5,
      in_published_ranges: 2,
      verdicts: { genuine: 2, 'operator-network': 0, 'operator-range': 0, 'other-operator': 0, 'not-in-published-ranges': 0, 'unknown-claim': 0 },
    });
  });

  it('checks 500 addresses in one call, and refuses the ones beyond per item', () => {
    const addresses = Array.from({ length: 502 }, (_, i) => `192.0.2.${i % 256}`);
    const answer = verifyBatch(index, crawlers, addresses, 'AcmeBot');
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
    const a = verifyBatch(index, crawlers, addresses, 'AcmeBot');
    assert.deepEqual(verifyBatch(index, crawlers, addresses, 'AcmeBot'), a);
    assert.deepEqual(verifyBatch(buildPrefixIndex(fixtureSources()), [...crawlers].reverse(), addresses, 'AcmeBot'), a);
    assert.equal(JSON.stringify(a), JSON.stringify(verifyBatch(index, crawlers, addresses, 'AcmeBot')));
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
    mirror: { ipv4: ['203.0.113.0/24'], ipv6: [], state: 'ok' },
  };
  const idx = buildPrefixIndex([network, ...listedSources(both)]);
  const verdict = (address: string, claim: string) => checked(verifyBatch(idx, both, [address], claim).results[0]);

  it('an address the operator lists for the crawler is genuine, in either family; another is not', () => {
    assert.equal(verdict('198.51.100.7', 'ListBot').verdict, 'genuine');
    assert.match(verdict('198.51.100.7', 'ListBot').explanation, /lists on its page/);
    assert.equal(verdict('2001:db8:7::1', 'ListBot').verdict, 'genuine');
    const other = verdict('198.51.100.8', 'ListBot');
    assert.equal(other.verdict, 'not-in-published-ranges');
    assert.match(other.explanation, /none of the addresses/);
  });

  it("an address in the operator's network fits an asn claim without proving it; outside it, the claim is false", () => {
    const inside = verdict('203.0.113.9', 'NetBot');
    assert.equal(inside.verdict, 'operator-network');
    assert.match(inside.explanation, /does not prove/);
    const outside = verdict('192.0.2.1', 'NetBot');
    assert.equal(outside.verdict, 'not-in-published-ranges');
    assert.match(outside.explanation, /outside .*own network/);
  });

  it('an asn verdict says when our copy of the network list failed its refresh', () => {
    const stale = buildPrefixIndex([{ ...network, mirror: { ...network.mirror, state: 'failed' } }, ...listedSources(both)]);
    const outside = checked(verifyBatch(stale, both, ['192.0.2.1'], 'NetBot').results[0]);
    assert.match(outside.caveat ?? '', /The verdict may be wrong: list netco-network failed its last refresh/);
    assert.equal(verdict('192.0.2.1', 'NetBot').caveat, null);
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
    const answer = verifyBatch(
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
    const item = checked(verifyBatch(realIndex, real, [candidate.split('/')[0]!], 'GPTBot').results[0]);
    assert.equal(item.verdict, 'operator-range', item.explanation);
  });

  it('a reverse-DNS crawler outside every list gets the two host commands with its hostnames', () => {
    const answer = verifyBatch(realIndex, real, ['198.18.0.1'], 'YandexBot');
    assert.equal(checked(answer.results[0]).verdict, 'not-in-published-ranges');
    assert.deepEqual(answer.claim?.how_to_verify?.commands, ['host <ip>', 'host <hostname>']);
    assert.ok((answer.claim?.how_to_verify?.hostnames ?? []).length > 0);
  });
});

// Issue 8, item 13: a dual-stack log may write an IPv4 client as ::ffff:a.b.c.d or in the
// all-hex form ::ffff:xxxx:yyyy; both are the same address and get the same verdict. (The
// issue's example ::ffff:4249:4201 is 66.73.66.1, not 66.249.66.1, which is ::ffff:42f9:4201.)
const mirror = mirrorSources();
describe('verifyBatch: IPv4-mapped addresses in either text form, against the real mirror', { skip: mirror === null ? 'no mirror committed' : false }, () => {
  const realIndex = buildPrefixIndex(mirror ?? []);
  const real = realCrawlers();

  it('::ffff:66.249.66.1 and ::ffff:42f9:4201 are both 66.249.66.1, genuine Googlebot', () => {
    const forms = [
      '66.249.66.1',
      '::ffff:66.249.66.1',
      '::ffff:42f9:4201',
      '::FFFF:42F9:4201',
      '0:0:0:0:0:ffff:42f9:4201',
      '0000:0000:0000:0000:0000:ffff:42f9:4201',
    ];
    const answer = verifyBatch(realIndex, real, forms, 'Googlebot');
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
    const found = checked(verifyBatch(realIndex, real, ['::ffff:4249:4201'], 'Googlebot').results[0]);
    assert.equal(found.address, '66.73.66.1');
    assert.equal(found.ipv4_mapped, true);
    assert.equal(found.verdict, 'not-in-published-ranges');
    assert.match(found.note ?? '', /looked up as the IPv4 address 66\.73\.66\.1 it carries/);
  });

  it('a mapped loopback address is loopback in either form', () => {
    const [dotted, hex] = verifyBatch(realIndex, real, ['::ffff:127.0.0.1', '::ffff:7f00:1'], 'Googlebot').results.map(checked);
    assert.equal(dotted?.range, 'loopback');
    assert.equal(hex?.range, 'loopback');
    assert.equal(hex?.address, '127.0.0.1');
  });
});
