import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { clientKey, ConnectionTable } from './admission.ts';

/** A table of named connections; `busy` holds the names with a request in progress. */
function table(total: number, perAddress: number, busy = new Set<string>()) {
  return new ConnectionTable<string>({ total, perAddress }, (name) => busy.has(name));
}

/** Fills the table: `count` connections from `address`, named address#i. */
function fill(connections: ConnectionTable<string>, address: string, count: number): void {
  for (let i = 0; i < count; i++) assert.deepEqual(connections.admit(address, `${address}#${i}`), { admit: true, evict: null });
}

test('under both caps every connection is admitted and nothing is closed', () => {
  const connections = table(10, 4);
  fill(connections, 'a', 4);
  fill(connections, 'b', 4);
  assert.equal(connections.size, 8);
});

test('at the total cap, a newcomer takes the place of the oldest idle connection of the address holding the most', () => {
  const connections = table(6, 4);
  fill(connections, 'a', 2);
  fill(connections, 'b', 4);
  assert.deepEqual(connections.admit('c', 'c#0'), { admit: true, evict: 'b#0' });
  assert.deepEqual(connections.admit('c', 'c#1'), { admit: true, evict: 'b#1' });
  // b and a now hold 2 each, as c does: no address is pushed below another's share.
  assert.deepEqual(connections.admit('c', 'c#2'), { admit: false });
  assert.equal(connections.size, 6);
});

test('a connection with a request in progress is never evicted; the next largest address gives way instead', () => {
  const busy = new Set(['b#0', 'b#1', 'b#2', 'b#3', 'a#0']);
  const connections = table(7, 4, busy);
  fill(connections, 'a', 3);
  fill(connections, 'b', 4);
  assert.deepEqual(connections.admit('c', 'c#0'), { admit: true, evict: 'a#1' });
  busy.add('a#2').add('c#0');
  assert.deepEqual(connections.admit('d', 'd#0'), { admit: false }, 'every connection of an address holding more is busy');
});

test('past the per-address cap an address makes room from its own idle connections, or is refused', () => {
  const busy = new Set<string>();
  const connections = table(100, 3, busy);
  fill(connections, 'a', 3);
  assert.deepEqual(connections.admit('a', 'a#3'), { admit: true, evict: 'a#0' });
  busy.add('a#1').add('a#2').add('a#3');
  assert.deepEqual(connections.admit('a', 'a#4'), { admit: false });
  assert.equal(connections.size, 3);
});

test('a closed connection frees its place; removing it twice, or after its eviction, changes nothing', () => {
  const connections = table(2, 2);
  fill(connections, 'a', 2);
  const decision = connections.admit('b', 'b#0');
  assert.deepEqual(decision, { admit: true, evict: 'a#0' });
  connections.remove('a#0');
  connections.remove('a#1');
  connections.remove('a#1');
  assert.equal(connections.size, 1);
  assert.deepEqual(connections.admit('b', 'b#1'), { admit: true, evict: null });
});

test('an IPv4 client is counted by its address, an IPv6 client by its /64', () => {
  assert.equal(clientKey('192.0.2.1'), '192.0.2.1');
  assert.equal(clientKey('::ffff:192.0.2.1'), '192.0.2.1');
  assert.equal(clientKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8:1:2:ffff:ffff:ffff:9'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0003::1'), '2001:db8:1:3::/64');
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey(''), '', 'a socket that reports no address is counted under none');
});
