// The request whose signature is checked, as RFC 9421 needs it: method, absolute target URI
// and header fields. It comes either from separate parameters or from a raw request head
// pasted as one text (the request line and the header lines, as a log or a proxy shows them).
// Every way the input can be wrong is an InputRefused naming the field and the accepted form.
import { InputRefused } from '../registry/limits.ts';
import { MAX_AGENT_BYTES, MAX_HEAD_LINES, MAX_SIGNATURE_FIELD_BYTES, MAX_URI_BYTES } from './limits.ts';

export interface SignedRequest {
  method: string;
  /** Absolute (scheme://authority/path?query): @authority, @path and @query are derived from it. */
  targetUri: string;
  /** Every header field, in order; repeated names are kept as repeated (RFC 9421 2.1 joins them). */
  fields: { name: string; value: string }[];
}

/** The separate parameters, as the tool received them. */
export interface RequestParts {
  method?: string;
  url?: string;
  authority?: string;
  path?: string;
  signature?: string;
  signature_input?: string;
  signature_agent?: string;
}

export const HEAD_ACCEPTED =
  'an HTTP/1.1 request head: the request line (GET /path HTTP/1.1, or an absolute URI) then one "Name: value" header per line, with Host when the target is a path, and Signature and Signature-Input';
export const URL_ACCEPTED = 'an absolute http or https URI, e.g. https://example.com/path?query';
export const AUTHORITY_ACCEPTED = 'host[:port] as the request was sent to, e.g. example.com';
export const METHOD_ACCEPTED = 'an HTTP method token, e.g. GET';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const AUTHORITY = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const encoder = new TextEncoder();

/** The request from separate parameters: `url`, or `authority` with an optional `path`, never both. */
export function requestFromParts(parts: RequestParts): SignedRequest {
  const clash = parts.url === undefined ? undefined : (['authority', 'path'] as const).find((name) => parts[name] !== undefined);
  if (clash !== undefined)
    throw new InputRefused(clash, `give the target either as url or as authority and path, not both; ${clash} was given beside url.`, URL_ACCEPTED);
  const method = parts.method ?? 'GET';
  if (!TOKEN.test(method)) throw new InputRefused('method', `method "${method.slice(0, 40)}" is not an HTTP method.`, METHOD_ACCEPTED);
  if (parts.signature === undefined)
    throw new InputRefused('signature', 'signature is required (or give the whole request head as request).', signatureAccepted('Signature'));
  if (parts.signature_input === undefined)
    throw new InputRefused('signature_input', 'signature_input is required (or give the whole request head as request).', signatureAccepted('Signature-Input'));
  const targetUri = parts.url !== undefined ? absoluteUri(parts.url, 'url') : uriFromAuthority(parts.authority, parts.path);
  const fields = [
    { name: 'signature', value: parts.signature },
    { name: 'signature-input', value: parts.signature_input },
    ...(parts.signature_agent === undefined ? [] : [{ name: 'signature-agent', value: parts.signature_agent }]),
  ];
  return { method, targetUri, fields };
}

/** The request from a raw head. A target given as a path takes its authority from Host and is read as https. */
export function requestFromHead(head: string): SignedRequest {
  // A pasted head may end at the blank line before a body; what follows it is not the head.
  const lines = head.replace(/^\s+/, '').split(/\r?\n/);
  const blank = lines.findIndex((line) => line.trim() === '');
  const headLines = blank === -1 ? lines : lines.slice(0, blank);
  if (headLines.length - 1 > MAX_HEAD_LINES)
    throw new InputRefused('request', `the request head has ${headLines.length - 1} header lines; at most ${MAX_HEAD_LINES}.`, HEAD_ACCEPTED);
  const requestLine = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S+)(?: +HTTP\/\d(?:\.\d)?)? *$/.exec(headLines[0] ?? '');
  if (requestLine === null)
    throw new InputRefused(
      'request',
      `the first line "${(headLines[0] ?? '').slice(0, 80)}" is not a request line such as "GET /path HTTP/1.1".`,
      HEAD_ACCEPTED,
    );
  const fields: { name: string; value: string }[] = [];
  for (const [index, line] of headLines.slice(1).entries()) {
    // obs-fold (RFC 9112 5.2): a line starting with white space continues the previous field.
    const last = fields.at(-1);
    if (/^[ \t]/.test(line) && last !== undefined) {
      last.value = `${last.value} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw new InputRefused('request', `line ${index + 2} "${line.slice(0, 80)}" is not a header line "Name: value".`, HEAD_ACCEPTED);
    fields.push({ name: name.toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  const method = requestLine[1] ?? '';
  const target = requestLine[2] ?? '';
  const host = fields.find((f) => f.name === 'host')?.value;
  let targetUri: string;
  if (/^https?:\/\//i.test(target)) targetUri = absoluteUri(target, 'request');
  else if (target.startsWith('/')) {
    if (host === undefined)
      throw new InputRefused('request', 'the request line names a path, and the head has no Host header to say which site.', HEAD_ACCEPTED);
    targetUri = uriFromAuthority(host, target, 'request');
  } else throw new InputRefused('request', `the request target "${target.slice(0, 80)}" is neither a path nor an absolute URI.`, HEAD_ACCEPTED);
  for (const [name, limit] of [
    ['signature', MAX_SIGNATURE_FIELD_BYTES],
    ['signature-input', MAX_SIGNATURE_FIELD_BYTES],
    ['signature-agent', MAX_AGENT_BYTES],
  ] as const) {
    const bytes = fields.filter((f) => f.name === name).reduce((n, f) => n + encoder.encode(f.value).length, 0);
    if (bytes > limit) throw new InputRefused('request', `its ${name} header is ${bytes} bytes; at most ${limit}.`, HEAD_ACCEPTED);
  }
  for (const name of ['signature', 'signature-input'])
    if (!fields.some((f) => f.name === name))
      throw new InputRefused('request', `the request head has no ${name} header, so there is no signature to check.`, HEAD_ACCEPTED);
  return { method, targetUri, fields };
}

export function signatureAccepted(header: string): string {
  return `the ${header} header's value exactly as the request carried it, at most ${MAX_SIGNATURE_FIELD_BYTES} bytes`;
}

function uriFromAuthority(authority: string | undefined, path: string | undefined, field = 'authority'): string {
  if (authority === undefined)
    throw new InputRefused('url', 'url (or authority, with an optional path) is required: @authority is part of every Web Bot Auth signature.', URL_ACCEPTED);
  if (!AUTHORITY.test(authority)) throw new InputRefused(field, `"${authority.slice(0, 80)}" is not host[:port].`, AUTHORITY_ACCEPTED);
  const target = path ?? '/';
  if (!target.startsWith('/'))
    throw new InputRefused(
      field === 'authority' ? 'path' : field,
      `path "${target.slice(0, 80)}" does not start with /.`,
      'a path starting with /, with its query if any',
    );
  return absoluteUri(`https://${authority}${target}`, field);
}

function absoluteUri(value: string, field: string): string {
  if (encoder.encode(value).length > MAX_URI_BYTES) throw new InputRefused(field, `the URI is larger than ${MAX_URI_BYTES} bytes.`, URL_ACCEPTED);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputRefused(field, `"${value.slice(0, 80)}" is not an absolute URI.`, field === 'authority' ? AUTHORITY_ACCEPTED : URL_ACCEPTED);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.host === '' || url.hash !== '')
    throw new InputRefused(
      field,
      `"${value.slice(0, 80)}" is not an http or https URI without a fragment.`,
      field === 'authority' ? AUTHORITY_ACCEPTED : URL_ACCEPTED,
    );
  // The caller's own bytes, not URL's re-serialisation: @path is derived from the URI as sent (RFC 9421 2.2.6).
  return value;
}
