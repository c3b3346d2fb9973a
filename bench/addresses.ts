// The addresses of the verify-crawler row: half inside the prefixes the index mirrors (so that
// every lookup walks deep into the trie and most answers name a crawler), half random public
// IPv4 addresses (mostly in no published range). Seeded, so every run sends the same list.
import ipaddr from 'ipaddr.js';
import { parsePrefix, type Prefix } from '../pipeline/net/prefix.ts';
import { seededRandom, type Random } from '../test/support/random.ts';

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? new Map<string, unknown>(Object.entries(value)).get(key) : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The prefixes of dist/ip-ranges/all.json: { sources: [{ ipv4: [...], ipv6: [...] }, ...] }. */
export function mirroredPrefixes(allJson: unknown): Prefix[] {
  const sources = field(allJson, 'sources');
  const texts = (Array.isArray(sources) ? sources : []).flatMap((s: unknown) => [...strings(field(s, 'ipv4')), ...strings(field(s, 'ipv6'))]);
  return texts.flatMap((text) => {
    const read = parsePrefix(text);
    return read.ok ? [read.prefix] : [];
  });
}

/** A random address inside `prefix`: its network bits, random host bits. */
function inside(random: Random, prefix: Prefix): string {
  const bytes = prefix.bytes.map((byte, i) => {
    const kept = Math.max(0, Math.min(8, prefix.length - i * 8));
    const mask = (0xff << (8 - kept)) & 0xff;
    return (byte & mask) | (random.int(256) & ~mask & 0xff);
  });
  return ipaddr.fromByteArray(bytes).toString();
}

/** A random IPv4 address in public unicast space (not private, loopback, reserved, ...). */
function publicIPv4(random: Random): string {
  for (;;) {
    const address = ipaddr.fromByteArray([random.int(256), random.int(256), random.int(256), random.int(256)]);
    if (address.range() === 'unicast') return address.toString();
  }
}

export function benchAddresses(prefixes: readonly Prefix[], count: number, seed = 8): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => (i % 2 === 0 && prefixes.length > 0 ? inside(random, random.pick(prefixes)) : publicIPv4(random)));
}
