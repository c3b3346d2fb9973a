// One address typed by a person or taken from a log line, read strictly, with errors that
// say what was expected. Never throws.
//
// Accepted: IPv4 dotted decimal (four parts, no leading zeros), IPv6 in any RFC 4291 text form
// (compressed, full, with an embedded IPv4 tail held to the same rules as IPv4). An
// IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket reports for an IPv4
// client, in any of its spellings) is looked up as the IPv4 address it carries, and the answer
// says so. An IPv4-compatible one (::a.b.c.d, deprecated by RFC 4291 section 2.5.5.1) is
// refused: no client sends from one, and reading it as a.b.c.d would be a guess.

import ipaddr from 'ipaddr.js';

import { hexTail, ipv6Groups, rfc5952Text } from './ipv6-text.ts';
import type { Family } from './prefix.ts';
import { ipv4Range, ipv6Range } from './special-ranges.ts';
export type { Family };

export type AddressErrorCode =
  | 'empty'
  | 'zone-id'
  | 'prefix-not-address'
  | 'port'
  | 'ipv4-parts'
  | 'ipv4-octet'
  | 'ipv4-leading-zero'
  | 'invalid-ipv6'
  | 'ipv4-compatible'
  | 'not-an-address'
  | 'over-limit';

export interface ParsedAddress {
  ok: true;
  family: Family;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
  /** Canonical text: dotted decimal, or RFC 5952 for IPv6. */
  canonical: string;
  /** The input was an IPv4-mapped IPv6 address; `canonical` is the IPv4 address. */
  ipv4Mapped: boolean;
  /** ipaddr.js's name for the address block (unicast, private, loopback, linkLocal, ...). */
  range: string;
}

export interface AddressProblem {
  ok: false;
  code: AddressErrorCode;
  error: string;
}

const EXPECTED = 'expected one IPv4 address such as 192.0.2.1 or one IPv6 address such as 2001:db8::1';
// Long enough for the longest IPv6 text form (45 characters) with room for stray spaces.
const MAX_ADDRESS_CHARS = 64;

export function parseAddress(input: string): ParsedAddress | AddressProblem {
  if (typeof input !== 'string') return problem('not-an-address', `Not a string; ${EXPECTED}.`);
  const text = input.trim();
  if (text === '') return problem('empty', `Empty item; ${EXPECTED}.`);
  if (text.length > MAX_ADDRESS_CHARS) return problem('not-an-address', `${text.length} characters is too long for an address; ${EXPECTED}.`);
  const shown = JSON.stringify(text);

  const zone = text.indexOf('%');
  if (zone >= 0 && text.includes(':')) {
    return problem(
      'zone-id',
      `${shown} carries an IPv6 zone identifier (${JSON.stringify(text.slice(zone))}), which names a network interface on one machine; no published range can contain it. Send the address without it.`,
    );
  }
  if (text.includes('/')) return problem('prefix-not-address', `${shown} is a prefix (CIDR), not one address; ${EXPECTED}.`);
  if (/^\[.*\](:\d+)?$/.test(text) || /^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) {
    return problem('port', `${shown} looks like an address with brackets or a port; send the address alone.`);
  }

  if (text.includes(':')) return parseIpv6(text, shown);

  const dotted = canonicalDotted(text);
  if (dotted !== null) return dotted;
  if (/^[0-9.]+$/.test(text)) {
    const parts = text.split('.');
    if (parts.length !== 4 || parts.some((p) => p === '')) {
      // "1.2.3.4." has four numbers: what is wrong is the dot, so the message says that.
      const found = parts.some((p) => p === '') ? 'has a dot at its start or end, or two dots together' : `has ${parts.length} numbers`;
      return problem('ipv4-parts', `${shown} ${found}; an IPv4 address is four decimal numbers separated by dots (a.b.c.d).`);
    }
    const over = parts.find((p) => Number(p) > 255);
    if (over !== undefined) return problem('ipv4-octet', `${shown}: ${over} is over 255; each part of an IPv4 address is 0 to 255.`);
    // ipaddr.js would read 010 as octal 8; people mean ten. Refuse rather than guess.
    if (parts.some((p) => p.length > 1 && p.startsWith('0'))) {
      return problem(
        'ipv4-leading-zero',
        `${shown} has a part with a leading zero, which some software reads as octal; write each part without leading zeros.`,
      );
    }
    const v4 = ipaddr.IPv4.parse(text);
    return { ok: true, family: 'ipv4', bytes: v4.toByteArray(), canonical: v4.toString(), ipv4Mapped: false, range: ipv4Range(v4.octets) };
  }
  return problem('not-an-address', `${shown} is not an IP address; ${EXPECTED}.`);
}

function parseIpv6(text: string, shown: string): ParsedAddress | AddressProblem {
  const hex = hexTail(text);
  if (!hex.ok) {
    return hex.code === 'ipv4-leading-zero'
      ? problem(
          'ipv4-leading-zero',
          `${shown} ends in an IPv4 part (${hex.tail}) with a leading zero, which some software reads as octal; write each part without leading zeros.`,
        )
      : problem(
          'invalid-ipv6',
          `${shown} is not a valid IPv6 address (its IPv4 part ${JSON.stringify(hex.tail)} is not four decimal numbers 0 to 255); ${EXPECTED}.`,
        );
  }
  const groups = ipv6Groups(hex.text);
  if (groups === null) return problem('invalid-ipv6', `${shown} is not a valid IPv6 address; ${EXPECTED}.`);
  const bytes: number[] = [];
  for (const group of groups) bytes.push(group >> 8, group & 0xff);
  if (isIpv4Mapped(groups)) {
    const v4 = bytes.slice(12);
    return { ok: true, family: 'ipv4', bytes: v4, canonical: v4.join('.'), ipv4Mapped: true, range: ipv4Range(v4) };
  }
  if (isIpv4Compatible(bytes)) {
    const v4 = bytes.slice(12).join('.');
    return problem(
      'ipv4-compatible',
      `${shown} is an IPv4-compatible IPv6 address (::${v4}, deprecated by RFC 4291 section 2.5.5.1), which no client connects from, and not the IPv4 address ${v4}. To check that address, send ${v4} or its IPv4-mapped form ::ffff:${v4}.`,
    );
  }
  return { ok: true, family: 'ipv6', bytes, canonical: rfc5952Text(groups), ipv4Mapped: false, range: ipv6Range(groups) };
}

/** ::ffff:0:0/96 (RFC 4291 section 2.5.5.2). */
function isIpv4Mapped(groups: readonly number[]): boolean {
  for (let i = 0; i < 5; i++) if (groups[i] !== 0) return false;
  return groups[5] === 0xffff;
}

/** ::/96 but for :: and ::1 (unspecified and loopback, which are addresses of their own). */
function isIpv4Compatible(bytes: readonly number[]): boolean {
  for (let i = 0; i < 12; i++) if (bytes[i] !== 0) return false;
  return bytes[12]! + bytes[13]! + bytes[14]! > 0 || bytes[15]! > 1;
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The common case read directly: four decimal octets without leading zeros are already the
 * canonical text (ipaddr.js's general parser is most of a 500-address call's cost). Anything
 * else returns null and takes the checks below, which explain what is wrong.
 */
function canonicalDotted(text: string): ParsedAddress | null {
  const match = DOTTED.exec(text);
  if (match === null) return null;
  const bytes: number[] = [];
  for (let i = 1; i <= 4; i++) {
    const part = match[i]!;
    const value = Number(part);
    if (value > 255 || (part.length > 1 && part.startsWith('0'))) return null;
    bytes.push(value);
  }
  return { ok: true, family: 'ipv4', bytes, canonical: text, ipv4Mapped: false, range: ipv4Range(bytes) };
}

function problem(code: AddressErrorCode, error: string): AddressProblem {
  return { ok: false, code, error };
}
