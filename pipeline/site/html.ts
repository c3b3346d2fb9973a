// A tiny tagged-template HTML builder: every interpolated value is escaped unless it is
// already markup built by `html`, so a record can never inject markup into a page.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export class Markup {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

type Value = Markup | string | number | boolean | null | undefined | readonly Value[];

function show(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return (value as readonly Value[]).map(show).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  return new Markup(strings.reduce((out, part, index) => out + part + (index < values.length ? show(values[index] as Value) : ''), ''));
}

/**
 * A record's free text, which is written for Markdown as well (the .md pages, the policies'
 * caveats): escaped, with each `backquoted` span shown as code instead of with its backquotes.
 */
export function prose(text: string): Markup {
  return new Markup(
    text
      .split(/`([^`]+)`/)
      .map((part, i) => (i % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
      .join(''),
  );
}
