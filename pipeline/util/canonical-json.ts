import { jsonPieces } from './json-pieces.ts';

/**
 * Every JSON document the project writes (dist/, state/, tool answers): key order is the
 * insertion order the code builds, which is fixed; with a 2-space indent and a trailing
 * newline, diffs show only real changes.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** canonicalJson's text in pieces of a few kilobytes, for answers large enough that one string costs (util/json-pieces.ts). */
export function canonicalJsonPieces(value: unknown): string[] {
  const pieces = jsonPieces(value, 2);
  pieces.push('\n');
  return pieces;
}
