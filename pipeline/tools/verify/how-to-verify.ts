// How a request claiming to be a crawler can be checked, from the record alone. Shared by
// verify-crawler (when an address is in no published range) and verification-methods.

import type { CrawlerView, VerificationView } from '../../model/model.ts';

export interface HowToVerify {
  /** The strongest method (the record's verification_method). */
  method: CrawlerView['verification_method'];
  label: string;
  /** Every method the operator documents, strongest first. */
  methods: CrawlerView['verification_method'][];
  /** Plain steps, in order: one group per method. */
  steps: string[];
  /** Shell commands to run, in order (reverse DNS only). */
  commands: string[];
  /** Hostname suffixes a genuine reverse DNS answer ends in. */
  hostnames: string[];
  /** This service's mirrored lists of the crawler's prefixes. */
  ip_sources: string[];
  /** The autonomous systems the operator says the crawler sends from. */
  asns: number[];
  /** The Web Bot Auth key directory its requests are signed with. */
  signature_directory: string | null;
}

type Crawler = Pick<
  CrawlerView,
  'name' | 'operator' | 'verification_method' | 'verification_label' | 'verification_source' | 'verification' | 'reverse_dns_hostnames' | 'ip_sources'
>;

/** `address` fills the commands in; without it they hold the placeholder `<ip>`. */
export function howToVerify(crawler: Crawler, address?: string): HowToVerify {
  const ip = address ?? '<ip>';
  const steps: string[] = [];
  const commands: string[] = [];
  for (const entry of crawler.verification) {
    const part = stepsFor(crawler, entry, ip);
    steps.push(...part.steps);
    commands.push(...part.commands);
  }
  if (crawler.verification_source === 'third-party') {
    steps.push(
      `These checks come from a third party, not from ${crawler.operator} (the record cites it): a request that passes is likely ${crawler.name}, not proven to be; one that fails may still be, if the third party's copy is out of date.`,
    );
  }
  return {
    method: crawler.verification_method,
    label: crawler.verification_label,
    methods: crawler.verification.map((entry) => entry.method),
    steps,
    commands,
    hostnames: [...crawler.reverse_dns_hostnames],
    ip_sources: [...crawler.ip_sources],
    asns: crawler.verification.flatMap((entry) => entry.asns),
    signature_directory: crawler.verification.find((entry) => entry.directory !== null)?.directory ?? null,
  };
}

function stepsFor(crawler: Crawler, entry: VerificationView, ip: string): { steps: string[]; commands: string[] } {
  const { name, operator } = crawler;
  const only = (step: string) => ({ steps: [step], commands: [] });
  switch (entry.method) {
    case 'published-ranges': {
      const lists = entry.sources.length > 0 ? entry.sources.join(', ') : 'none mirrored here';
      return only(`Check ${ip} against the IP prefixes ${operator} publishes for ${name} (this service's copies: ${lists}); verify-crawler does this.`);
    }
    case 'fixed-ips': {
      const count = `${entry.addresses.length} ${entry.addresses.length === 1 ? 'address' : 'addresses'}`;
      const whose =
        crawler.verification_source === 'third-party' ? `a third-party list gives for ${operator}'s ${name}` : `${operator} lists on its page for ${name}`;
      return only(`Check ${ip} against the ${count} ${whose} (${entry.addresses.join(', ')}); verify-crawler does this.`);
    }
    case 'reverse-dns':
      return reverseDnsSteps(entry.hostnames, ip);
    case 'asn': {
      const systems = entry.asns.map((n) => `AS${n}`).join(', ');
      const where =
        entry.sources.length > 0
          ? `verify-crawler checks it against this service's copy of the operator's announced prefixes (${entry.sources.join(', ')})`
          : `look the address up in a routing registry (for example \`whois -h whois.radb.net ${ip}\`) and read its origin AS`;
      return only(
        `${operator} says ${name} sends only from ${systems}: ${where}. An address outside it is not ${name}; one inside it is ${operator}'s, which does not by itself prove ${name} sent the request.`,
      );
    }
    case 'web-bot-auth':
      return only(
        `${name} signs its requests (HTTP Message Signatures, Web Bot Auth): a genuine request carries Signature, Signature-Input and Signature-Agent${entry.signature_agent ? ` ("${entry.signature_agent}")` : ''} headers whose signature verifies with a key from ${entry.directory ?? 'its key directory'}. This needs the request's headers, not only its address: verify_signature checks them.`,
      );
    case 'none':
      return only(`${operator} publishes no verification method for ${name}: neither an address nor the User-Agent header can prove a request came from it.`);
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

/**
 * The ways to check a claim that need none of this service's lists, as one phrase, for an
 * answer that cannot rule an address out; null when the operator documents none.
 */
export function otherMethods(how: HowToVerify): string | null {
  const phrases = how.methods.flatMap((method): string[] => {
    switch (method) {
      case 'reverse-dns':
        return how.hostnames.length === 0
          ? []
          : [
              `forward-confirmed reverse DNS (the address's hostname must end in ${orList(how.hostnames.map((h) => `.${h.replace(/^\.+/, '')}`))} and resolve back to the address)`,
            ];
      case 'asn':
        return how.asns.length === 0
          ? []
          : [`the address's origin AS in a routing registry (it must be ${orList(how.asns.map((n) => `AS${n}`))}; for example whois -h whois.radb.net <ip>)`];
      case 'web-bot-auth':
        return [`the request's Web Bot Auth signature (verify_signature)`];
      default:
        return [];
    }
  });
  return phrases.length === 0 ? null : orList(phrases);
}
