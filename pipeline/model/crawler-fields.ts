import type { CrawlerView } from './model.ts';

/**
 * The named fields of a crawler, in the order named, lists copied: the one way an answer quotes
 * part of a record (a classification, a verification claim, a robots.txt verdict), so a field is
 * spelt and typed once, in CrawlerView, and no answer can hand out the model's own arrays.
 */
export function crawlerFields<K extends keyof CrawlerView>(crawler: CrawlerView, fields: readonly K[]): Pick<CrawlerView, K> {
  return Object.fromEntries(fields.map((field) => [field, copied(crawler[field])])) as Pick<CrawlerView, K>;
}

const copied = <T>(value: T): T => (Array.isArray(value) ? ([...value] as T) : value);
