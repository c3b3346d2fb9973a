// Debian's Chromium, headless, as the page tests and `npm run screenshots` both start it.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

/** The Chromium binary: $CHROMIUM, or Debian's; undefined where none is installed. */
export const CHROMIUM = [process.env['CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p !== undefined && existsSync(p));

/**
 * A headless Chromium that reaches nothing but this machine: without the background-networking
 * flags it keeps trying hosts it cannot reach, many connections at a time, and even with them it
 * still looks up Google's sign-in and update hosts (accounts.google.com, clients2.google.com), so
 * its resolver is told that no host but 127.0.0.1, where the pages are served, exists.
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
}
