import { parseAddressList } from '../../net/address-list.ts';
import type { ParamSpec, ToolDefinition, ToolInput } from './types.ts';
import { isHexDigit } from '../../util/ascii.ts';

export type InputResult = { ok: true; input: ToolInput } | { ok: false; field: string; message: string; accepted: string };

const encoder = new TextEncoder();

/**
 * The one parameter every tool accepts besides its own: a free tag a caller may add to say where
 * a call came from (a form, a script). It never changes the answer. Every surface that lists
 * parameters (input schemas, OpenAPI, the tools' specifications, A2A routing) reads it here.
 */
export const ATTRIBUTION_PARAM = { name: 's', description: 'Optional attribution tag; it does not affect the answer.', accepted: 'any short string' } as const;

/** JSON Schema of a tool's input, generated from its parameters (the MCP tools/list view). */
export function inputSchema(tool: ToolDefinition): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const param of tool.params) {
    const text = {
      type: 'string',
      description: `${param.description} Accepted: ${param.accepted}`,
      ...(param.maxBytes ? { maxLength: param.maxBytes } : {}),
      ...(param.values ? { enum: param.values } : {}),
    };
    properties[param.name] =
      param.kind === 'string'
        ? { ...text, ...(param.default !== undefined ? { default: param.default } : {}) }
        : {
            description: `${param.description} Accepted: ${param.accepted}`,
            anyOf: [
              { type: 'array', items: { type: 'string', ...(param.maxItemBytes ? { maxLength: param.maxItemBytes } : {}) }, maxItems: param.maxItems },
              { type: 'string', description: SPLIT_DESCRIPTIONS[param.split ?? 'none'] },
            ],
            ...(param.default !== undefined ? { default: param.default } : {}),
          };
  }
  // The attribution tag `s` is an HTTP habit; the schemas models and programs read leave it out (it is still accepted).
  return { type: 'object', properties, required: tool.params.filter((p) => p.required).map((p) => p.name), additionalProperties: false };
}

/** What one string given for a list becomes, said truthfully per split rule. */
const SPLIT_DESCRIPTIONS: Readonly<Record<NonNullable<ParamSpec['split']> | 'none', string>> = {
  comma: 'One string, split on commas',
  addresses: 'One string, split on commas and white space',
  lines: 'One string, one item per line',
  none: 'One string, taken as a single item',
};

/**
 * Where a list came from decides how it is read: query values (repeated or not) may each be
 * comma-separated; in JSON (MCP, A2A) an array is taken item by item, since an item such as a
 * log line may itself hold commas, and only a single string is split.
 */
export type InputSource = 'query' | 'json';

function splitList(param: ParamSpec, value: string | readonly string[], source: InputSource): string[] {
  // Addresses pasted from a log: an empty item between two commas is kept and reported, not dropped.
  if (param.split === 'addresses') return parseAddressList(value).items;
  const pattern = param.split === 'comma' ? /,/ : param.split === 'lines' ? /\r?\n/ : null;
  const values = typeof value === 'string' ? [value] : value;
  // Line breaks split wherever they come from; commas only in a query or a single string (an item such as a log line may hold commas).
  const split = pattern !== null && (param.split === 'lines' || source === 'query' || typeof value === 'string');
  return values
    .flatMap((v) => (split ? v.split(pattern) : [v]))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * A list written as a JSON array inside one string: what the MCP Inspector's CLI sends for a
 * --tool-arg whose schema is not plainly an array, and a slip models make. Its items, or null
 * when the string is anything else (a bracketed IPv6 address is not JSON).
 */
function jsonArrayIn(value: string): string[] | null {
  const text = value.trim();
  if (!text.startsWith('[') || !text.endsWith(']')) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
  } catch {
    return null;
  }
}

/** More than `limit` UTF-8 bytes; a string of n UTF-16 units has at most 3n bytes, so most are settled without encoding. */
function overBytes(value: string, limit: number): boolean {
  if (value.length > limit) return true;
  return value.length * 3 > limit && encoder.encode(value).length > limit;
}

function check(
  param: ParamSpec,
  value: string | string[] | undefined,
  source: InputSource,
): { ok: true; value: string | string[] | undefined } | { ok: false; message: string } {
  if (value === undefined) {
    if (param.required) return { ok: false, message: `${param.name} is required.` };
    return { ok: true, value: param.default };
  }
  if (param.kind === 'string') {
    if (Array.isArray(value)) {
      if (value.length !== 1) return { ok: false, message: `${param.name} was given ${value.length} times; give it once.` };
      value = value[0]!;
    }
    if (param.emptyIsValue && value.trim() === '') return { ok: true, value };
    if (param.required && value.trim() === '') return { ok: false, message: `${param.name} is empty.` };
    // Given but empty is a mistake, not a wish for the default: say so instead of guessing.
    if (!param.required && value.trim() === '') return { ok: false, message: `${param.name} is empty; give a value or leave the parameter out.` };
    if (param.maxBytes !== undefined && overBytes(value, param.maxBytes))
      return { ok: false, message: `${param.name} is larger than ${param.maxBytes} bytes.` };
    if (param.values !== undefined && !param.values.includes(value))
      return { ok: false, message: `${param.name} "${value.slice(0, 64)}" is not one of the accepted values.` };
    const problem = param.formProblem?.(value) ?? null;
    if (problem !== null) return { ok: false, message: problem };
    return { ok: true, value };
  }
  const items = splitList(param, value, source);
  if (items.length === 0) return param.required ? { ok: false, message: `${param.name} holds no item.` } : { ok: true, value: param.default };
  if (param.maxItems !== undefined && items.length > param.maxItems)
    return { ok: false, message: `${param.name} has ${items.length} items; at most ${param.maxItems} per call.` };
  if (param.maxItemBytes !== undefined) {
    const limit = param.maxItemBytes;
    const index = items.findIndex((item) => overBytes(item, limit));
    if (index >= 0) return { ok: false, message: `${param.name} item ${index + 1} is larger than ${limit} bytes; each item may be at most ${limit} bytes.` };
  }
  return { ok: true, value: items };
}

/**
 * Checks and normalises an input, from a query string or an MCP/A2A call alike. Unknown
 * names are refused (so a misspelt parameter is not silently ignored), except `s`.
 */
export function validateInput(tool: ToolDefinition, raw: Record<string, unknown>, source: InputSource = 'json'): InputResult {
  const known = new Set(tool.params.map((p) => p.name));
  for (const name of Object.keys(raw)) {
    if (name === ATTRIBUTION_PARAM.name || known.has(name)) continue;
    const accepted = tool.params.length === 0 ? 'no parameters (and the optional s)' : `${tool.params.map((p) => p.name).join(', ')} (and the optional s)`;
    return { ok: false, field: name, message: `${tool.path ?? tool.name} has no parameter "${name}".`, accepted };
  }
  const input: ToolInput = {};
  for (const param of tool.params) {
    const given = raw[param.name];
    if (given !== undefined && typeof given !== 'string' && !(Array.isArray(given) && given.every((v) => typeof v === 'string'))) {
      return {
        ok: false,
        field: param.name,
        message: `${param.name} must be ${param.kind === 'list' ? 'a string or an array of strings' : 'a string'}.`,
        accepted: param.accepted,
      };
    }
    const value = param.kind === 'list' && source === 'json' && typeof given === 'string' ? (jsonArrayIn(given) ?? given) : given;
    const result = check(param, value as string | string[] | undefined, source);
    if (!result.ok) return { ok: false, field: param.name, message: result.message, accepted: param.accepted };
    input[param.name] = result.value;
  }
  return { ok: true, input };
}

/**
 * A record for names a client chose: with no prototype, `__proto__` is a name like any other
 * (assigning it to a plain object is dropped) and `in` sees no inherited `constructor`.
 */
export function clientRecord<Value>(): Record<string, Value> {
  return Object.create(null) as Record<string, Value>;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** A percent-encoded byte outside ASCII: only these can make a parameter's text not UTF-8. */
const HIGH_BYTE = /%[89a-f][0-9a-f]/i;

/**
 * The name of the first parameter of a query string or urlencoded form (`url.search`, as sent)
 * whose name or value holds percent-encoded bytes that are not UTF-8, or null. URLSearchParams
 * reads such bytes as U+FFFD, so a tool would answer for text the client never sent
 * (docs/API.md §4.5, "Text is UTF-8"). Bytes are decoded as URLSearchParams decodes them: `%XX`
 * is one byte, and any other character is itself (a bare `%` too). The name is given as
 * URLSearchParams reads it. The value of `lenient` (a robots.txt file) is read as a crawler
 * reads the file, whatever its bytes, as its POST body is.
 */
export function notUtf8Parameter(search: string, lenient?: string): string | null {
  if (!HIGH_BYTE.test(search)) return null;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!HIGH_BYTE.test(pair) || isUtf8(percentDecoded(pair))) continue;
    const name = [...new URLSearchParams(pair).keys()][0] ?? '';
    if (name !== lenient) return name;
  }
  return null;
}

/** The refusal of a parameter that notUtf8Parameter names. */
export function notUtf8(name: string): { ok: false; field: string; message: string; accepted: string } {
  return {
    ok: false,
    field: name,
    message: `${name} holds percent-encoded bytes that are not UTF-8, which would be read as U+FFFD instead of the text sent; percent-encode the text's UTF-8 bytes.`,
    accepted: 'text whose UTF-8 bytes are percent-encoded (RFC 3986 section 2.5)',
  };
}

/** The bytes URLSearchParams decodes `text` to, before it reads them as UTF-8. */
function percentDecoded(text: string): Uint8Array {
  // At most one byte per character but for characters outside ASCII, which a URL's serialised
  // query never holds (the URL parser percent-encodes them); they are encoded as UTF-8 here.
  const bytes = new Uint8Array(encoder.encode(text).length);
  let length = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code === 0x25 && isHexDigit(text.charCodeAt(i + 1)) && isHexDigit(text.charCodeAt(i + 2))) {
      bytes[length++] = Number.parseInt(text.slice(i + 1, i + 3), 16);
      i += 3;
    } else if (code < 0x80) {
      bytes[length++] = code;
      i++;
    } else {
      const character = String.fromCodePoint(text.codePointAt(i)!);
      length += encoder.encodeInto(character, bytes.subarray(length)).written;
      i += character.length;
    }
  }
  return bytes.subarray(0, length);
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Query parameters as the validator takes them: repeated names become lists. */
export function fromSearchParams(params: URLSearchParams): Record<string, string | string[]> {
  const raw = clientRecord<string | string[]>();
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    raw[name] = values.length === 1 ? values[0]! : values;
  }
  return raw;
}

/** A validated string parameter ('' when absent). */
export function textOf<Input extends Readonly<Record<string, string | string[] | undefined>>>(input: Input, name: keyof Input & string): string {
  const value = input[name];
  return typeof value === 'string' ? value : '';
}

/** A validated list parameter ([] when absent). */
export function listOf<Input extends Readonly<Record<string, string | string[] | undefined>>>(input: Input, name: keyof Input & string): string[] {
  const value = input[name];
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}
