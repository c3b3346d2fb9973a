/** The `code` of a Node system error (ENOENT, EPERM, ...), or undefined for any other value. */
export function errnoOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** An error's message, for quoting in a message of our own. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
