// JSON.stringify(value, null, indent) as a list of pieces of a few kilobytes, and their UTF-8
// bytes. A tool's answer can be half a megabyte (verify of 500 addresses). Made as one string,
// the passes after JSON.stringify (the rewrite of the build's base URL, UTF-8 encoding) cost
// more than the serialisation: 495 KB took 4 ms on Node 20 (whose stringify leaves a rope that
// the first pass copies flat) and 5.5 ms on Node 24, against 2.4 ms on both in pieces
// (docs/API.md §8.1). Containers near the top are written member by member; below PIECE_DEPTH
// each value is one JSON.stringify, and the elements of a list just above it are written in
// runs that fill a piece, one JSON.stringify a run.
// The joined pieces are byte for byte what JSON.stringify gives (json-pieces.test.ts).

import { utf8Length } from './utf8-length.ts';

/** Containers at depths below this are written member by member. */
const PIECE_DEPTH = 2;
/** A piece is closed once it holds this many characters. */
const PIECE_CHARS = 8192;
/** The most elements of an array one JSON.stringify call writes. */
const MAX_RUN = 256;

type Json = unknown;

/** JSON.stringify's view of a value before it is written: toJSON applied. */
function prepared(value: Json, key: string): Json {
  const withToJson = value as { toJSON?: unknown } | null;
  if (withToJson !== null && typeof withToJson === 'object' && typeof withToJson.toJSON === 'function') {
    return (withToJson.toJSON as (key: string) => unknown)(key);
  }
  return value;
}

/** Plain data JSON.stringify writes as an object; other objects (boxed values and the like) are left to it. */
function isPlainObject(value: Json): value is Record<string, Json> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Values JSON.stringify leaves out of an object and writes as null in an array. */
function isUnwritable(value: Json): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** The pieces of JSON.stringify(value, null, indent); joined, they are its text. `value` must be writable (not undefined). */
export function jsonPieces(value: Json, indent = 0): string[] {
  const pieces: string[] = [];
  let text = '';
  const pads: string[] = [];
  const pad = (depth: number) => (pads[depth] ??= indent === 0 ? '' : `\n${' '.repeat(indent * depth)}`);
  const add = (more: string) => {
    text += more;
    if (text.length >= PIECE_CHARS) {
      pieces.push(text);
      text = '';
    }
  };
  // `item` has had its toJSON applied (prepared), as JSON.stringify does once per value.
  const write = (item: Json, key: string, depth: number): void => {
    if (depth < PIECE_DEPTH && Array.isArray(item) && item.length > 0) {
      add('[');
      if (depth + 1 === PIECE_DEPTH) writeRuns(item, depth);
      else {
        item.forEach((element, index) => {
          add(index === 0 ? pad(depth + 1) : `,${pad(depth + 1)}`);
          const written = prepared(element, String(index));
          if (isUnwritable(written)) add('null');
          else write(written, String(index), depth + 1);
        });
      }
      add(`${pad(depth)}]`);
      return;
    }
    if (depth < PIECE_DEPTH && isPlainObject(item)) {
      let first = true;
      for (const name of Object.keys(item)) {
        const member = prepared(item[name], name);
        if (isUnwritable(member)) continue;
        add(`${first ? '{' : ','}${pad(depth + 1)}${JSON.stringify(name)}${indent === 0 ? ':' : ': '}`);
        first = false;
        write(member, name, depth + 1);
      }
      add(first ? '{}' : `${pad(depth)}}`);
      return;
    }
    // Deeper down, or not a container: JSON.stringify writes it whole, indented to its depth.
    // (Below the top, the callers have left out what cannot be written.)
    const whole = indent === 0 || depth === 0 ? (JSON.stringify(item, null, indent) as string | undefined) : indented(item, depth);
    if (whole === undefined) throw new TypeError(`jsonPieces: a value at ${key || 'the top'} cannot be written as JSON`);
    add(whole);
  };
  // A value written as if `depth` levels deep: JSON.stringify of it inside `depth` one-item
  // arrays, without their brackets. One pass in V8's stringifier, where re-indenting each line
  // of the value's own text cost a quarter of an answer's serialisation.
  const indented = (item: Json, depth: number): string => {
    let wrapped = item;
    for (let level = 0; level < depth; level++) wrapped = [wrapped];
    let before = 0;
    for (let level = 1; level <= depth; level++) before += 1 + pad(level).length;
    let after = 0;
    for (let level = 0; level < depth; level++) after += pad(level).length + 1;
    const text = JSON.stringify(wrapped, null, indent);
    return text.slice(before, text.length - after);
  };
  // The elements of an array whose elements are written whole: runs of them, each one
  // JSON.stringify of a slice of the array, sized to end near PIECE_CHARS. One call per
  // element cost more than the runs on Node 20, and one call for the whole array made the
  // half-megabyte string the pieces avoid (docs/API.md §8.1).
  const writeRuns = (array: readonly Json[], depth: number): void => {
    // toJSON is applied with each element's own index, as JSON.stringify of the whole array would.
    const elements = array.map((element, index) => {
      const written = prepared(element, String(index));
      return isUnwritable(written) ? null : written;
    });
    let run = 1;
    for (let start = 0; start < elements.length; ) {
      const end = Math.min(start + run, elements.length);
      const text = indented(elements.slice(start, end), depth);
      // The slice's text without its brackets: its first element's line break and indent, its
      // elements, and not the closing line's indent.
      const inner = text.slice(1, text.length - 1 - pad(depth).length);
      add(start === 0 ? inner : `,${inner}`);
      run = Math.max(1, Math.min(MAX_RUN, Math.round(((end - start) * PIECE_CHARS) / Math.max(text.length, 1))));
      start = end;
    }
  };
  write(prepared(value, ''), '', 0);
  if (text !== '') pieces.push(text);
  return pieces;
}

const utf8 = new TextEncoder();

/** Where the bytes of an answer are written: `length` bytes, new or given back after an earlier answer was sent. */
export type Allocate = (length: number) => Uint8Array<ArrayBuffer>;

const fresh: Allocate = (length) => new Uint8Array(length);

/** The UTF-8 bytes of the pieces, one after the other, in memory `allocate` gives. */
export function utf8OfPieces(pieces: readonly string[], allocate: Allocate = fresh): Uint8Array<ArrayBuffer> {
  return utf8OfPieceGroups([pieces], allocate).bytes;
}

/**
 * The UTF-8 bytes of groups of pieces, one after the other, and where each group's bytes start.
 * Each piece is encoded straight into the answer's memory (encodeInto; docs/API.md §8.1).
 * Encoding each to bytes of its own, then copying them, cost 0.3-0.55 ms on Node 20 and
 * 0.9-1.8 ms on Node 24 for the 800 KB of a 500-address MCP answer, against 0.08-0.1 ms; and
 * checking every piece for characters outside ASCII first cost 0.5 ms. So the memory is sized
 * at one byte a character, which is exact for ASCII (nearly every answer); the first character
 * that needs more has the rest counted and written into memory of the exact size.
 */
export function utf8OfPieceGroups(groups: readonly (readonly string[])[], allocate: Allocate = fresh): { bytes: Uint8Array<ArrayBuffer>; starts: number[] } {
  let characters = 0;
  for (const pieces of groups) for (const piece of pieces) characters += piece.length;
  let all = allocate(characters);
  let at = 0;
  const starts: number[] = [];
  groups.forEach((pieces, group) => {
    starts.push(at);
    pieces.forEach((piece, index) => {
      const { read, written } = utf8.encodeInto(piece, all.subarray(at));
      at += written;
      if (read === piece.length) return;
      const rest = piece.slice(read);
      let more = utf8Length(rest);
      for (let g = group; g < groups.length; g++) for (const later of groups[g]!.slice(g === group ? index + 1 : 0)) more += utf8Length(later);
      const larger = allocate(at + more);
      larger.set(all.subarray(0, at));
      all = larger;
      at += utf8.encodeInto(rest, all.subarray(at)).written;
    });
  });
  return { bytes: all, starts };
}
