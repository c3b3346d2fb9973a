// The numbers of the texts a request log row repeats (sqlite-log-schema.ts, schema version 4):
// the method, the route template, the crawler, its category and the verdict. Each is one of a
// small set the server's code and data bound (the methods Node's HTTP parser accepts, the route
// table's templates, the records' crawlers and categories, four verdicts), so the table and the
// memory that mirrors it stay a few hundred texts long and nothing is ever removed from them.

import type { Database } from './sqlite-driver.ts';

/** The number of `text` (null stays null), adding the text the first time it is met. */
export type TextIds = (text: string | null) => number | null;

export function logTextIds(db: Database): { idOf: TextIds; reset(): void } {
  const known = new Map<string, number>();
  const find = db.prepare<[string], { id: number }>('SELECT id FROM texts WHERE text = ?');
  const add = db.prepare<[string]>('INSERT INTO texts (text) VALUES (?)');
  return {
    idOf(text) {
      if (text === null) return null;
      let id = known.get(text);
      if (id === undefined) {
        id = find.get(text)?.id ?? Number(add.run(text).lastInsertRowid);
        known.set(text, id);
      }
      return id;
    },
    /** Forgets what memory holds, after a transaction that did not commit (its new texts are gone). */
    reset() {
      known.clear();
    },
  };
}
