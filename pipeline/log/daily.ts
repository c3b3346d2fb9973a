/** The UTC day of a time in milliseconds, as YYYY-MM-DD. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}
