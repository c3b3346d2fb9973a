import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// Which build of better-sqlite3 opens the request log. Version 12 subclasses Node's raw
// ObjectWrap, whose destructor on Node 24.19 and later asserts that an Environment is current:
// a statement collected without one aborts the process (nodejs/node#65446; our sqlite-log test
// aborted at exit on Node 24.21). Version 13 is built on Node-API and ships prebuilt, but
// crashes on Node 20. So Node 22 and later load 13 (installed as better-sqlite3-napi) and Node 20
// loads 12, compiled by npm ci. Both have the same API.

const require = createRequire(import.meta.url);

/** The Node major version from which the Node-API build is loaded. */
const NAPI_FROM_MAJOR = 22;

export function driverFor(nodeVersion: string): 'better-sqlite3' | 'better-sqlite3-napi' {
  return Number(nodeVersion.split('.')[0]) >= NAPI_FROM_MAJOR ? 'better-sqlite3-napi' : 'better-sqlite3';
}

/** better-sqlite3's Database class, from the build that is safe on this Node. */
export const Database = require(driverFor(process.versions.node)) as typeof BetterSqlite3;
export type Database = BetterSqlite3.Database;
