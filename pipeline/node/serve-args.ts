// What `npm start` accepts, and the one line it prints when it cannot start. Pure: serve.ts
// reads the environment and exits; these only judge values and word the answer.

/** The accepted form of a port, quoted by every refusal of one. */
const PORT_FORM = 'a whole number from 1 to 65535, or 0 for any free port';
const DAYS_FORM = 'a whole number of days from 1 to 3650';
/** 1 MiB holds about 4,000 requests; 1,048,576 MiB is 1 TiB. */
const MEGABYTES_FORM = 'a whole number of MiB from 1 to 1048576';

/** A value given on the command line or in the environment that has not the accepted form. */
export class UsageError extends Error {
  override name = 'UsageError';
}

function wholeNumber(value: string, max: number): number | null {
  // Digits only: Number() would also take '', ' 80', '0x50', '8e1' and '80.0'.
  if (!/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n <= max ? n : null;
}

export function parsePort(value: string): number {
  const n = wholeNumber(value, 65_535);
  if (n === null) throw new UsageError(`expected ${PORT_FORM}`);
  return n;
}

const ORIGIN_FORM = 'an absolute http or https URL with no query, fragment or credentials, such as https://crawlers.example.org';

/** BASE_URL / --base-url: the origin every address the server writes names; kept without a trailing slash. */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`expected ${ORIGIN_FORM}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new UsageError(`expected ${ORIGIN_FORM}`);
  return url.href.replace(/\/+$/, '');
}

/** An on/off setting from the environment (TRUST_PROXY): 1 or true, 0 or false. */
export function parseSwitch(value: string): boolean {
  if (/^(1|true)$/i.test(value)) return true;
  if (/^(0|false)$/i.test(value)) return false;
  throw new UsageError('expected 1 or true to turn it on, 0 or false (or nothing) to leave it off');
}

export function parseDays(value: string): number {
  const n = wholeNumber(value, 3_650);
  if (n === null || n < 1) throw new UsageError(`expected ${DAYS_FORM}`);
  return n;
}

/** --log-max-mb / LOG_MAX_MB: the request log's size cap, in MiB. */
export function parseMegabytes(value: string): number {
  const n = wholeNumber(value, 1_048_576);
  if (n === null || n < 1) throw new UsageError(`expected ${MEGABYTES_FORM}`);
  return n;
}

/**
 * A setting from the environment, judged like its command-line option; unset or empty means
 * the default (`PORT= npm start` is how a shell unsets it for one command).
 */
export function fromEnvironment<T>(env: Readonly<Record<string, string | undefined>>, name: string, parse: (value: string) => T, fallback: T): T {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  try {
    return parse(value);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`environment variable ${name} ${JSON.stringify(value)} is invalid. ${error.message}`);
    throw error;
  }
}

/** The line printed when the listening socket cannot be opened, by the error's code. */
export function listenFailure(code: string | undefined, host: string, port: number, message: string): string {
  const where = `${host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use on ${host}: stop what holds it, or choose another with PORT or --port (${PORT_FORM})`;
    case 'EACCES':
      return `no permission to listen on ${where}: ports below 1024 need privileges; choose another with PORT or --port (${PORT_FORM})`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${host} is not an address of this machine; give one with HOST or --host (default 0.0.0.0, every address)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name ${host} does not resolve; give an address with HOST or --host (default 0.0.0.0)`;
    default:
      return `cannot listen on ${where}: ${message}`;
  }
}
