import type { DailyRow } from './types.ts';

/** The UTC day of a time in milliseconds, as YYYY-MM-DD. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The columns a daily row is grouped by, as one key. */
export function dailyKey(row: Omit<DailyRow, 'requests' | 'bytes'>): string {
  return `${row.day}\u0000${row.route}\u0000${row.status}\u0000${row.crawler ?? ''}\u0000${row.category ?? ''}\u0000${row.verdict ?? ''}`;
}
