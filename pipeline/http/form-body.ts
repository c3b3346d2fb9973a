import { clientRecord, notUtf8Parameter, notUtf8 } from '../tools/registry/input.ts';

// What a POST to a robots.txt tool carries. The documented way is the raw file
// (curl --data-binary @robots.txt), but two other forms arrive in practice: an HTML form
// (robots_txt=... urlencoded, or multipart with an uploaded file) and curl -d @robots.txt,
// which sends the file as a form and removes its line breaks, so that it can no longer be read.

export type ToolBody =
  | { ok: true; fields: Record<string, string>; form: 'raw' | 'urlencoded' | 'multipart' }
  /** `field`: the form's field at fault, when it is not the file's. */
  | { ok: false; message: string; accepted: string; field?: string };

// No word boundary: with the line breaks gone, a directive follows the previous value directly ("GPTBotDisallow:").
const DIRECTIVE = /(?:user-agent|disallow|allow|sitemap|crawl-delay)\s*:/gi;

/** Two or more directives and no line break: a multi-line file whose line breaks were removed. */
function lineBreaksStripped(text: string): boolean {
  if (/[\r\n]/.test(text)) return false;
  return (text.match(DIRECTIVE) ?? []).length >= 2;
}

const decoder = () => new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The tool's fields from a POST body already read (and bounded) as bytes. A form must carry the
 * file in a field named `field`; a urlencoded body without that field is the raw file sent with
 * curl's default content type, unless its line breaks are gone.
 */
export async function toolBody(bytes: Uint8Array, contentType: string | null, field: string, emptyIsValue: readonly string[] = []): Promise<ToolBody> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const howTo = `the raw file as the body (curl --data-binary @robots.txt), or a form with a field named ${field}`;
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentType! } }).formData();
    } catch {
      return { ok: false, message: 'The body says it is multipart/form-data but cannot be read as one.', accepted: howTo };
    }
    const fields = clientRecord<string>();
    for (const [name, value] of form.entries()) {
      if (name in fields) return { ok: false, message: `The form has two fields named ${name}; send one.`, accepted: howTo };
      fields[name] = typeof value === 'string' ? value : decoder().decode(await value.arrayBuffer());
    }
    // The site's form offers the file twice, as a text box (robots_txt) and as an upload
    // (robots_txt_file): the one filled in counts.
    const upload = fields[`${field}_file`];
    delete fields[`${field}_file`];
    if (upload !== undefined && upload !== '') {
      if ((fields[field] ?? '') !== '') return { ok: false, message: `Both ${field} and ${field}_file are filled in; send the file once.`, accepted: howTo };
      fields[field] = upload;
    }
    if (!(field in fields))
      return { ok: false, message: `The form has no field named ${field} (it has ${Object.keys(fields).join(', ') || 'none'}).`, accepted: howTo };
    return { ok: true, fields: filledIn(fields, [field, ...emptyIsValue]), form: 'multipart' };
  }
  const text = decoder().decode(bytes);
  if (type === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(text);
    if (params.has(field)) {
      // The file is read as a crawler reads it, whatever its bytes; the other fields are text.
      const undecodable = notUtf8Parameter(text, field);
      if (undecodable !== null) return notUtf8(undecodable);
      const fields = clientRecord<string>();
      for (const name of new Set(params.keys())) {
        const values = params.getAll(name);
        if (values.length > 1) return { ok: false, message: `The form has ${name} ${values.length} times; send it once.`, accepted: howTo };
        fields[name] = values[0]!;
      }
      return { ok: true, fields: filledIn(fields, [field, ...emptyIsValue]), form: 'urlencoded' };
    }
    if (lineBreaksStripped(text))
      return {
        ok: false,
        message:
          'The body was sent as a form with its line breaks removed, which is what curl -d @file does, so it cannot be read as a robots.txt. Send the file as it is with curl --data-binary @robots.txt.',
        accepted: howTo,
      };
  }
  return { ok: true, fields: { [field]: text }, form: 'raw' };
}

/**
 * A form's fields without the ones left blank: a browser sends every field of a form, and an
 * optional one a person did not fill in means "not given", not a value (an API call that sends
 * a parameter empty is still told so). The file's own field stays, since an empty robots.txt
 * is a file, and so does any field whose parameter takes empty as a value (an empty ua).
 */
function filledIn(fields: Record<string, string>, keep: readonly string[]): Record<string, string> {
  const kept = clientRecord<string>();
  for (const [name, value] of Object.entries(fields)) if (keep.includes(name) || value.trim() !== '') kept[name] = value;
  return kept;
}
