// npm run screenshots: the README's pictures of the website, taken in Debian's headless Chromium
// from the committed dist/ served by the real server, so they show what the build makes.
// Not part of the tests: pictures are for people; the page checks are in test/browser.test.ts.
import { join } from 'node:path';
import { startServer } from '../pipeline/node/server.ts';
import { CHROMIUM, launchChromium } from '../test/support/chromium.ts';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'images');

/** Each picture: the page, the width it is seen at, and what is typed into its search box, if anything. */
const SHOTS = [
  { name: 'crawler-table', path: '/', width: 1280, height: 900, type: 'Bytespider' },
  { name: 'crawler-page', path: '/crawler/gptbot.html', width: 1280, height: 900 },
  { name: 'policies', path: '/policies.html', width: 1280, height: 900 },
  { name: 'home-phone', path: '/', width: 390, height: 844 },
] as const;

if (CHROMIUM === undefined) {
  console.error('screenshots: no Chromium here (Debian: apt-get install chromium)');
  process.exit(2);
}
const server = await startServer({ root: ROOT, port: 0, host: '127.0.0.1', checkEveryMs: 0, requestLog: { file: null } });
const browser = await launchChromium(CHROMIUM);
try {
  const page = await browser.newPage();
  for (const shot of SHOTS) {
    await page.setViewport({ width: shot.width, height: shot.height });
    await page.goto(server.url + shot.path, { waitUntil: 'load' });
    // The first screen's search box narrowing the crawler table below it as a person types.
    if ('type' in shot) await page.type('#crawler-search', shot.type);
    const file = join(OUT, `${shot.name}.png`);
    await page.screenshot({ path: file as `${string}.png` });
    console.log(`screenshots: ${shot.path} at ${shot.width} px → ${file}`);
  }
} finally {
  await browser.close();
  await server.close();
}
