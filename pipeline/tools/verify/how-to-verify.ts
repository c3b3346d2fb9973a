// How a request claiming to be a crawler can be checked, from the record alone. Shared by
// verify-crawler (when an address is in no published range) and verification-methods.

import type { CrawlerView } from '../../model/model.ts';

export interface HowToVerify {
  method: CrawlerView['verification_method'];
  label: string;
  /** Plain steps, in order. */
  steps: string[];
  /** Shell commands to run, in order (reverse DNS only). */
  commands: string[];
  /** Hostname suffixes a genuine reverse DNS answer ends in. */
  hostnames: string[];
  /** This service's mirrored lists of the crawler's prefixes. */
  ip_sources: string[];
}

type Crawler = Pick<CrawlerView, 'name' | 'operator' | 'verification_method' | 'verification_label' | 'reverse_dns_hostnames' | 'ip_sources'>;

/** `address` fills the commands in; without it they hold the placeholder `<ip>`. */
export function howToVerify(crawler: Crawler, address?: string): HowToVerify {
  const ip = address ?? '<ip>';
  const hostnames = [...crawler.reverse_dns_hostnames];
  const dns = hostnames.length > 0 ? reverseDnsSteps(hostnames, ip) : { steps: [], commands: [] };
  const base = { method: crawler.verification_method, label: crawler.verification_label, hostnames, ip_sources: [...crawler.ip_sources] };

  switch (crawler.verification_method) {
    case 'published-ranges': {
      const lists = crawler.ip_sources.length > 0 ? crawler.ip_sources.join(', ') : 'none mirrored here';
      const steps = [
        `Check ${ip} against the IP prefixes ${crawler.operator} publishes for ${crawler.name} (this service's copies: ${lists}); verify-crawler does this.`,
      ];
      if (dns.steps.length > 0) steps.push(`${crawler.operator} also documents forward-confirmed reverse DNS:`, ...dns.steps);
      return { ...base, steps, commands: dns.commands };
    }
    case 'reverse-dns':
      if (hostnames.length === 0) {
        return {
          ...base,
          steps: [`${crawler.operator} documents reverse DNS verification for ${crawler.name}, but the record names no hostnames to expect.`],
          commands: [],
        };
      }
      return { ...base, steps: dns.steps, commands: dns.commands };
    case 'none':
      return {
        ...base,
        steps: [
          `${crawler.operator} publishes no verification method for ${crawler.name}: neither an address nor the User-Agent header can prove a request came from it.`,
        ],
        commands: [],
      };
  }
}

function reverseDnsSteps(hostnames: readonly string[], ip: string): { steps: string[]; commands: string[] } {
  const suffixes = hostnames.map((h) => `.${h.replace(/^\.+/, '')}`);
  return {
    steps: [
      `Run \`host ${ip}\`: the answer (a PTR record) must be a hostname ending in ${orList(suffixes)}.`,
      `Run \`host <hostname>\` with that hostname: the addresses it returns must include ${ip}. Both checks must pass, since whoever controls an address can put any name in its reverse zone.`,
    ],
    commands: [`host ${ip}`, 'host <hostname>'],
  };
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
