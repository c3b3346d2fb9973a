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
  return records.crawlers.flatMap(({ slug, robots_token: token, robots_token_note: note }) =>
    // A null token has its note required by the schema.
    token === null || isProductToken(token) || note !== undefined
      ? []
      : [
          {
            file: crawlerFile(slug),
            path: '/robots_token_note',
            message: `"${token}" is not an RFC 9309 product token (strict parsers read "${strictPrefix(token)}"); add robots_token_note saying so`,
          },
        ],
  );
}
