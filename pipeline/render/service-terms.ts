import { type Model, url } from '../model/model.ts';
import type { SiteSettings } from '../records/types.ts';
import { href, API_PREFIX } from '../paths.ts';
import { routes } from '../routes.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_RETENTION_DAYS, USER_AGENT_LIMIT } from '../log/types.ts';
import { canonicalJson } from '../util/canonical-json.ts';
import type { RenderedFile } from './output.ts';
import { REFERENCE_PATH } from './reference.ts';

// What a user of the service agrees to, how to report a flaw, what the server keeps about
// them, and how to start: security.txt (RFC 9116), /security.json, /terms.json,
// /privacy.json, /register and /.well-known/api-onboarding.

/**
 * RFC 9116 wants Expires less than a year ahead, and the build wants an unchanged rebuild to
 * write nothing. So Expires is eleven months after the file last changed, and the file is
 * renewed (its date moved to the build's) once six months have passed: it always has five to
 * eleven months left, and the cron commits it twice a year, never on an ordinary run.
 */
const RENEW_AFTER_MONTHS = 6;
const VALID_FOR_MONTHS = 11;

const addMonths = (time: string, months: number) => {
  const date = new Date(time);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));
};

/** When security.txt last changed at `lastChanged` is due for renewal (epoch ms): a build from then on renders it anew. */
function securityTxtRenewalDue(lastChanged: string): number {
  return addMonths(lastChanged, RENEW_AFTER_MONTHS).getTime();
}

/** The time security.txt counts its validity from: when it last changed, or now when that is due for renewal. */
export function securityTxtBase(lastChanged: string, now: string): string {
  return securityTxtRenewalDue(lastChanged) <= Date.parse(now) ? now : lastChanged;
}

export function securityTxtExpiry(base: string): string {
  return addMonths(base, VALID_FOR_MONTHS)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}

function securityTxt(site: SiteSettings, base: string): string {
  return [
    `# Security contact for ${site.name} (RFC 9116). Please report vulnerabilities privately through the form below;`,
    '# public issues are for everything else. This file is renewed by every build.',
    `Contact: ${site.security_contact}`,
    `Expires: ${securityTxtExpiry(base)}`,
    'Preferred-Languages: en',
    `Canonical: ${url(site, href('security_txt'))}`,
    `Policy: ${url(site, href('security'))}`,
    '',
  ].join('\n');
}

function securityPolicy(site: SiteSettings) {
  return {
    report_to: site.security_contact,
    security_txt: url(site, href('security_txt')),
    how: 'Report privately through the repository security advisory form; include the URL, the request and what you observed. Please do not open a public issue for a vulnerability.',
    in_scope: [
      `The Node server (serve.ts) and everything it answers: documents, tools, MCP and A2A endpoints, ${href('stats')} and ${href('hits')}`,
      'The build and refresh pipeline, including how it fetches and parses operator IP lists',
      'Data that would let a spoofer pass verification: a wrong prefix, a wrong user-agent pattern',
    ],
    out_of_scope: [
      'Findings that need a request rate no shared host would allow (denial of service by volume)',
      'The static host in front of a copy of dist/ (report those to its operator)',
    ],
    supported: 'The newest commit of the default branch; there are no maintained older releases.',
    exposed: {
      authentication: `None, except the export key of ${href('hits')}, compared in constant time and never logged`,
      writes: 'Nothing can be written through the API; the only POST bodies are tool inputs and JSON-RPC messages',
      stored_about_visitors: url(site, href('privacy')),
    },
  };
}

function terms(site: SiteSettings) {
  return {
    service: site.name,
    license: {
      id: site.license,
      text: 'All data and code are dedicated to the public domain under CC0 1.0 Universal: copy, change and republish them without asking or attributing (a link back is welcome).',
    },
    access: { api_key: false, account: false, registration: url(site, href('register')), rate_limit: 'none imposed' },
    fair_use: `The documents change every six hours at most: use ETag or Last-Modified, poll ${href('changes')} no more often than that, and take ${href('agents')} whole rather than crawling every record.`,
    warranty:
      'None. The index is assembled with care from the sources it cites, but may be incomplete, out of date or wrong; verify what matters against the operator pages it cites. Robots.txt asks; it does not enforce.',
    affiliation: 'An independent, non-commercial project, not affiliated with the operators it documents.',
    changes: `Changes to these terms are commits to ${site.repository}; the git log is their history.`,
    privacy: url(site, href('privacy')),
  };
}

/** Generated from the log's own constants, so the statement cannot drift from what is kept. */
function privacy(site: SiteSettings) {
  return {
    summary:
      'The Node server keeps a log of requests to count what is used and which crawlers visit. It never stores an address or a query string, sets no cookie, and shares nothing with anyone.',
    request_log: {
      kept_per_request: [
        'time',
        'method',
        'the route template of the path (such as /crawler/{slug}.json), never the query string',
        'status, bytes sent and duration',
        'the crawler the User-Agent names, its category, and what its address showed (genuine, operator-network, not-genuine, unverifiable)',
        'a salted hash of the address',
        `the User-Agent, cut to ${USER_AGENT_LIMIT} characters`,
      ],
      address:
        "Hashed with a random salt that lives only in the server process's memory and is replaced at every UTC midnight and every restart; it is never written down, so a stored hash cannot be reversed by hashing every address, nor linked to the same address on another day.",
      retention_days_default: DEFAULT_RETENTION_DAYS,
      retention: `Rows older than the retention period (${DEFAULT_RETENTION_DAYS} days unless the operator of the server sets --log-retention-days) are deleted every hour, and earlier, oldest first, when the log reaches its size cap (${DEFAULT_MAX_BYTES / (1024 * 1024)} MiB unless the operator sets --log-max-mb).`,
      who_can_read: {
        public: `${url(site, href('stats'))}: daily counts only (by route, status, crawler, category and verdict), no hash and no User-Agent`,
        export_key_holders: `${url(site, href('hits'))}: the rows themselves, for whoever runs the server (EXPORT_KEY)`,
      },
      turned_off_by: '--no-log; a static copy of dist/ keeps no log of its own (its host may).',
    },
    access_log:
      "Off unless the operator of a server starts it with --access-log: it then prints a line per request on the server's standard output (the address as sent, the time, the request line, the status, the bytes, the Referer and the User-Agent), for the operator's own log collection, which decides how long it is kept.",
    cookies: false,
    third_parties: 'None: no analytics, fonts, scripts or images from other hosts.',
    contact: site.contact,
  };
}

function register(site: SiteSettings) {
  return {
    registration_required: false,
    message: `There is nothing to register: ${site.name} has no API keys, accounts or sign-up. Every path except ${href('hits')} answers anyone.`,
    start_here: url(site, href('api_onboarding')),
    reference: url(site, REFERENCE_PATH),
  };
}

/** The first calls a newcomer makes, each a URL that answers as it stands. */
function onboarding(site: SiteSettings) {
  const example = routes().find((r) => r.key === 'tool_classify_user_agent');
  return {
    api: site.name,
    auth: 'none',
    steps: [
      { step: 'Read the reference, or give a model the llms.txt index', urls: [url(site, REFERENCE_PATH), url(site, href('llms'))] },
      {
        step: 'Take the whole crawler list (JSON or CSV); keep its ETag and ask again with If-None-Match',
        urls: [url(site, href('agents')), url(site, href('agents_csv'))],
      },
      {
        step: 'Ask a tool a question: no parameters returns its specification',
        urls: [url(site, href('tools')), ...(example ? [`${url(site, example.path)}?ua=GPTBot%2F1.2`] : [])],
      },
      { step: 'Follow what changes instead of re-reading everything', urls: [url(site, href('changes')), url(site, href('feed_json'))] },
      { step: 'Connect an MCP client or an A2A agent', urls: [url(site, '/mcp'), url(site, href('agent_card'))] },
    ],
    openapi: url(site, href('openapi')),
    base_urls: [site.base_url, url(site, API_PREFIX)],
    registration: url(site, href('register')),
    terms: url(site, href('terms')),
    support: site.contact,
  };
}

export function renderServiceTerms(model: Model, { now }: { now: string }): RenderedFile[] {
  const { site } = model;
  return [
    // Rendered from its own last change (the stamp), so an ordinary rebuild leaves it as it is.
    {
      path: href('security_txt'),
      kind: 'service-terms',
      body: (stamp) => securityTxt(site, securityTxtBase(stamp, now)),
      renewsAt: securityTxtRenewalDue,
    },
    { path: href('security'), kind: 'service-terms', body: canonicalJson(securityPolicy(site)) },
    { path: href('terms'), kind: 'service-terms', body: canonicalJson(terms(site)) },
    { path: href('privacy'), kind: 'service-terms', body: canonicalJson(privacy(site)) },
    { path: href('register'), kind: 'service-terms', body: canonicalJson(register(site)) },
    { path: href('api_onboarding'), kind: 'service-terms', body: canonicalJson(onboarding(site)) },
  ];
}
