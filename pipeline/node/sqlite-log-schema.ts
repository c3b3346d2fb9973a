// The request log file's schema, and the steps that bring an older file to it. Each step takes
// the schema from the version before it to its own; the server applies the missing ones in
// order, in one transaction each, and records the version it reached (docs/API.md §4.3a).

import type { Database } from './sqlite-driver.ts';

/** The columns of a row as readers see them, in the order `hits` gives them. */
export const HIT_COLUMNS = 'id, at, method, route, status, bytes, duration_ms, crawler, category, verdict, address_hash, user_agent';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE hits (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     method TEXT NOT NULL,
     route TEXT NOT NULL,
     status INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     duration_ms REAL NOT NULL,
     crawler TEXT,
     category TEXT,
     verdict TEXT,
     address_hash TEXT,
     user_agent TEXT
   );
   CREATE INDEX hits_at ON hits (at);
   CREATE INDEX hits_address ON hits (address_hash, at);
   CREATE TABLE daily (
     day TEXT NOT NULL,
     route TEXT NOT NULL,
     status INTEGER NOT NULL,
     crawler TEXT NOT NULL,
     category TEXT NOT NULL,
     verdict TEXT NOT NULL,
     requests INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     PRIMARY KEY (day, route, status, crawler, category, verdict)
   ) WITHOUT ROWID;`,
  // whoami's count of an address comes from memory (log/visitor-tally.ts): an index by hash made
  // each row a write at a random place in the file.
  'DROP INDEX IF EXISTS hits_address;',
  // Retention reads the oldest rows in the order they were written (by id), which is the order
  // of their times: the index by time only made each row a second write (0.6-0.8 µs of the log
  // thread's 5-7 µs a row).
  'DROP INDEX IF EXISTS hits_at;',
  // The texts a row repeats from small sets (the method, the route template, the crawler, its
  // category, the verdict) are stored once in `texts` and the row holds their numbers; rows are
  // written many to a statement (sqlite-log-store.ts). Together that takes about 40 % off a
  // row's write and a fifth off its room (147 bytes against 179 for requests of crawlers with
  // User-Agents of about 100 characters). The User-Agent stays in the row: a client
  // chooses it, and a dictionary of every one sent would grow with a flood of new ones. The
  // rows of older versions stay where they are (`hits_v3`), untouched, until retention or the
  // size cap removes them: no file is rewritten on upgrade, however large, except the newest of
  // them, which moves over so that SQLite gives the next rows the ids that follow it. The view
  // `hits` shows both, every text spelled out, in the columns the table of that name had.
  `ALTER TABLE hits RENAME TO hits_v3;
   CREATE TABLE texts (
     id INTEGER PRIMARY KEY,
     text TEXT NOT NULL UNIQUE
   );
   CREATE TABLE requests (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     method INTEGER NOT NULL,
     route INTEGER NOT NULL,
     status INTEGER NOT NULL,
     bytes INTEGER NOT NULL,
     duration_ms REAL NOT NULL,
     crawler INTEGER,
     category INTEGER,
     verdict INTEGER,
     address_hash TEXT,
     user_agent TEXT
   );
   CREATE VIEW hits AS
     SELECT ${HIT_COLUMNS} FROM hits_v3
     UNION ALL
     SELECT r.id, r.at, m.text, ro.text, r.status, r.bytes, r.duration_ms, c.text, ca.text, v.text, r.address_hash, r.user_agent
     FROM requests AS r
     JOIN texts AS m ON m.id = r.method
     JOIN texts AS ro ON ro.id = r.route
     LEFT JOIN texts AS c ON c.id = r.crawler
     LEFT JOIN texts AS ca ON ca.id = r.category
     LEFT JOIN texts AS v ON v.id = r.verdict;
   INSERT INTO texts (text)
     SELECT method FROM hits_v3 WHERE id = (SELECT MAX(id) FROM hits_v3)
     UNION SELECT route FROM hits_v3 WHERE id = (SELECT MAX(id) FROM hits_v3)
     UNION SELECT crawler FROM hits_v3 WHERE id = (SELECT MAX(id) FROM hits_v3) AND crawler IS NOT NULL
     UNION SELECT category FROM hits_v3 WHERE id = (SELECT MAX(id) FROM hits_v3) AND category IS NOT NULL
     UNION SELECT verdict FROM hits_v3 WHERE id = (SELECT MAX(id) FROM hits_v3) AND verdict IS NOT NULL;
   INSERT INTO requests
     SELECT h.id, h.at, (SELECT id FROM texts WHERE text = h.method), (SELECT id FROM texts WHERE text = h.route), h.status, h.bytes,
       h.duration_ms, (SELECT id FROM texts WHERE text = h.crawler), (SELECT id FROM texts WHERE text = h.category),
       (SELECT id FROM texts WHERE text = h.verdict), h.address_hash, h.user_agent
     FROM hits_v3 AS h WHERE h.id = (SELECT MAX(id) FROM hits_v3);
   DELETE FROM hits_v3 WHERE id = (SELECT MAX(id) FROM requests);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the file to SCHEMA_VERSION; a file of a newer version is refused, not altered. */
export function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM schema_version').get() as { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > MIGRATIONS.length) throw new Error(`the file has schema version ${current}, newer than this server's ${MIGRATIONS.length}`);
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.exec('DELETE FROM schema_version');
      db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(version + 1);
    })();
  }
}
