import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

// Stand-ins for the hosts dist/ is published on, built on sirv (the design's plain static
// server). `plain` is the least any static host does: a file at its own path, and a folder's
// URL (/tools/) answered by its index.html; no clean URLs (/reference for reference.html), no
// rewrites, no single-page fallback, no _headers or _redirects (S3, nginx or Apache as
// installed). `rules` is a host that reads _headers and _redirects, Netlify's format, as
// Netlify and Cloudflare Pages do, and like them serves /x from x.html.

/** One block of _headers: a path (a trailing `*` matches any rest) and its headers. */
export interface HeaderRule {
  path: string;
  headers: [name: string, value: string][];
}

export interface RedirectRule {
  from: string;
  to: string;
  status: number;
}

/** Reads _headers as the hosts document it: a path at the start of a line, its headers indented under it, `#` comments. */
export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      rules.push({ path: line.trim(), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    const rule = rules.at(-1);
    if (rule === undefined || colon < 0) throw new Error(`_headers line ${index + 1} is neither a path nor an indented "Name: value": ${line}`);
    rule.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** Reads _redirects: `from to [status]` per line (302 when no status is given, as Netlify does), `#` comments. */
export function parseRedirects(text: string): RedirectRule[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line, index) => {
      const [from, to, status, ...rest] = line.split(/\s+/);
      if (from === undefined || to === undefined || rest.length > 0) throw new Error(`_redirects rule ${index + 1} is not "from to [status]": ${line}`);
      return { from, to, status: status === undefined ? 302 : Number(status) };
    });
}

export function headerRuleMatches(rule: HeaderRule, path: string): boolean {
  return rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : path === rule.path;
}

export interface StaticHost {
  url: string;
  close(): Promise<void>;
}

export interface HostRules {
  headers: readonly HeaderRule[];
  redirects: readonly RedirectRule[];
}

/**
 * A static host over `dir` on a random loopback port; with `rules`, one that reads _headers and
 * _redirects; with `mount`, one that publishes the folder under that path (/mirror/...), as
 * GitHub Pages publishes a repository's site under /<repo>/.
 */
export async function startStaticHost(dir: string, rules?: HostRules, mount = ''): Promise<StaticHost> {
  const files = sirv(dir, {
    // The plain host tries the path itself, then a folder's index: '' first, then 'html' for
    // `<folder>/index` only (see below). The rules host also serves /x from x.html.
    extensions: rules ? ['html'] : [],
    etag: true,
    setHeaders: (res, pathname) => {
      for (const rule of rules?.headers ?? []) if (headerRuleMatches(rule, pathname)) for (const [name, value] of rule.headers) res.setHeader(name, value);
    },
  });
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (!url.pathname.startsWith(`${mount}/`)) return notFound(res);
    const path = url.pathname.slice(mount.length);
    req.url = `${path}${url.search}`;
    const redirect = rules?.redirects.find((rule) => rule.from === path);
    if (redirect) {
      res.writeHead(redirect.status, { location: redirect.to });
      res.end();
      return;
    }
    // The index document: what every static host does for a folder's URL.
    if (path.endsWith('/')) req.url = `${path}index.html`;
    files(req, res, () => notFound(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
