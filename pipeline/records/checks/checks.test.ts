import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { test } from 'node:test';
import { readRecordFiles, toRecordSet } from '../load.ts';
import { checkRecords, schemaProblems } from '../check.ts';
import type { CrawlerRecord, RecordFile, RecordSet } from '../types.ts';
import { checkProductTokens, isProductToken, strictPrefix } from './product-token.ts';
import { checkReferences } from './references.ts';
import { checkUnique } from './unique.ts';
import { checkUserAgents } from './user-agents.ts';
import { checkSpecificSubstrings } from './specific-substring.ts';
import { checkOtherNames } from './other-names.ts';
import { checkLifecycle } from './lifecycle.ts';
import { checkClients } from './clients.ts';
import { checkCitations } from './citations.ts';
import { checkPeers } from './peers.ts';
import { checkDirectories } from './directories.ts';
import { checkHeaderLinks, headerLinks, sameSite } from './header-links.ts';

// Each check is proved against the frozen fixture: clean as it is, and failing once the
// data is broken on purpose in exactly the way the check exists to catch.
const FIXTURE = new URL('../../../test/fixtures/mini/', import.meta.url).pathname;
const loaded = await readRecordFiles(join(FIXTURE, 'records'), FIXTURE);
const clean = toRecordSet(loaded.files);
const copy = (): RecordSet => structuredClone(clean);
const crawler = (records: RecordSet, slug: string): CrawlerRecord => {
  const found = records.crawlers.find((c) => c.slug === slug);
  assert.ok(found);
  return found;
};

test('the fixture passes every check', () => {
  assert.deepEqual(checkRecords(loaded).ok ? [] : (checkRecords(loaded) as { problems: unknown[] }).problems, []);
});

test('unique: a second crawler with the same token in other case is reported against its file', () => {
  const records = copy();
  crawler(records, 'mj12bot').robots_token = 'gptbot';
  const problems = checkUnique(records);
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [['records/crawlers/mj12bot.yaml', '/robots_token']],
  );
  assert.match(problems[0]!.message, /already used by records\/crawlers\/gptbot\.yaml/);
});

test('unique: duplicate UA substrings are reported', () => {
  const records = copy();
  crawler(records, 'mj12bot').user_agent_substring = 'GPTBot';
  assert.equal(checkUnique(records).filter((p) => p.path === '/user_agent_substring').length, 1);
});

test('references: an unknown operator, a source naming a missing crawler, and published-ranges without a source', () => {
  const records = copy();
  crawler(records, 'mj12bot').operator = 'nobody';
  crawler(records, 'google-extended').verification = [{ method: 'published-ranges' }];
  records.sources[0]!.crawlers.push('ghost');
  const messages = checkReferences(records, loaded.files).map((p) => `${p.file} ${p.path} ${p.message}`);
  assert.ok(
    messages.some((m) => /mj12bot\.yaml \/operator operator "nobody" has no file/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /google-extended\.yaml \/verification published-ranges needs a row/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /sources\.yaml \/0\/crawlers\/1 crawler "ghost" has no file/.test(m)),
    messages.join('\n'),
  );
});

test('references: a crawler listed under an IP list must list published-ranges, and the file name must equal the slug', () => {
  const records = copy();
  crawler(records, 'gptbot').verification = [{ method: 'none' }];
  const files: RecordFile[] = loaded.files.map((f) => (f.file.endsWith('gptbot.yaml') ? { ...f, file: 'records/crawlers/gpt-bot.yaml' } : f));
  const messages = checkReferences(records, files).map((p) => p.message);
  assert.ok(messages.some((m) => /lists "gptbot" under a published IP list/.test(m)));
  assert.ok(messages.some((m) => /slug "gptbot" must equal the file name "gpt-bot"/.test(m)));
});

test('user agents: the example must contain the substring, and no browser may contain it', () => {
  const records = copy();
  crawler(records, 'gptbot').user_agent_example = 'Mozilla/5.0 (compatible; GPT-Bot/1.0)';
  crawler(records, 'mj12bot').user_agent_substring = 'Safari/537.36';
  crawler(records, 'mj12bot').user_agent_example = 'Mozilla/5.0 Safari/537.36 MJ12bot';
  const problems = checkUserAgents(records);
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [
      ['records/crawlers/gptbot.yaml', '/user_agent_example'],
      ['records/crawlers/mj12bot.yaml', '/user_agent_substring'],
    ],
  );
  assert.match(problems[1]!.message, /occurs in a browser user agent/);
});

test('user agents: a substring found only inside a longer word is refused', () => {
  const records = copy();
  crawler(records, 'gptbot').user_agent_example = 'Mozilla/5.0 (compatible; XGPTBot/1.0)';
  const problems = checkUserAgents(records);
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [['records/crawlers/gptbot.yaml', '/user_agent_substring']],
  );
  assert.match(problems[0]!.message, /only inside a longer word/);
});

test('product tokens (RFC 9309 2.2.1): digits make a token non-strict, and such a record must carry a note', () => {
  assert.equal(isProductToken('Googlebot-Image'), true);
  assert.equal(isProductToken('AI2Bot'), false);
  assert.equal(isProductToken('Screaming Frog'), false);
  assert.equal(strictPrefix('AI2Bot'), 'AI');
  assert.equal(strictPrefix('MJ12bot'), 'MJ');
  const records = copy();
  delete crawler(records, 'mj12bot').robots_token_note;
  const problems = checkProductTokens(records);
  assert.equal(problems.length, 1);
  assert.match(problems[0]!.message, /"MJ12bot" is not an RFC 9309 product token \(strict parsers read "MJ"\)/);
});

test('schema: every error of a file is reported with its JSON path, not just the first', () => {
  const bad: RecordFile = {
    file: 'records/crawlers/x.yaml',
    schema: 'crawler',
    data: { slug: 'X Y', name: '', category: 'robots', extra: 1, respects_robots_txt: 'disputed' },
  };
  const problems = schemaProblems([bad]);
  const paths = problems.map((p) => `${p.path} ${p.message}`);
  assert.ok(
    paths.some((p) => p.startsWith('/slug ')),
    paths.join('\n'),
  );
  assert.ok(
    paths.some((p) => p.startsWith('/name ')),
    paths.join('\n'),
  );
  assert.ok(
    paths.some((p) => /^\/category must be equal to one of the allowed values: ai-training/.test(p)),
    paths.join('\n'),
  );
  assert.ok(
    paths.some((p) => /unknown field "extra"/.test(p)),
    paths.join('\n'),
  );
  assert.ok(
    paths.some((p) => /robots_txt_evidence/.test(p)),
    'disputed needs evidence',
  );
  assert.ok(problems.every((p) => p.file === 'records/crawlers/x.yaml'));
});

test('variants: each is held to the rules of a substring, at its own path, and needs the crawler to have a substring', () => {
  const records = copy();
  const googlebot = crawler(records, 'googlebot');
  const variant = googlebot.variants![0]!;
  const citation = variant.citation;
  googlebot.variants!.push(
    // Not in its example; in a browser's header; another crawler's substring; a generic word.
    { user_agent_substring: 'Googlebot-Video/', user_agent_example: 'Googlebot-Image/1.0', citation },
    { user_agent_substring: 'Chrome/', user_agent_example: 'Mozilla/5.0 Chrome/120.0 Safari/537.36', citation },
    { user_agent_substring: 'GPTBot', user_agent_example: 'GPTBot/1.0', citation },
    { user_agent_substring: 'Spider', user_agent_example: 'Spider/1.0', citation },
  );
  crawler(records, 'gptbot').user_agent_substring = null;
  crawler(records, 'gptbot').user_agent_note = 'Sends a browser header only, in this test.';
  crawler(records, 'gptbot').variants = [{ ...variant, user_agent_substring: 'GPTBot', user_agent_example: 'GPTBot/1.0' }];
  const at = (problems: readonly { file: string; path: string }[]) => problems.map((p) => `${p.file} ${p.path}`);
  assert.deepEqual(at(checkUserAgents(records)), [
    'records/crawlers/googlebot.yaml /variants/1/user_agent_example',
    'records/crawlers/googlebot.yaml /variants/2/user_agent_substring',
    'records/crawlers/gptbot.yaml /variants',
  ]);
  assert.deepEqual(at(checkUnique(records)), ['records/crawlers/gptbot.yaml /variants/0/user_agent_substring']);
  assert.deepEqual(at(checkSpecificSubstrings(records)), [
    'records/crawlers/googlebot.yaml /variants/2/user_agent_substring',
    'records/crawlers/googlebot.yaml /variants/4/user_agent_substring',
  ]);
  // The fixture's own variant passes every check.
  assert.deepEqual(at(checkUserAgents(clean)), []);
});

test('full forms: each must hold the substring, and the example must have one of them', () => {
  const records = copy();
  crawler(records, 'gptbot').user_agent_full_forms = ['GPTBot/{version} {letter}', 'OpenAIBot/{version}'];
  const problems = checkUserAgents(records);
  assert.deepEqual(
    problems.map((p) => `${p.path}: ${p.message.slice(0, 40)}`),
    ['/user_agent_full_forms/1: does not contain user_agent_substring "G', '/user_agent_example: has none of the user_agent_full_forms, s'],
  );
  crawler(records, 'gptbot').user_agent_full_forms = [
    'Mozilla/5.0 AppleWebKit/{version} (KHTML, like Gecko); compatible; GPTBot/{version}; +https://openai.com/gptbot',
  ];
  assert.deepEqual(checkUserAgents(records), []);
});

test('specific substrings: generic words and very short strings are refused, whatever their case', () => {
  const records = copy();
  crawler(records, 'gptbot').user_agent_substring = 'Bot';
  crawler(records, 'mj12bot').user_agent_substring = 'Spider/';
  crawler(records, 'perplexitybot').user_agent_substring = 'LCC';
  const problems = checkSpecificSubstrings(records);
  assert.deepEqual(problems.map((p) => p.file).sort(), [
    'records/crawlers/gptbot.yaml',
    'records/crawlers/mj12bot.yaml',
    'records/crawlers/perplexitybot.yaml',
  ]);
  assert.deepEqual(checkSpecificSubstrings(clean), []);
});

test("honoured tokens: a record's own token, or a token two crawlers honour, is reported", () => {
  const records = copy();
  const citation = { url: 'https://example.com/statement', publisher: 'Example News', kind: 'third-party' as const, retrieved: '2026-11-25' };
  crawler(records, 'gptbot').honoured_tokens = [
    { token: 'MJ12bot', note: 'A token that another record already uses as its own.', citation },
    { token: 'old-gptbot', note: 'A retired name that the operator says it still obeys.', citation },
  ];
  crawler(records, 'mj12bot').honoured_tokens = [{ token: 'OLD-GPTBOT', note: 'The same retired name, claimed by a second crawler.', citation }];
  const problems = checkOtherNames(records);
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [
      ['records/crawlers/gptbot.yaml', '/honoured_tokens/0/token'],
      ['records/crawlers/mj12bot.yaml', '/honoured_tokens/0/token'],
    ],
  );
  assert.match(problems[0]!.message, /robots\.txt token of records\/crawlers\/mj12bot\.yaml/);
  assert.match(problems[1]!.message, /already claimed by records\/crawlers\/gptbot\.yaml/);
  assert.deepEqual(checkOtherNames(clean), []);
});

test("aliases: a record's own token, or a name another record honours or aliases, is reported", () => {
  const records = copy();
  const citation = { url: 'https://example.com/statement', publisher: 'Example News', kind: 'third-party' as const, retrieved: '2026-11-25' };
  crawler(records, 'gptbot').aliases = [
    { name: 'PerplexityBot', note: 'A name that another record uses as its token.' },
    { name: 'GPTBot/1.3', note: 'The token with a version, as some sites write it.' },
  ];
  crawler(records, 'mj12bot').honoured_tokens = [{ token: 'gptbot/1.3', note: 'The same name, claimed as an honoured token.', citation }];
  const problems = checkOtherNames(records);
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [
      ['records/crawlers/gptbot.yaml', '/aliases/0/name'],
      ['records/crawlers/mj12bot.yaml', '/honoured_tokens/0/token'],
    ],
  );
});

test('lifecycle: a successor that is no record, or is retired itself, is reported', () => {
  const records = copy();
  const citation = { url: 'https://example.com/retired', publisher: 'Example', kind: 'operator' as const, retrieved: '2026-11-25' };
  const retire = (slug: string, successor: string) =>
    Object.assign(crawler(records, slug), {
      status: 'retired',
      retired_since: '2022-05-01',
      successor,
      retirement_note: 'The operator shut this crawler down.',
      retirement_citation: citation,
    });
  retire('mj12bot', 'no-such-crawler');
  retire('gptbot', 'mj12bot');
  const problems = checkLifecycle(records);
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [
      ['records/crawlers/gptbot.yaml', '/successor'],
      ['records/crawlers/mj12bot.yaml', '/successor'],
    ],
  );
  assert.match(problems[0]!.message, /retired too/);
  assert.match(problems[1]!.message, /"no-such-crawler", which is no crawler record/);
  assert.deepEqual(checkLifecycle(clean), []);
});

test('schema: a retired record must say since when, why and on whose word; an active one may not', () => {
  const file = (data: Record<string, unknown>): RecordFile => ({ file: 'records/crawlers/x.yaml', schema: 'crawler', data });
  const base = structuredClone(crawler(clean, 'mj12bot')) as unknown as Record<string, unknown>;
  assert.ok(schemaProblems([file({ ...base, status: 'retired' })]).some((p) => /retired_since|retirement_note|retirement_citation/.test(p.message)));
  assert.ok(schemaProblems([file({ ...base, retired_since: '2022-05-01' })]).length > 0);
});

test('clients: an example without its substring, a repeated id or substring, or a header a crawler would claim, is reported', () => {
  const records = copy();
  const [first] = records.clients;
  assert.ok(first);
  records.clients.push(
    { ...first, user_agent_example: 'Something/1.0 with no substring' },
    { ...first, id: 'shadowed', user_agent_substring: 'Shadow/', user_agent_example: 'Shadow/1.0 (compatible; GPTBot/1.3)' },
  );
  const problems = checkClients(records);
  assert.deepEqual(
    problems.map((p) => p.path),
    [
      `/${records.clients.length - 2}/id`,
      `/${records.clients.length - 2}/user_agent_substring`,
      `/${records.clients.length - 2}/user_agent_example`,
      `/${records.clients.length - 1}/user_agent_example`,
    ],
  );
  assert.match(problems[3]!.message, /records\/crawlers\/gptbot\.yaml/);
  assert.deepEqual(checkClients(clean), []);
});

test('peers: a peer name nothing places or excludes, and an exclusion of a placed name, are reported against excluded.yaml', () => {
  const records = copy();
  records.peers.names.push('NewBot');
  records.excluded.push({ name: 'PerplexityBot', reason: 'no-evidence', note: 'Excluded by mistake in this test.' });
  const messages = checkPeers(records).map((p) => `${p.file} ${p.message}`);
  assert.ok(
    messages.some((m) => /^records\/excluded\.yaml "NewBot" is in the peers' AI list but no record places it/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /"PerplexityBot" is excluded, but a crawler record places it/.test(m)),
    messages.join('\n'),
  );
  assert.deepEqual(checkPeers(clean), []);
});

test('citations: a cited field no source supports, none beside another method, and a repeated method are reported', () => {
  const records = copy();
  const gptbot = crawler(records, 'gptbot');
  gptbot.citations = gptbot.citations.map((c) => ({ ...c, supports: c.supports.filter((f) => f !== 'respects_robots_txt') }));
  gptbot.verification = [{ method: 'published-ranges' }, { method: 'none' }, { method: 'published-ranges' }];
  const problems = checkCitations(records).filter((p) => p.file.endsWith('gptbot.yaml'));
  assert.deepEqual(
    problems.map((p) => p.path),
    ['/citations', '/verification', '/verification'],
  );
  assert.match(problems[0]!.message, /no citation supports respects_robots_txt/);
  assert.match(problems[1]!.message, /none cannot stand beside published-ranges/);
  assert.match(problems[2]!.message, /published-ranges appears twice/);
  assert.deepEqual(checkCitations(clean), []);
});

test('citations: silence needs no source (undocumented stance, no verification method)', () => {
  const records = copy();
  const mj12bot = crawler(records, 'mj12bot');
  mj12bot.respects_robots_txt = 'undocumented';
  mj12bot.verification = [{ method: 'none' }];
  mj12bot.citations = mj12bot.citations.map((c) => ({ ...c, supports: c.supports.filter((f) => f !== 'respects_robots_txt' && f !== 'verification') }));
  assert.deepEqual(
    checkCitations(records).filter((p) => p.file.endsWith('mj12bot.yaml')),
    [],
  );
});

test('references: an asn entry must name a network list of sources.yaml that lists the crawler', () => {
  const records = copy();
  crawler(records, 'mj12bot').verification = [{ method: 'asn', asns: [64500], source: 'nowhere' }];
  crawler(records, 'perplexitybot').verification = [{ method: 'published-ranges' }, { method: 'asn', asns: [64501], source: 'majestic-network' }];
  records.sources.push({
    id: 'majestic-network',
    operator: 'majestic',
    title: 'Majestic network (test)',
    url: 'https://example.com/routes.csv',
    format: 'csv',
    families: ['ipv4'],
    scope: 'network',
    crawlers: ['mj12bot'],
  });
  const messages = checkReferences(records, loaded.files).map((p) => `${p.file} ${p.path} ${p.message}`);
  assert.ok(
    messages.some((m) => /mj12bot\.yaml \/verification\/0\/source names "nowhere", which is no row/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /perplexitybot\.yaml \/verification\/1\/source the row "majestic-network" .* must list "perplexitybot"/.test(m)),
    messages.join('\n'),
  );
});

test('directories: a web-bot-auth directory needs its sources.yaml row, and a row needs records that name its URL', () => {
  const DIRECTORY = 'https://agent.example/.well-known/http-message-signatures-directory';
  const records = copy();
  crawler(records, 'gptbot').verification.push({ method: 'web-bot-auth', directory: DIRECTORY });
  assert.deepEqual(
    checkDirectories(records).map((p) => [p.file, p.path]),
    [['records/crawlers/gptbot.yaml', '/verification/1/directory']],
  );
  records.directories.push({ id: 'openai-agent', kind: 'signature-directory', operator: 'openai', title: 'Test keys', url: DIRECTORY, crawlers: ['gptbot'] });
  assert.deepEqual(checkDirectories(records), []);
  // A row listing a crawler whose record names another directory, and one of another operator.
  records.directories.push({
    id: 'openai-other',
    kind: 'signature-directory',
    operator: 'openai',
    title: 'Other keys',
    url: 'https://other.example/.well-known/http-message-signatures-directory',
    crawlers: ['gptbot', 'mj12bot'],
  });
  assert.deepEqual(
    checkDirectories(records).map((p) => [p.file, p.message.slice(0, 40)]),
    [
      ['records/crawlers/gptbot.yaml', 'records/sources.yaml mirrors https://oth'],
      ['records/sources.yaml', 'crawler "mj12bot" belongs to operator "m'],
      ['records/crawlers/mj12bot.yaml', 'records/sources.yaml mirrors https://oth'],
    ],
  );
  // Ids are one namespace with the prefix lists.
  records.directories.push({ ...records.directories[0]!, id: records.sources[0]!.id });
  assert.ok(checkUnique(records).some((p) => p.message.includes(`source id "${records.sources[0]!.id}" is already used`)));
});

test('user agents: an example with a placeholder or a masked part is not a header; null needs user_agent_note', () => {
  const records = copy();
  crawler(records, 'gptbot').user_agent_example = 'Mozilla/5.0 (compatible; GPTBot/{version}; +https://openai.com/gptbot)';
  crawler(records, 'mj12bot').user_agent_example = 'Mozilla/5.0 (compatible; MJ12bot/v1.4.8; ref:xxxxxxxx)';
  const messages = checkUserAgents(records).map((p) => `${p.file} ${p.path} ${p.message}`);
  assert.ok(
    messages.some((m) => /gptbot\.yaml \/user_agent_example holds "\{version\}"/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => /mj12bot\.yaml \/user_agent_example holds "xxxxxxxx"/.test(m)),
    messages.join('\n'),
  );
  // A pattern the operator documents is not given as an example: null is, with a reason.
  const nulled = copy();
  const record = crawler(nulled, 'gptbot');
  record.user_agent_example = null;
  const file = (name: string) => ({
    ...loaded.files.find((f) => f.file.endsWith('/gptbot.yaml'))!,
    data: { ...record, ...(name ? { user_agent_note: name } : {}) },
  });
  assert.ok(schemaProblems([file('')]).length > 0, 'null without a note is refused');
  assert.deepEqual(schemaProblems([file('The operator documents only a pattern for this header, never a real one.')]), []);
});

test('header links: a linked page must be cited, be the operator home page, or be named in header_links_note', () => {
  const records = copy();
  assert.deepEqual(checkHeaderLinks(records), [], 'the fixture cites what its headers link');
  const gptbot = crawler(records, 'gptbot');
  gptbot.user_agent_example = 'Mozilla/5.0 (compatible; GPTBot/1.3; +https://bots.example.net/gptbot; https://openai.com/)';
  gptbot.citations = gptbot.citations.filter((c) => !c.url.includes('openai.com'));
  const problems = checkHeaderLinks(records);
  // openai.com/ is the operator's home page: a bare link to it needs no citation.
  assert.deepEqual(
    problems.map((p) => [p.file, p.path]),
    [['records/crawlers/gptbot.yaml', '/citations']],
  );
  assert.match(problems[0]!.message, /links https:\/\/bots\.example\.net\/gptbot, which no citation covers.*name bots\.example\.net in header_links_note/);
  gptbot.header_links_note = 'The header links bots.example.net/gptbot, a page that no longer exists.';
  assert.deepEqual(checkHeaderLinks(records), []);
  // A citation on a subdomain of the linked host (or the other way round) covers it.
  delete gptbot.header_links_note;
  gptbot.citations.push({
    url: 'https://docs.bots.example.net/crawler',
    publisher: 'Example',
    kind: 'operator',
    retrieved: '2026-11-28',
    supports: ['what_it_is'],
  });
  assert.deepEqual(checkHeaderLinks(records), []);
});

test('header links: the link ends where the header punctuation starts, and www. is the same host', () => {
  const links = headerLinks({
    ...crawler(copy(), 'gptbot'),
    user_agent_example: 'Bot/1.0 (+http://www.Example.com/bot.html; info@example.com) www.other.org/x, https://third.net.',
  });
  assert.deepEqual(
    links.map((l) => [l.link, l.host, l.bare]),
    [
      ['http://www.Example.com/bot.html', 'example.com', false],
      ['www.other.org/x', 'other.org', false],
      ['https://third.net', 'third.net', true],
    ],
  );
  assert.equal(sameSite('help.example.com', 'example.com'), true);
  assert.equal(sameSite('notexample.com', 'example.com'), false);
});
