import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { answeredLogEntry as entry } from '../../test/support/log-entry.ts';
import type { AnsweredEntry } from '../log/types.ts';
import { inputIssue, UA_LIMIT_BYTES } from '../tools/classify/heuristic.ts';
import { logRing, ringReader, ringWriter } from './log-ring.ts';

const drained = (reader: ReturnType<typeof ringReader>) => {
  const out: AnsweredEntry[] = [];
  reader.drain((e) => out.push(e));
  return out;
};

test('an entry comes out as it went in: numbers, nulls, and text in any script', () => {
  const ring = logRing(64 * 1024);
  const writer = ringWriter(ring);
  const reader = ringReader(ring);
  const full = entry({
    at: 1_764_072_000_123,
    duration_ms: 0.125,
    bytes: 4_194_304,
    status: 499,
    address: '2001:db8::1',
    user_agent: 'Mozilla/5.0 (compatible; 百度蜘蛛 🕷️; +http://example.com/bot)',
  });
  const empty = entry({ address: null, address_hash: null, user_agent: null });
  assert.ok(writer.write(full));
  assert.ok(writer.write(empty));
  assert.deepEqual(drained(reader), [full, empty]);
  assert.deepEqual(drained(reader), []);
});

test('each field keeps its own most bytes: a User-Agent the classifier reads whole comes out whole, a longer one still too long, a longer route cut at a character', () => {
  const ring = logRing(64 * 1024);
  const writer = ringWriter(ring);
  const reader = ringReader(ring);
  // Characters of 3 UTF-8 bytes, up to the classifier's limit: booking on the log's thread reads what the server got.
  const longest = '百'.repeat(Math.floor(UA_LIMIT_BYTES / 3));
  const tooLong = 'Mozilla/5.0 '.padEnd(UA_LIMIT_BYTES + 500, 'x');
  assert.ok(writer.write(entry({ route: 'é'.repeat(300), user_agent: longest })));
  assert.ok(writer.write(entry({ user_agent: tooLong })));
  const [first, second] = drained(reader);
  assert.equal(first?.user_agent, longest);
  assert.equal(first?.route, 'é'.repeat(128), 'the route is cut to 256 bytes, between two characters');
  assert.ok(second?.user_agent !== null && second?.user_agent !== undefined && tooLong.startsWith(second.user_agent));
  assert.equal(inputIssue(second.user_agent), 'too-long', 'cut, it is still past what the classifier reads, as the whole was');
});

test('the ring wraps round for as long as it is read, and a full one refuses instead of overwriting', () => {
  const ring = logRing(64 * 1024);
  const writer = ringWriter(ring);
  const reader = ringReader(ring);
  const out: AnsweredEntry[] = [];
  let next = 0;
  // Many laps, read unevenly: every entry comes out once, in order.
  for (let round = 0; round < 500; round++) {
    for (let i = 0; i < (round % 7) + 1; i++) assert.ok(writer.write(entry({ at: next++, user_agent: 'x'.repeat(round % 256) })));
    reader.drain((e) => out.push(e));
  }
  assert.deepEqual(
    out.map((e) => e.at),
    Array.from({ length: next }, (_, i) => i),
  );
  // Unread, it fills, then refuses; once read, it takes entries again.
  let written = 0;
  // Each User-Agent differs from the one before, so that every entry is written whole.
  while (writer.write(entry({ at: written, user_agent: String(written).padStart(256, 'y') }))) written++;
  // Each takes about 330 bytes; the writer keeps the room of its longest record free at the end.
  assert.ok(written > 100 && written < 200, `${written} entries of about 330 bytes in 64 KiB`);
  assert.equal(drained(reader).length, written);
  assert.ok(writer.write(entry()));
});

test('fields repeated from the entry before come out as they went in, also after a refused entry and across wraps', () => {
  const ring = logRing(64 * 1024);
  const writer = ringWriter(ring);
  const reader = ringReader(ring);
  const values = {
    route: ['/crawler/{slug}.json', '/'],
    address: ['192.0.2.1', '2001:db8::1', null],
    address_hash: ['a'.repeat(32), 'b'.repeat(32), null],
    user_agent: ['GPTBot/1.2', 'curl/8.5.0', null, 'x'.repeat(900), 'x'.repeat(UA_LIMIT_BYTES + 100)],
  };
  const written: AnsweredEntry[] = [];
  const read: AnsweredEntry[] = [];
  let seed = 7;
  const pick = <T>(items: readonly T[]): T => items[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % items.length]!;
  for (let n = 0; n < 5_000; n++) {
    // Long User-Agents are cut in the ring; what is compared is what the ring gives back.
    const next = entry({
      at: n,
      route: pick(values.route),
      address: pick(values.address),
      address_hash: pick(values.address_hash),
      user_agent: pick(values.user_agent),
    });
    if (writer.write(next)) written.push(next);
    if (n % 300 === 0) reader.drain((e) => read.push(e));
  }
  reader.drain((e) => read.push(e));
  assert.ok(written.length < 5_000, 'some entries were refused by a full ring');
  assert.deepEqual(
    read.map((e) => [e.at, e.route, e.address, e.address_hash, e.user_agent?.slice(0, UA_LIMIT_BYTES + 4)]),
    written.map((e) => [e.at, e.route, e.address, e.address_hash, e.user_agent?.slice(0, UA_LIMIT_BYTES + 4)]),
  );
});
