import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { linkAttributeCount, pageLinks } from './links.ts';

// The static-host crawl is only as good as the scanner that finds the links.

test('the link scanner finds href, src, every srcset candidate and form actions with their method, decoding entities', () => {
  const html = `<!DOCTYPE html><html><head><link rel="canonical" href="https://example.org/a"><link rel=stylesheet href=site.css>
<script src="site.js" defer></script><script>const x = '<a href="not-a-link">';</script></head>
<body><!-- <a href="commented-out"> --><a class="x" href="b.html?x=1&amp;y=2#top">b</a>
<img src='i.png' srcset="i-1x.png 1x, i-2x.png 2x" alt=""><form action="tools/lint" method="POST"></form><form action="tools/classify"></form></body></html>`;
  assert.deepEqual(pageLinks(html), [
    { tag: 'link', attribute: 'href', value: 'https://example.org/a', rel: 'canonical' },
    { tag: 'link', attribute: 'href', value: 'site.css', rel: 'stylesheet' },
    { tag: 'script', attribute: 'src', value: 'site.js' },
    { tag: 'a', attribute: 'href', value: 'b.html?x=1&y=2#top' },
    { tag: 'img', attribute: 'src', value: 'i.png' },
    { tag: 'img', attribute: 'srcset', value: 'i-1x.png' },
    { tag: 'img', attribute: 'srcset', value: 'i-2x.png' },
    { tag: 'form', attribute: 'action', value: 'tools/lint', method: 'post' },
    { tag: 'form', attribute: 'action', value: 'tools/classify', method: 'get' },
  ]);
  assert.equal(linkAttributeCount(html), 7);
});
