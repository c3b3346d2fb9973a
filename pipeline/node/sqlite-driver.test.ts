import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { Database, driverFor } from './sqlite-driver.ts';

test('Node 20 loads better-sqlite3 12; Node 22 and later the Node-API build, which does not abort on Node 24', () => {
  assert.equal(driverFor('20.20.2'), 'better-sqlite3');
  assert.equal(driverFor('22.0.0'), 'better-sqlite3-napi');
  assert.equal(driverFor('24.21.0'), 'better-sqlite3-napi');
  assert.equal(driverFor('26.1.0'), 'better-sqlite3-napi');
});

test('the build loaded on this Node opens a database, and statements left to the collector do not end the process', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  // One statement per row, none kept: the collector finalises them, as at the log's migration.
  for (let n = 0; n < 200; n++) db.prepare('INSERT INTO t (n) VALUES (?)').run(n);
  assert.deepEqual(db.prepare('SELECT count(*) AS rows FROM t').get(), { rows: 200 });
  db.close();
});
