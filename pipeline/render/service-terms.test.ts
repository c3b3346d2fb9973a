import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { securityTxtBase, securityTxtExpiry } from './service-terms.ts';

test('security.txt keeps its date on an ordinary rebuild and is renewed once six months have passed', () => {
  const changed = '2026-01-15T06:00:00Z';
  assert.equal(securityTxtBase(changed, '2026-01-15T12:00:00Z'), changed);
  assert.equal(securityTxtBase(changed, '2026-07-14T23:59:59Z'), changed, 'a day short of six months: unchanged');
  assert.equal(securityTxtBase(changed, '2026-07-15T00:00:00Z'), '2026-07-15T00:00:00Z', 'six months on: counted from the build');
});

test('Expires is eleven months after the base: never a year ahead, never less than five months left before renewal', () => {
  assert.equal(securityTxtExpiry('2026-01-15T06:00:00Z'), '2026-12-15T00:00:00Z');
  assert.equal(securityTxtExpiry('2026-11-25T14:44:30Z'), '2027-10-25T00:00:00Z');
  for (const base of ['2026-01-31T00:00:00Z', '2026-03-31T23:00:00Z', '2028-02-29T12:00:00Z']) {
    const ahead = Date.parse(securityTxtExpiry(base)) - Date.parse(base);
    assert.ok(ahead < 365 * 86_400_000 && ahead > 320 * 86_400_000, `${base}: ${ahead / 86_400_000} days`);
  }
});
