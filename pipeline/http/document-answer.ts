// How a document is answered: status, headers and body for GET/HEAD, with conditional requests
// (RFC 9110 section 13) and content-coding negotiation. The one definition of that behaviour:
// the Web-standard handler wraps the result in a Response, the Node adapter writes it directly.
import { parseEntityTags } from './conditional.ts';
import { selectCoding, type Coding, type Selected } from './encoding.ts';
import { DOCUMENT_CACHE_CONTROL } from '../contract/headers.ts';
import { securityHeadersFor } from './security.ts';
import type { StoredDocument } from './store.ts';

export interface DocumentAnswer {
  /** 404: the not-found page a browser is given for a path with no stored document (stored-answer.ts). */
  status: 200 | 304 | 404;
  headers: Readonly<Record<string, string>>;
  /** null for HEAD and 304. */
  body: Uint8Array<ArrayBuffer> | null;
}

/**
 * The JSON 404 of a path with no stored document, as a direct answer: its body is text, which
 * the adapter writes as UTF-8 (encoding a few hundred bytes with TextEncoder cost more than the
 * rest of the answer). Given for HEAD too, as fetch() gives it: node:http then sends its length
 * and not its bytes.
 */
interface MissingAnswer {
  status: 404;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** What an adapter can write without a Request: a stored document's answer, or a miss. */
export type DirectAnswer = DocumentAnswer | MissingAnswer;

export interface ConditionalHeaders {
  method: string;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  acceptEncoding: string | null;
  /** Read only by a document with a JSON form (the reference). */
  accept: string | null;
}

const OMITTED_FROM_304 = new Set(['content-type', 'content-length', 'content-encoding', 'last-modified']);

interface Variant {
  body: Uint8Array<ArrayBuffer>;
  ok: Readonly<Record<string, string>>;
  notModified: Readonly<Record<string, string>>;
}

/**
 * A document with every header it is answered with computed once. Each content-coding is its
 * own representation with its own strong validator (RFC 9110 8.8.3): the identity ETag is the
 * ledger's, an encoded one adds a suffix (`"<etag>-br"`), so the ledger keeps naming the bytes
 * of the file while no cache can mix up the encoded and plain bytes.
 */
export class PreparedDocument {
  private readonly variants = new Map<Selected, Variant>();
  private readonly tags = new Map<Selected, string>();
  // The encoded forms arrive in the background and never change after: the set is rebuilt only when they do.
  private codings: ReadonlySet<Coding> = new Set();
  /** null: the answer has no modification date, so If-Modified-Since is ignored (RFC 9110 13.1.3). */
  private readonly lastModifiedSeconds: number | null;
  private readonly base: Readonly<Record<string, string>>;
  readonly document: StoredDocument;

  /**
   * `dated: false` for an answer that describes its caller (whoami): its date is the published
   * data's, the same for every caller, so another caller's If-Modified-Since would match it.
   * It keeps its ETag, taken over bytes that name the caller, and sends no Last-Modified.
   */
  constructor(document: StoredDocument, headers: Readonly<Record<string, string>>, options: { dated?: boolean } = {}) {
    this.document = document;
    const dated = options.dated ?? true;
    this.lastModifiedSeconds = dated ? Math.floor(Date.parse(document.lastModified) / 1000) : null;
    this.base = {
      ...headers,
      ...securityHeadersFor(document.type),
      'content-type': document.type,
      ...(dated ? { 'last-modified': new Date(document.lastModified).toUTCString() } : {}),
      'cache-control': headers['cache-control'] ?? DOCUMENT_CACHE_CONTROL,
      vary: headers['vary'] ?? 'Accept-Encoding',
    };
  }

  answer(request: ConditionalHeaders): DocumentAnswer {
    const coding = selectCoding(request.acceptEncoding, this.availableCodings());
    const matched = this.notModifiedTag(request, coding);
    if (matched !== null) return { status: 304, headers: this.variant(matched).notModified, body: null };
    const variant = this.variant(coding);
    return { status: 200, headers: variant.ok, body: request.method === 'HEAD' ? null : variant.body };
  }

  private availableCodings(): ReadonlySet<Coding> {
    const encoded = this.document.encoded;
    if (encoded !== undefined && encoded.size !== this.codings.size) this.codings = new Set(encoded.keys());
    return this.codings;
  }

  etagOf(coding: Selected): string {
    let tag = this.tags.get(coding);
    if (tag === undefined) {
      tag = coding === 'identity' ? `"${this.document.etag}"` : `"${this.document.etag}-${coding}"`;
      this.tags.set(coding, tag);
    }
    return tag;
  }

  /**
   * The representation a 304 confirms, or null for a full answer. If-None-Match (weak
   * comparison, 13.1.2) may name the tag of any coding of these same bytes: the client's
   * cached copy is then current, and the 304 carries that copy's own tag so the cache updates
   * the right entry (RFC 9111 4.3.4). If-Modified-Since counts only without If-None-Match (13.2.2).
   */
  private notModifiedTag(request: ConditionalHeaders, selected: Selected): Selected | null {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    if (request.ifNoneMatch !== null) {
      // Nearly every revalidation sends back exactly one tag this server gave: no parsing needed.
      if (request.ifNoneMatch === this.etagOf(selected)) return selected;
      const tags = parseEntityTags(request.ifNoneMatch);
      if (tags === '*') return selected;
      const codings: Selected[] = [selected, 'identity', ...this.availableCodings()];
      return codings.find((coding) => tags.includes(this.etagOf(coding).slice(1, -1))) ?? null;
    }
    if (request.ifModifiedSince === null || this.lastModifiedSeconds === null) return null;
    const since = Date.parse(request.ifModifiedSince);
    // 13.1.3: an invalid date is ignored; HTTP dates have one-second resolution.
    if (Number.isNaN(since)) return null;
    return this.lastModifiedSeconds <= Math.floor(since / 1000) ? selected : null;
  }

  private variant(coding: Selected): Variant {
    let variant = this.variants.get(coding);
    if (variant) return variant;
    const body = coding === 'identity' ? this.document.bytes : this.document.encoded?.get(coding);
    if (!body) return this.variant('identity');
    const etag = this.etagOf(coding);
    const ok = { ...this.base, etag, 'content-length': String(body.byteLength), ...(coding === 'identity' ? {} : { 'content-encoding': coding }) };
    // RFC 9110 15.4.5: a 304 repeats what a cache must update (ETag, Cache-Control, Vary) and
    // not the body's type, length, coding or date, which are the stored ones. It keeps the Link
    // header (and the CORS exposure that lets a page read it): every answer names the change
    // feed and the API description (docs/API.md §5.5), so a client that polls with validators
    // and only ever sees 304s still finds them.
    const notModified = Object.fromEntries(Object.entries(ok).filter(([name]) => !OMITTED_FROM_304.has(name)));
    variant = { body, ok, notModified };
    this.variants.set(coding, variant);
    return variant;
  }
}

export function conditionalHeadersOf(request: Request): ConditionalHeaders {
  return {
    method: request.method,
    ifNoneMatch: request.headers.get('if-none-match'),
    ifModifiedSince: request.headers.get('if-modified-since'),
    acceptEncoding: request.headers.get('accept-encoding'),
    accept: request.headers.get('accept'),
  };
}

// Reading a Response body back through its stream costs more than serving the bytes (about
// 3x for a 230 KB document under load). An adapter that can write bytes directly asks here
// first; any other runtime just reads the body as usual.
const knownBodies = new WeakMap<Response, Uint8Array>();

export function knownBody(response: Response): Uint8Array | undefined {
  return knownBodies.get(response);
}

// What to do once an answer has been sent: give a tool's buffer back to its runner
// (ToolRunner.release). An adapter that knows when its last byte left calls it; elsewhere the
// buffer is simply collected.
const sentHooks = new WeakMap<Response, () => void>();

/** The hook to call once `response` has been sent (or its client has gone), if it has one. */
export function afterSent(response: Response): (() => void) | undefined {
  return sentHooks.get(response);
}

/** A body over the stored bytes without copying them (a Uint8Array body is copied by Response). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * A Response over bytes in hand, which an adapter that writes bytes sends as they are
 * (knownBody), with no copy made; `onSent` runs once it has been sent (afterSent).
 */
export function bytesResponse(bytes: Uint8Array, init: ResponseInit, onSent?: () => void): Response {
  const response = new Response(streamOf(bytes), init);
  knownBodies.set(response, bytes);
  if (onSent !== undefined) sentHooks.set(response, onSent);
  return response;
}

export function toResponse(answer: DocumentAnswer, onSent?: () => void): Response {
  if (answer.body !== null) return bytesResponse(answer.body, { status: answer.status, headers: answer.headers }, onSent);
  const response = new Response(null, { status: answer.status, headers: answer.headers });
  if (onSent !== undefined) sentHooks.set(response, onSent);
  return response;
}

/** A document computed for this request, answered like a stored one (validators, codings, HEAD); `onSent` as for bytesResponse. */
export function documentResponse(
  document: StoredDocument,
  request: Request,
  headers: Record<string, string>,
  options?: { dated?: boolean; onSent?: () => void },
): Response {
  return toResponse(new PreparedDocument(document, headers, options).answer(conditionalHeadersOf(request)), options?.onSent);
}
