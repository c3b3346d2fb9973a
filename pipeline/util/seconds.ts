// Times given as seconds since the epoch (RFC 9421 created/expires, JWK nbf/exp), as ISO 8601.

/** The time as ISO 8601; null when it is no finite number or lies outside what a Date can hold. */
export function isoFromSeconds(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const date = new Date(value * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
