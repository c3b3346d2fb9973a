import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { dailySaltedHasher } from './salt.ts';

const DAY = 86_400_000;
const MIDNIGHT = Date.UTC(2026, 10, 29);

/** A hasher whose salts are numbered in the order they are drawn, and whose hash shows the salt it used. */
function numberedHasher() {
  let drawn = 0;
  const hasher = dailySaltedHasher(
    () => new Uint8Array([++drawn]),
    (salt, address) => `${salt[0]}:${address}`,
  );
  return { hasher, drawn: () => drawn };
}

test('one salt a day: the same address hashes alike all day, and differently the next', () => {
  const { hasher, drawn } = numberedHasher();
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + 1), '1:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + DAY - 1), '1:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.2', MIDNIGHT + 5), '1:192.0.2.2');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + DAY), '2:192.0.2.1');
  assert.equal(drawn(), 2);
});

test("a request of the day before, booked after midnight, takes that day's salt and leaves today's as it was", () => {
  const { hasher } = numberedHasher();
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT - 100), '1:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + 10), '2:192.0.2.1');
  // Arrived at 23:59:59.950, answered (and booked) after midnight.
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT - 50), '1:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + 20), '2:192.0.2.1', "today's earlier hashes still match");
});

test('a process that starts just after midnight and first books a request of the day before draws a salt for each day', () => {
  const { hasher, drawn } = numberedHasher();
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + 10), '1:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT - 10), '2:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT - 5), '2:192.0.2.1');
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + 15), '1:192.0.2.1');
  assert.equal(drawn(), 2);
});

test('two processes (a restart) never share a salt, and a day skipped keeps no salt of the day before', () => {
  const first = dailySaltedHasher(
    () => crypto.getRandomValues(new Uint8Array(32)),
    (salt, address) => `${Buffer.from(salt).toString('hex')}:${address}`,
  );
  const second = dailySaltedHasher(
    () => crypto.getRandomValues(new Uint8Array(32)),
    (salt, address) => `${Buffer.from(salt).toString('hex')}:${address}`,
  );
  assert.notEqual(first.hash('192.0.2.1', MIDNIGHT), second.hash('192.0.2.1', MIDNIGHT));
  const { hasher } = numberedHasher();
  hasher.hash('192.0.2.1', MIDNIGHT);
  hasher.hash('192.0.2.1', MIDNIGHT + 2 * DAY);
  // The day before the newest was never seen: its salt is new, not the one of two days ago.
  assert.equal(hasher.hash('192.0.2.1', MIDNIGHT + DAY), '3:192.0.2.1');
});
