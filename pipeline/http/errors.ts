// One error shape for every surface (schemas/outputs/error.schema.json):
// {"error": {"code", "message", "status", "field"?, "accepted"?, "allow"?, "documentation"?}}.

import { API_PREFIX, matchTemplate } from '../paths.ts';
import type { Route } from '../routes.ts';
import { quote } from '../util/quote.ts';

export interface ErrorDetail {
  code: string;
  message: string;
  field?: string;
  accepted?: string;
  allow?: readonly string[];
  documentation?: string;
}

export function errorBody(status: number, detail: ErrorDetail): string {
  const { code, message, field, accepted, allow, documentation } = detail;
  return JSON.stringify({ error: { code, message, status, field, accepted, allow, documentation } }, null, 2) + '\n';
}

/** The headers every error starts from; an error is about one request, so it is never stored. */
export const ERROR_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json', 'cache-control': 'no-store' };

export function errorResponse(status: number, detail: ErrorDetail, headers: HeadersInit = {}): Response {
  return new Response(errorBody(status, detail), { status, headers: { ...ERROR_HEADERS, ...headers } });
}

/** What a 404 says of a path no stored document answers: for a template, the value it lacks and where the valid ones are listed. */
export function notFoundDetail(baseUrl: string, path: string, route: Route | undefined): ErrorDetail {
  if (route?.parameter) {
    const value = matchTemplate(route.path, path) ?? '';
    return {
      code: 'not_found',
      message: `No ${route.parameter.name} ${quote(value)} at ${route.path}. Valid values are listed in ${route.parameter.values_from}.`,
      field: route.parameter.name,
      accepted: route.parameter.values_from,
    };
  }
  return { code: 'not_found', message: `No document at ${quote(path)}. Every path is listed at ${baseUrl}${API_PREFIX}.` };
}

/** An error body's text before and after its message: the same for every error of one kind. */
interface AroundMessage {
  before: string;
  after: string;
}

const MESSAGE_HOLE = '\u0000';

function aroundMessage(status: number, detail: ErrorDetail): AroundMessage {
  // The member is found by its name and value together: no other member is named "message".
  const member = `"message": ${JSON.stringify(MESSAGE_HOLE)}`;
  const text = errorBody(status, { ...detail, message: MESSAGE_HOLE });
  const at = text.indexOf(member) + '"message": '.length;
  return { before: text.slice(0, at), after: text.slice(at + JSON.stringify(MESSAGE_HOLE).length) };
}

/** Per route with a parameter, and one for every other path: what a 404 body holds around its message. */
const notFoundAround = new WeakMap<Route, AroundMessage>();
let unroutedAround: AroundMessage | null = null;

/**
 * errorBody(404, notFoundDetail(…)), with the body around the message serialised once per route:
 * a scanner's thousand distinct paths then cost a message each, not a serialisation each.
 */
export function notFoundBody(baseUrl: string, path: string, route: Route | undefined): string {
  const detail = notFoundDetail(baseUrl, path, route);
  let around = route?.parameter ? notFoundAround.get(route) : unroutedAround;
  if (around === undefined || around === null) {
    around = aroundMessage(404, detail);
    if (route?.parameter) notFoundAround.set(route, around);
    else unroutedAround = around;
  }
  return around.before + JSON.stringify(detail.message) + around.after;
}

/**
 * A 404's headers for the not-found page a browser is given instead of the JSON (handler.ts for
 * fetch(), stored-answer.ts for the direct answer): the page is HTML and varies with Accept.
 */
export function notFoundPageHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { ...headers, 'content-type': 'text/html; charset=utf-8', vary: 'Accept' };
}

/** 404 for a path no stored document answers (notFoundDetail). */
export function notFound(baseUrl: string, path: string, route: Route | undefined, headers: Record<string, string>): Response {
  return errorResponse(404, notFoundDetail(baseUrl, path, route), headers);
}
