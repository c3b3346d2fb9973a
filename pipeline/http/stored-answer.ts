import { routeOf, type Route } from '../routes.ts';
import { carriesLiveCounters } from '../site/live.ts';
import { CORS_HEADERS } from '../contract/headers.ts';
import type { Asked, Service } from './answer-context.ts';
import { conditionalHeadersOf, type ConditionalHeaders, type DirectAnswer, PreparedDocument, toResponse } from './document-answer.ts';
import { ERROR_HEADERS, notFound, notFoundBody, notFoundPageHeaders } from './errors.ts';
import { href } from '../paths.ts';
import { prefersHtml, prefersJson } from './negotiate.ts';
import { securityHeadersFor } from './security.ts';
import { linkHeader } from './links.ts';
import { livePages } from './live-pages.ts';
import type { StoredDocument } from './store.ts';
import { crawlerName } from './served-build.ts';

// The stored documents of dist/, as every runtime answers them: by fetch() (`answer`) and, for
// an adapter that writes bytes directly, without a Request (`peek`). Both go through one
// PreparedDocument per document and header variant, so they cannot differ.

/** Header variants kept per stored document before they are dropped and built again. */
const MAX_PREPARED_FORMS = 32;

/** Missing paths whose JSON 404 is remembered before the memory is dropped and started again. */
const MAX_REMEMBERED_MISSES = 256;

/**
 * A JSON 404's headers in their order, its Link left to fill: copied whole and given its Link,
 * a miss's headers cost one copy, where merging the three sets for each miss took a fifth of
 * a distinct miss's time on Node 20 (docs/API.md §5.5 and §5.6 say which are sent).
 */
const JSON_MISS_HEADERS: Readonly<Record<string, string>> = {
  ...ERROR_HEADERS,
  ...CORS_HEADERS,
  link: '',
  ...securityHeadersFor(ERROR_HEADERS['content-type'] ?? null),
};

/**
 * The header variants of one stored document under one feed head, and the one last answered:
 * most requests ask for the same as the one before, and are matched without a key to build.
 */
interface PreparedForms {
  cursor: number;
  forms: Map<string, PreparedDocument>;
  last: { origin: string; canonical: string | null; negotiated: string | undefined; answer: PreparedDocument } | null;
}

/** Which variant of a stored document's headers an answer needs. */
interface DocumentForm {
  canonical: string | null;
  /** Set for a negotiated route: the stored path that was chosen. */
  negotiated: string | undefined;
}

/**
 * Which stored document answers: the path's own, or for a page with a JSON form (the
 * reference) that form when the client prefers JSON; and the header variant that goes with it.
 */
function negotiate(route: Route | undefined, path: string, canonical: string | null, accept: string | null): { served: string; form: DocumentForm } {
  if (route?.jsonForm === undefined) return { served: path, form: { canonical, negotiated: undefined } };
  const served = prefersJson(accept) ? routeOf(route.jsonForm).path : path;
  return { served, form: { canonical, negotiated: served } };
}

export interface StoredAnswers {
  /** GET or HEAD of a stored document, through fetch(). */
  answer(asked: Asked): Promise<Response>;
  /** The same answer from the snapshot in hand, or null when only fetch() can give it (not loaded, a page whose counters are due). */
  peek(path: string, route: Route | undefined, canonical: string | null, request: ConditionalHeaders, cursor: number, origin: string): DirectAnswer | null;
}

export function storedAnswers({ store, visits, views }: Service): StoredAnswers {
  const livePage = livePages(views, (slug) => crawlerName(store, slug));
  // Pages carry the log's counters unless the server runs without a log (--no-log).
  const live = (document: StoredDocument) => carriesLiveCounters(document.type) && visits.log.health().state !== 'off';

  // Headers of a stored document depend on its bytes, the address it was asked by (its Link
  // rel=canonical), whether it was negotiated, and the feed's head; they are computed once per
  // document object (one per snapshot), head and form (a handful per route), not per request.
  const prepared = new WeakMap<StoredDocument, PreparedForms>();
  function preparedFor(document: StoredDocument, path: string, form: DocumentForm, cursor: number, origin: string): PreparedDocument {
    let entry = prepared.get(document);
    if (entry?.cursor !== cursor) {
      entry = { cursor, forms: new Map(), last: null };
      prepared.set(document, entry);
    }
    const last = entry.last;
    if (last !== null && last.origin === origin && last.canonical === form.canonical && last.negotiated === form.negotiated) return last.answer;
    const answer = preparedForm(entry, document, path, form, cursor, origin);
    entry.last = { origin, canonical: form.canonical, negotiated: form.negotiated, answer };
    return answer;
  }

  function preparedForm(entry: PreparedForms, document: StoredDocument, path: string, form: DocumentForm, cursor: number, origin: string): PreparedDocument {
    const key = `${origin} ${form.canonical ?? ''} ${form.negotiated ?? ''}`;
    let answer = entry.forms.get(key);
    if (answer === undefined) {
      // Host is the client's to choose: past a handful of origins per document, start over rather than grow.
      if (entry.forms.size >= MAX_PREPARED_FORMS) entry.forms.clear();
      const negotiation =
        form.negotiated === undefined ? {} : { vary: 'Accept, Accept-Encoding', ...(form.negotiated === path ? {} : { 'content-location': form.negotiated }) };
      answer = new PreparedDocument(document, { ...CORS_HEADERS, link: linkHeader(origin, path, form.canonical, cursor), ...negotiation });
      entry.forms.set(key, answer);
    }
    return answer;
  }

  const misses = new Map<string, DirectAnswer>();

  /**
   * The 404 fetch() gives for a path with no stored document (handler.ts: the JSON error, or
   * for a browser the not-found page), from the snapshot in hand and without a Request.
   */
  function missing(
    path: string,
    route: Route | undefined,
    canonical: string | null,
    request: ConditionalHeaders,
    cursor: number,
    origin: string,
  ): DirectAnswer | null {
    const headersOf = () => ({ ...ERROR_HEADERS, ...CORS_HEADERS, link: linkHeader(origin, path, canonical, cursor) });
    if (prefersHtml(request.accept)) {
      const page = store.peek?.(href('not_found_html'));
      if (page === undefined) return null;
      if (page !== null) {
        const html = { ...notFoundPageHeaders(headersOf()), ...securityHeadersFor('text/html') };
        return { status: 404, headers: html, body: request.method === 'HEAD' ? null : page.bytes };
      }
    }
    // The same missing paths come back (a broken link, a scanner's list): each one's JSON 404 is
    // remembered per feed head and origin, a bounded number, so a repeat costs about what a hit does.
    const key = `${cursor} ${origin} ${canonical ?? ''} ${path}`;
    let answer = misses.get(key);
    if (answer === undefined) {
      const body = notFoundBody(origin, path, route);
      const headers = { ...JSON_MISS_HEADERS };
      headers.link = linkHeader(origin, path, canonical, cursor);
      answer = { status: 404, headers, body };
      if (misses.size >= MAX_REMEMBERED_MISSES) misses.clear();
      misses.set(key, answer);
    }
    return answer;
  }

  return {
    async answer({ request, path, route, canonical, cursor, headers, here }) {
      const choice = negotiate(route, path, canonical, request.headers.get('accept'));
      const stored = await store.get(choice.served);
      if (!stored) return notFound(here.base_url, path, route, headers);
      const document = live(stored) ? await livePage.build(stored) : stored;
      return toResponse(preparedFor(document, path, choice.form, cursor, here.base_url).answer(conditionalHeadersOf(request)));
    },

    peek(path, route, canonical, request, cursor, origin) {
      const choice = negotiate(route, path, canonical, request.accept);
      const stored = store.peek?.(choice.served);
      if (stored === undefined) return null;
      if (stored === null) return missing(path, route, canonical, request, cursor, origin);
      // A page's counters are written once per reading of the log; until then, fetch() builds it.
      const document = live(stored) ? livePage.peek(stored) : stored;
      if (!document) return null;
      return preparedFor(document, path, choice.form, cursor, origin).answer(request);
    },
  };
}
