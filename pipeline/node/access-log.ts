// One line per answered request on standard output (`--access-log`), in the combined format
// nginx and Apache write by default, so the tools people point at a server's log (goaccess,
// awstats, grep and awk) read it as it is:
//
//   192.0.2.7 - - [28/Nov/2026:21:06:00 +0000] "GET /crawler/gptbot.json HTTP/1.1" 200 2903 "-" "curl/8.5.0" 0.002
//
// After the User-Agent comes the time taken to answer, in seconds (nginx's $request_time). Every
// field a client chose (the request target, Referer, User-Agent) is escaped as nginx escapes it:
// `"` and `\` and any byte outside printable ASCII as \xHH, so no client can end a line early or
// forge one. Off by default: unlike the request log it holds the client's address as sent.

/** What the line says of one request. */
export interface AccessRecord {
  /** When it arrived (epoch ms). */
  at: number;
  address: string | null;
  method: string;
  target: string;
  httpVersion: string;
  status: number;
  bytes: number;
  durationMs: number;
  referer: string | null;
  userAgent: string | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** [28/Nov/2026:21:06:00 +0000]: the time in UTC, as the combined format writes it. */
function clfTime(at: number): string {
  const d = new Date(at);
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** A client's text as one field: printable ASCII as it is, `"`, `\` and everything else as \xHH (of each UTF-16 unit, at most \xFF for a header). */
export function escapeField(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : text[i];
  }
  return out;
}

const quoted = (text: string | null) => `"${text === null || text === '' ? '-' : escapeField(text)}"`;

export function accessLine(record: AccessRecord): string {
  const request = `${escapeField(record.method)} ${escapeField(record.target)} HTTP/${escapeField(record.httpVersion)}`;
  return `${record.address ?? '-'} - - [${clfTime(record.at)}] "${request}" ${record.status} ${record.bytes} ${quoted(record.referer)} ${quoted(record.userAgent)} ${(record.durationMs / 1000).toFixed(3)}\n`;
}

/**
 * Lines written together once per turn of the event loop: one write to standard output for
 * however many requests a turn answered, instead of one each. `close()` writes what is left.
 */
export function accessLog(write: (text: string) => void): { record(record: AccessRecord): void; close(): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    write(text);
  };
  return {
    record(record) {
      pending.push(accessLine(record));
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    close: flush,
  };
}
