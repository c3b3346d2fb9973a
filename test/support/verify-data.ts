// Test support, not runtime code: it reads files with node:fs, so only *.test.ts and benchmarks import it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import type { CrawlerView } from '../../pipeline/model/model.ts';
import type { SourceRow } from '../../pipeline/records/types.ts';
import { fixtureCrawler } from './classify-data.ts';
import ipaddr from 'ipaddr.js';
import type { PrefixSource } from '../../pipeline/tools/verify/sources.ts';
import type { Prefix } from '../../pipeline/net/prefix.ts';
import type { Random } from './random.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
export const MIRROR_DIR = `${repo}state/mirror`;
// Real operator lists kept in the repository (test/fixtures/reference/README.md), so the tests using them run everywhere.
const REFERENCE_DIR = `${repo}test/fixtures/reference/upstream`;

/** When the fixture lists were accepted, and a time two hours later to judge them at: current copies. */
export const FIXTURE_ACCEPTED = '2026-01-01T00:00:00Z';
export const FIXTURE_NOW = Date.parse('2026-01-01T02:00:00Z');

/**
 * A hand-built index small enough to reason about:
 *   acme-main   192.0.2.0/24, 198.51.100.128/25, 2001:db8:1::/48     for acmebot
 *   acme-user   192.0.2.0/24 (again), 203.0.113.0/24, 203.0.113.7/32  for acme-user
 *   other-lists 192.0.2.128/26 (inside the /24), 2001:db8::/32 (around the /48),
 *               2001:db8:ffff::1/128, 10.0.0.0/8                      for otherbot
 */
export function fixtureSources(): PrefixSource[] {
  return [
    {
      id: 'acme-main',
      operator: 'acme',
      crawlers: ['acmebot'],
      scope: 'crawlers',
      mirror: { ipv4: ['192.0.2.0/24', '198.51.100.128/25'], ipv6: ['2001:db8:1::/48'], state: 'ok', confirmed_at: FIXTURE_ACCEPTED },
    },
    {
      id: 'acme-user',
      operator: 'acme',
      crawlers: ['acme-user'],
      scope: 'crawlers',
      mirror: { ipv4: ['192.0.2.0/24', '203.0.113.0/24', '203.0.113.7/32'], ipv6: [], state: 'ok', confirmed_at: FIXTURE_ACCEPTED },
    },
    {
      id: 'other-lists',
      operator: 'other',
      crawlers: ['otherbot'],
      scope: 'crawlers',
      mirror: { ipv4: ['10.0.0.0/8', '192.0.2.128/26'], ipv6: ['2001:db8::/32', '2001:db8:ffff::1/128'], state: 'ok', confirmed_at: FIXTURE_ACCEPTED },
    },
  ];
}

export function fixtureCrawlers(): CrawlerView[] {
  const empty = { sources: [], hostnames: [], asns: [], directory: null, signature_agent: null, addresses: [], note: null };
  const rangesOf = (source: string) =>
    ({
      verification_method: 'published-ranges',
      verification_label: 'Operator publishes its IP prefixes',
      verification: [{ ...empty, method: 'published-ranges', label: 'Operator publishes its IP prefixes', sources: [source] }],
    }) satisfies Partial<CrawlerView>;
  return [
    fixtureCrawler('acmebot', {
      name: 'AcmeBot',
      user_agent_substring: 'AcmeBot',
      robots_token: 'AcmeBot',
      ...rangesOf('acme-main'),
      ip_sources: ['acme-main'],
    }),
    fixtureCrawler('acme-user', {
      name: 'Acme-User',
      user_agent_substring: 'Acme-User',
      robots_token: 'Acme-User',
      ...rangesOf('acme-user'),
      ip_sources: ['acme-user'],
    }),
    fixtureCrawler('acme-dns', {
      name: 'AcmeDNSBot',
      user_agent_substring: 'AcmeDNSBot',
      robots_token: 'AcmeDNSBot',
      verification_method: 'reverse-dns',
      verification_label: 'Forward-confirmed reverse DNS',
      reverse_dns_hostnames: ['crawl.acme.example', 'acme.example'],
      verification: [{ ...empty, method: 'reverse-dns', label: 'Forward-confirmed reverse DNS', hostnames: ['crawl.acme.example', 'acme.example'] }],
    }),
    fixtureCrawler('acme-none', { name: 'AcmeQuiet', user_agent_substring: 'AcmeQuiet', robots_token: 'AcmeQuiet' }),
    fixtureCrawler('acme-extended', {
      name: 'Acme-Extended',
      user_agent_substring: null,
      user_agent_example: null,
      robots_token: 'Acme-Extended',
      robots_only: true,
    }),
    fixtureCrawler('otherbot', {
      name: 'OtherBot',
      operator_slug: 'other',
      user_agent_substring: 'OtherBot',
      robots_token: 'OtherBot',
      ...rangesOf('other-lists'),
      ip_sources: ['other-lists'],
    }),
  ];
}

function sourceRows(): SourceRow[] {
  return parseYaml(readFileSync(`${repo}records/sources.yaml`, 'utf8')) as SourceRow[];
}

// Reference copies named differently from our source ids.
const REFERENCE_ALIASES: Record<string, string> = { 'bing-bingbot': 'microsoft-bingbot' };

/**
 * The real source rows filled with the operators' real lists from the reference fixtures (the
 * newest version of each). Rows without a reference copy are left empty, as in a mirror that
 * has not fetched them yet. A missing fixture folder throws with its path: it is part of the
 * repository, so its absence is a broken checkout, not a reason to skip.
 */
export function referenceSources(): PrefixSource[] {
  const lists = new Map<string, { ipv4: string[]; ipv6: string[] }>();
  for (const name of readdirSync(REFERENCE_DIR)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const base = name.replace(/(\.v\d+)?\.json$/, '');
    const doc = JSON.parse(readFileSync(`${REFERENCE_DIR}/${name}`, 'utf8')) as { prefixes?: { ipv4Prefix?: string; ipv6Prefix?: string }[] };
    const prefixes = doc.prefixes ?? [];
    // Sorted names put .v2 after .v1, so the newest version is the one kept.
    lists.set(REFERENCE_ALIASES[base] ?? base, {
      ipv4: prefixes.flatMap((p) => (p.ipv4Prefix ? [p.ipv4Prefix] : [])),
      ipv6: prefixes.flatMap((p) => (p.ipv6Prefix ? [p.ipv6Prefix] : [])),
    });
  }
  return sourceRows().map((row) => {
    const list = lists.get(row.id);
    return {
      id: row.id,
      operator: row.operator,
      crawlers: row.crawlers,
      scope: row.scope ?? 'crawlers',
      mirror: list ? { ...list, state: 'ok', confirmed_at: FIXTURE_ACCEPTED } : { ipv4: [], ipv6: [], state: 'never-fetched', confirmed_at: null },
    };
  });
}

/** The real mirror (state/mirror/*.json) joined with the source rows; null when nothing was fetched yet. */
export function mirrorSources(): PrefixSource[] | null {
  if (!existsSync(MIRROR_DIR)) return null;
  const names = readdirSync(MIRROR_DIR).filter((n) => n.endsWith('.json'));
  if (names.length === 0) return null;
  const entries = new Map(
    names.map((n) => {
      const entry = JSON.parse(readFileSync(`${MIRROR_DIR}/${n}`, 'utf8')) as {
        id: string;
        ipv4: string[];
        ipv6: string[];
        state: string;
        last_success: string | null;
      };
      return [entry.id, entry] as const;
    }),
  );
  return sourceRows().map((row) => {
    const entry = entries.get(row.id);
    return {
      id: row.id,
      operator: row.operator,
      crawlers: row.crawlers,
      scope: row.scope ?? 'crawlers',
      mirror: entry
        ? { ipv4: entry.ipv4, ipv6: entry.ipv6, state: entry.state, confirmed_at: entry.last_success }
        : { ipv4: [], ipv6: [], state: 'never-fetched', confirmed_at: null },
    };
  });
}

/** Adds `delta` (-1, 0 or +1) to a byte array as one big number, wrapping at the ends. */
function step(bytes: number[], delta: number): number[] {
  const out = [...bytes];
  for (let i = out.length - 1; i >= 0 && delta !== 0; i--) {
    const v = out[i]! + delta;
    out[i] = (v + 256) % 256;
    delta = v < 0 ? -1 : v > 255 ? 1 : 0;
  }
  return out;
}

/** Seeded addresses: inside prefixes, just outside them, anywhere, and other spellings. */
export function randomAddresses(rnd: Random, prefixes: readonly Prefix[], count: number): string[] {
  const text = (bytes: number[]) => ipaddr.fromByteArray(bytes).toString();
  const randomBytes = (n: number) => Array.from({ length: n }, () => rnd.int(256));
  const out: string[] = [];
  while (out.length < count) {
    const kind = rnd.int(10);
    const p = prefixes.length > 0 ? rnd.pick(prefixes) : null;
    if (p !== null && kind < 4) {
      // Inside a prefix: its network bits, random host bits.
      const host = randomBytes(p.bytes.length);
      const bytes = p.bytes.map((b, i) => {
        const keep = Math.max(0, Math.min(8, p.length - i * 8));
        const mask = keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
        return (b & mask) | (host[i]! & ~mask & 0xff);
      });
      out.push(text(bytes));
    } else if (p !== null && kind < 6) {
      // Just before the first address, or just after the last.
      const last = p.bytes.map((b, i) => b | (0xff >> Math.max(0, Math.min(8, p.length - i * 8))));
      out.push(text(rnd.int(2) === 0 ? step(p.bytes, -1) : step(last, 1)));
    } else if (kind < 8) {
      out.push(text(randomBytes(4)));
    } else if (kind < 9) {
      out.push(text([0x20 | rnd.int(2), ...randomBytes(15)]));
    } else {
      // Other spellings: mapped IPv4, and items that must be refused identically.
      out.push(rnd.pick([`::ffff:${text(randomBytes(4))}`, `${rnd.int(999)}.${rnd.int(999)}.1.1`, 'fe80::1%eth0', '', 'not-an-ip']));
    }
  }
  return out;
}
