// One refresh attempt of one source, as data: what the fetch returned and, when it returned
// a body, what the parser and the normaliser made of it. Pure, so that the same code path
// serves bodies from the network, from a local directory of upstream files, or from tests.

import type { FetchOutcome } from './fetch.ts';
import { normalisePrefixes } from './normalise.ts';
import type { NormaliseResult } from './normalise.ts';
import { clip, quote } from '../util/quote.ts';
import { FORMATS, parsePrefixList, type ParseResult, type PrefixFormat } from './parse.ts';

/** Where the bytes came from: the operator's URL, a local copy, or a base-URL override. */
export type Via = 'network' | 'upstream-dir' | 'upstream-base';

/** The fields of a sources.yaml row that this stage reads. */
export interface SourceRef {
  id: string;
  url: string;
  format: PrefixFormat;
}

export interface Attempt {
  id: string;
  /** The source's URL as configured (not the URL after redirects). */
  url: string;
  via: Via;
  outcome: FetchOutcome;
  /** Present when the fetch returned a body. */
  parsed: ParseResult | null;
  /** Present when the body parsed. */
  normalised: NormaliseResult | null;
  /** About the response rather than the list: redirects, an unexpected Content-Type. */
  findings: string[];
}

export function makeAttempt(source: SourceRef, outcome: FetchOutcome, via: Via = 'network'): Attempt {
  const findings: string[] = [];
  if (outcome.kind !== 'error' && outcome.finalUrl !== source.url) {
    findings.push(`${source.url} redirects to ${clip(outcome.finalUrl)}; the source URL may need updating.`);
  }
  if (outcome.kind !== 'ok') {
    return { id: source.id, url: source.url, via, outcome, parsed: null, normalised: null, findings };
  }
  const typeFinding = contentTypeFinding(source.format, outcome.contentType);
  if (typeFinding) findings.push(typeFinding);
  const parsed = parsePrefixList(source.format, outcome.bytes);
  const normalised = parsed.ok ? normalisePrefixes(parsed.prefixes) : null;
  return { id: source.id, url: source.url, via, outcome, parsed, normalised, findings };
}

/**
 * The body decides whether a list is readable, not the header: operators serve JSON as
 * text/plain or octet-stream. A mismatch is only reported. (HTML served where JSON is
 * expected still fails, in the parser, because the body is not JSON.)
 */
export function contentTypeFinding(format: PrefixFormat, contentType: string | null): string | null {
  const expected = FORMATS[format];
  if (contentType === null || contentType.trim() === '') {
    return `The response has no Content-Type; expected ${expected.mediaType}.`;
  }
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return expected.accepts(mediaType) ? null : `The response is labelled ${quote(contentType)}; expected ${expected.mediaType}.`;
}
