import type { Problem, RecordSet } from '../types.ts';
import { crawlerFile } from './where.ts';

// RFC 9309 2.2.1: product-token = identifier, identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A).
const PRODUCT_TOKEN = /^[A-Za-z_-]+$/;

export function isProductToken(token: string): boolean {
  return PRODUCT_TOKEN.test(token);
}

/** The part of a token that a parser reading only product-token characters keeps (`AI2Bot` → `AI`). */
export function strictPrefix(token: string): string {
  return /^[A-Za-z_-]*/.exec(token)?.[0] ?? '';
}

/**
 * Tokens with digits, dots or spaces are the operators' real tokens and stay, but site owners
 * must be told that strict parsers do not see the whole token, so the record has to say it.
 */
export function checkProductTokens(records: RecordSet): Problem[] {
  return records.crawlers
    .filter((crawler) => !isProductToken(crawler.robots_token) && crawler.robots_token_note === undefined)
    .map((crawler) => ({
      file: crawlerFile(crawler.slug),
      path: '/robots_token_note',
      message: `"${crawler.robots_token}" is not an RFC 9309 product token (strict parsers read "${strictPrefix(crawler.robots_token)}"); add robots_token_note saying so`,
    }));
}
